"""The ``password`` lookup: a random password kept in a file on the controller, as Ansible's.

``lookup('password', 'credentials/db length=15 chars=ascii_letters,digits')`` reads the password stored in the
file, or generates one and stores it (mode 0600, its directory 0700). ``/dev/null`` generates a new password
every time and stores nothing. With ``encrypt`` the stored line also keeps the salt (``PASSWORD salt=SALT``) so
that the hash is the same on every run, and the lookup returns the hash; without it, the plain password (also
the plain part of a line that has a salt). ``seed`` makes the generated password deterministic.
"""

from __future__ import annotations

import fcntl
import os
import random
import secrets
import string
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.parsing.kv import parse_kv, split_args
from runner.templating.errors import TemplateError
from runner.templating.filters.crypt import MAX_SALT_LENGTH, random_salt
from runner.templating.filters.encoding import password_hash
from runner.templating.lookups.base import LookupContext
from runner.util.files import FileWriteError, atomic_write_text

_DEFAULTS: dict[str, Any] = {"length": 20, "chars": ["ascii_letters", "digits", ".,:-_"], "encrypt": None,
                             "ident": None, "seed": None}
_DISCARD = "/dev/null"
_SALT_MARK = " salt="
_IDENT_MARK = " ident="


def password(terms: list[Any], context: LookupContext, **options: Any) -> list[str]:
    unknown = sorted(set(options) - set(_DEFAULTS))
    if unknown:
        raise TemplateError(f"Unrecognized parameter(s) given to password lookup: {', '.join(unknown)}")
    return [_password_for(str(term), {**_DEFAULTS, **options}, context) for term in terms]


def _password_for(term: str, defaults: dict[str, Any], context: LookupContext) -> str:
    relative, params = _parse_term(term, defaults)
    path = _resolve(relative, context)
    length = _length(params["length"])
    chars = _candidate_chars(params["chars"])
    encrypt = params["encrypt"] or None
    with _locked(path):
        stored = None if path == _DISCARD else _read(path)
        if stored is None:
            plain, salt, ident = _generate(length, chars, params["seed"]), None, None
            changed = True
        else:
            plain, salt, ident = _parse_stored(stored)
            changed = False
        if encrypt and not salt:
            salt, changed = random_salt(MAX_SALT_LENGTH), True
        if ident and params["ident"] and ident != params["ident"]:
            raise TemplateError(f"The ident parameter provided ({ident}) does not match the stored one "
                                f"({params['ident']}).")
        ident = ident or params["ident"]
        if changed and path != _DISCARD:
            _write(Path(path), _stored_line(plain, salt if encrypt or salt else None, ident))
    if encrypt:
        return password_hash(plain, encrypt, salt=salt, ident=ident)
    return plain


def _parse_term(term: str, defaults: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``PATH [key=value ...]``; a path may hold spaces as long as no ``key=value`` comes between its words."""
    head, _, rest = term.partition(" ")
    params = dict(defaults)
    if not rest.strip():
        return term, params
    given: dict[str, Any] = {}
    words: list[str] = []
    try:
        for word in split_args(rest):
            if "=" in word:
                given.update(parse_kv(word))
            else:
                words.append(word)
    except UserError as exc:
        raise TemplateError(f"password lookup: {exc.message}") from None
    relative = head
    if words:
        relative = " ".join([head, *words])
        if not term.startswith(relative):
            raise TemplateError("Unrecognized value after key=value parameters given to password lookup")
    unknown = sorted(set(given) - set(_DEFAULTS))
    if unknown:
        raise TemplateError(f"Unrecognized parameter(s) given to password lookup: {', '.join(unknown)}")
    params.update(given)
    return relative, params


def _resolve(relative: str, context: LookupContext) -> str:
    """Relative to the playbook's directory (the last search path), as Ansible's ``path_dwim``."""
    expanded = os.path.expanduser(relative)
    if os.path.isabs(expanded) or not context.search_paths:
        return os.path.abspath(expanded)
    return str(context.search_paths[-1] / expanded)


def _length(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise TemplateError(f"password lookup: length must be an integer, got {value!r}") from None


def _candidate_chars(chars: Any) -> str:
    """``ascii_letters,digits,-_`` names sets of the ``string`` module or gives characters as they are; ``,,``
    stands for a comma. Quotes are never used (they would break the shell lines passwords end up in)."""
    if isinstance(chars, str):
        specs = ([","] if ",," in chars else []) + [spec for spec in chars.replace(",,", ",").split(",") if spec]
    else:
        specs = [str(spec) for spec in chars]
    candidates = "".join(getattr(string, spec, spec) if spec.isidentifier() else spec for spec in specs)
    candidates = candidates.replace('"', "").replace("'", "")
    if not candidates:
        raise TemplateError("password lookup: chars gives no characters to choose from")
    return candidates


def _generate(length: int, chars: str, seed: Any) -> str:
    chooser: Any = random.Random(seed) if seed is not None else secrets.SystemRandom()
    return "".join(chooser.choice(chars) for _ in range(length))


def _parse_stored(content: str) -> tuple[str, str | None, str | None]:
    """``PASSWORD[ salt=SALT[ ident=IDENT]]`` -> (password, salt, ident)."""
    plain, mark, rest = content.rpartition(_SALT_MARK)
    if not mark:
        return content, None, None
    salt, mark, ident = rest.rpartition(_IDENT_MARK)
    if not mark:
        return plain, rest or None, None
    return plain, salt or None, ident or None


def _stored_line(plain: str, salt: str | None, ident: str | None) -> str:
    if salt is None:
        return plain
    return f"{plain}{_SALT_MARK}{salt}" + (f"{_IDENT_MARK}{ident}" if ident else "")


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8").rstrip()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise TemplateError(f"password lookup: cannot read {path}: {exc.strerror}") from None


def _write(path: Path, line: str) -> None:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write_text(path, line + "\n", mode=0o600)
    except OSError as exc:
        raise TemplateError(f"password lookup: cannot write {path}: {exc.strerror}") from None
    except FileWriteError as exc:
        raise TemplateError(f"password lookup: {exc.message}") from None


@contextmanager
def _locked(path: str) -> Iterator[None]:
    """Hosts' workers run the lookup at the same time: one of them creates the file, the others read it. The lock
    is on the file's directory, so no lock file is left beside the passwords."""
    if path == _DISCARD:
        yield
        return
    folder = Path(path).parent
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise TemplateError(f"password lookup: cannot lock {path}: {exc.strerror}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


LOOKUPS = {"password": password}
