"""The cache of the models' core schemas: a command built from it validates, reports and describes the playbook
language and the plan exactly as one that built them, and a cache it cannot trust is passed over.

Each command runs in a fresh interpreter with its own cache directory, since this test process has long built
every model.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# What a command sees of the models: their JSON schemas (which read the core schemas' metadata), an error report
# and whether the models came from the cache (no validator built: pydantic's plugin loader never imported).
_OBSERVE = """
import json, sys
from runner.models import Play, validate
from runner.models.play import PlayList
from runner.plan import Plan
from runner.errors import UserError
from runner.loader.yaml import load_yaml_file
found = {"cached": "pydantic.plugin._loader" not in sys.modules}
from runner.models.schemas import SCHEMAS, schema_for
found["schemas"] = [Play.model_json_schema(), Plan.model_json_schema(), *(schema_for(name) for name in SCHEMAS)]
try:
    validate(PlayList, load_yaml_file(sys.argv[1]))
except UserError as error:
    found["error"] = error.render(with_excerpt=False)
print(json.dumps(found, default=str))
"""


def _observe(cache: Path, playbook: Path) -> dict[str, object]:
    result = subprocess.run([sys.executable, "-c", _OBSERVE, str(playbook)], cwd=ROOT, capture_output=True,
                            text=True, check=True, env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    return json.loads(result.stdout)


def _bad_playbook(tmp_path: Path) -> Path:
    playbook = tmp_path / "bad.yml"
    playbook.write_text("- hosts: all\n  tasks:\n    - name: x\n      debug: {msg: hi}\n      whenn: true\n"
                        "  become: maybe\n")
    return playbook


def test_a_command_built_from_the_cache_sees_the_same_models(tmp_path: Path) -> None:
    playbook = _bad_playbook(tmp_path)
    built = _observe(tmp_path / "cache", playbook)
    cached = _observe(tmp_path / "cache", playbook)
    assert not built["cached"] and cached["cached"]
    assert cached["schemas"] == built["schemas"]
    assert cached["error"] == built["error"]
    assert "bad.yml:5:7:" in str(cached["error"]) and "bad.yml:6:11:" in str(cached["error"])
    directory = tmp_path / "cache" / "provisioning" / "models"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    files = list(directory.glob("*.pickle"))
    assert len(files) == 2  # the playbook language's models and the plan's
    assert all(stat.S_IMODE(file.stat().st_mode) == 0o600 for file in files)


def test_a_cache_file_others_can_write_is_never_read(tmp_path: Path) -> None:
    playbook = _bad_playbook(tmp_path)
    reference = _observe(tmp_path / "cache", playbook)
    directory = tmp_path / "cache" / "provisioning" / "models"
    for file in directory.glob("*.pickle"):
        file.chmod(0o622)
    found = _observe(tmp_path / "cache", playbook)
    assert not found["cached"] and found["error"] == reference["error"]


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path) -> None:
    playbook = _bad_playbook(tmp_path)
    reference = _observe(tmp_path / "cache", playbook)
    directory = tmp_path / "cache" / "provisioning" / "models"
    for file in directory.glob("*.pickle"):
        file.write_bytes(file.read_bytes()[:100])
    rebuilt = _observe(tmp_path / "cache", playbook)
    assert not rebuilt["cached"] and rebuilt["schemas"] == reference["schemas"]
    assert _observe(tmp_path / "cache", playbook)["cached"]  # and written again whole


def test_an_unwritable_cache_only_costs_the_build(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("")
    playbook = _bad_playbook(tmp_path)
    first, second = _observe(blocked, playbook), _observe(blocked, playbook)
    assert not first["cached"] and not second["cached"] and first["error"] == second["error"]


def test_the_cache_is_named_by_the_versions_and_the_source_of_the_models() -> None:
    from runner.models import Play
    from runner.plan import Plan
    from runner.util.model_cache import _cache_file

    names = {_cache_file({"Play": Play}, ("runner/models",)), _cache_file({"Play": Play}, ("runner/plan",)),
             _cache_file({"Plan": Plan}, ("runner/plan",))}
    assert len(names) == 3 and None not in names
