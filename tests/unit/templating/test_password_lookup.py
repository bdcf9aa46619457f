"""The ``password`` lookup: generated, stored beside the playbook, read back, hashed with its kept salt."""

from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import Any

import pytest

from runner.templating import Templar, TemplateError
from runner.templating.filters.encoding import password_hash


@pytest.fixture(scope="module")
def templar() -> Templar:
    return Templar()


def look(templar: Templar, playbook_dir: Path, term: str, **options: Any) -> Any:
    given = "".join(f", {name}={value!r}" for name, value in options.items())
    return templar.template("{{ lookup('password', " + repr(term) + given + ") }}", {},
                            search_paths=[playbook_dir / "roles" / "web", playbook_dir])


def test_a_new_password_is_stored_privately_and_read_back(templar: Templar, tmp_path: Path) -> None:
    first = look(templar, tmp_path, "credentials/db length=8")
    stored = tmp_path / "credentials" / "db"
    assert len(first) == 8
    assert stored.read_text() == first + "\n"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert stat.S_IMODE(stored.parent.stat().st_mode) == 0o700
    assert look(templar, tmp_path, "credentials/db length=30") == first  # the stored one wins
    assert sorted(path.name for path in stored.parent.iterdir()) == ["db"]  # no lock file left


def test_dev_null_generates_every_time_and_a_seed_repeats(templar: Templar, tmp_path: Path) -> None:
    assert look(templar, tmp_path, "/dev/null") != look(templar, tmp_path, "/dev/null")
    seeded = look(templar, tmp_path, "/dev/null seed=foo")
    assert seeded == look(templar, tmp_path, "/dev/null", seed="foo")
    assert len(seeded) == 20


def test_chars_names_string_sets_or_gives_characters(templar: Templar, tmp_path: Path) -> None:
    assert re.fullmatch(r"[0-9]{40}", look(templar, tmp_path, "/dev/null chars=digits length=40"))
    assert look(templar, tmp_path, "/dev/null chars=,, length=3") == ",,,"
    assert re.fullmatch(r"[ab]{10}", look(templar, tmp_path, "/dev/null", chars=["a", "b"], length=10))


def test_encrypt_keeps_the_salt_so_the_hash_is_stable(templar: Templar, tmp_path: Path) -> None:
    hashed = look(templar, tmp_path, "secret encrypt=sha256_crypt")
    line = (tmp_path / "secret").read_text().rstrip("\n")
    plain, _, salt = line.partition(" salt=")
    assert hashed == password_hash(plain, "sha256_crypt", salt=salt)
    assert look(templar, tmp_path, "secret encrypt=sha256_crypt") == hashed
    assert look(templar, tmp_path, "secret") == plain
    assert look(templar, tmp_path, "secret encrypt=") == plain


def test_a_path_with_spaces(templar: Templar, tmp_path: Path) -> None:
    look(templar, tmp_path, "my secrets/db password length=5")
    assert len((tmp_path / "my secrets" / "db password").read_text().strip()) == 5


@pytest.mark.parametrize("term", ["/dev/null junk=1", "/dev/null length=8 stray"])
def test_bad_parameters_are_errors_in_ansibles_words(templar: Templar, tmp_path: Path, term: str) -> None:
    with pytest.raises(TemplateError, match="password lookup"):
        look(templar, tmp_path, term)
    with pytest.raises(TemplateError, match="Unrecognized parameter"):
        look(templar, tmp_path, "/dev/null", junk=1)
