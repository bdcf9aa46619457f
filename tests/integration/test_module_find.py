"""find on a test host: patterns (globs and regular expressions), excludes, file types, age, size, contents,
recursion with depth, hidden entries, checksums, missing paths, and a root-only tree through sudo."""

from __future__ import annotations

import hashlib

import pytest

from tests.support.remote_harness import RemoteHost


@pytest.fixture
def tree(host: RemoteHost, scratch: str) -> str:
    """app.log (old, 2 KiB), app.conf ('listen 0.0.0.0'), .hidden, sub/nested.log, sub/deeper/deep.log, a link."""
    host.shell(f"cd {scratch} && mkdir -p sub/deeper && head -c 2048 /dev/zero > app.log"
               f" && touch -d '10 days ago' app.log && printf 'user app\\nlisten 0.0.0.0\\n' > app.conf"
               f" && echo h > .hidden && echo n > sub/nested.log && echo d > sub/deeper/deep.log"
               f" && ln -s app.conf current.conf")
    return scratch


def paths(result: dict) -> list[str]:
    assert not result.get("failed"), result
    return sorted(entry["path"] for entry in result["files"])


def test_patterns_and_excludes(host: RemoteHost, tree: str) -> None:
    assert paths(host.run("find", {"paths": tree, "patterns": "*.log"})) == [f"{tree}/app.log"]
    assert paths(host.run("find", {"paths": tree, "patterns": ["*.log", "*.conf"], "excludes": "app.log"})) == [
        f"{tree}/app.conf"]
    assert paths(host.run("find", {"paths": tree, "patterns": r"app\.(log|conf)$", "use_regex": True})) == [
        f"{tree}/app.conf", f"{tree}/app.log"]


def test_file_types_and_hidden(host: RemoteHost, tree: str) -> None:
    assert paths(host.run("find", {"paths": tree, "file_type": "directory"})) == [f"{tree}/sub"]
    assert paths(host.run("find", {"paths": tree, "file_type": "link"})) == [f"{tree}/current.conf"]
    assert f"{tree}/.hidden" in paths(host.run("find", {"paths": tree, "hidden": True}))
    result = host.run("find", {"paths": tree, "file_type": "any"})
    assert paths(result) == [f"{tree}/app.conf", f"{tree}/app.log", f"{tree}/current.conf", f"{tree}/sub"]
    assert result["examined"] == 5 and result["matched"] == 4 and result["msg"] == "All paths examined"


def test_age_size_and_contents(host: RemoteHost, tree: str) -> None:
    assert paths(host.run("find", {"paths": tree, "age": "1w"})) == [f"{tree}/app.log"]
    assert paths(host.run("find", {"paths": tree, "age": "-1d"})) == [f"{tree}/app.conf"]
    assert paths(host.run("find", {"paths": tree, "size": "2k"})) == [f"{tree}/app.log"]
    assert paths(host.run("find", {"paths": tree, "size": "-100"})) == [f"{tree}/app.conf"]
    assert paths(host.run("find", {"paths": tree, "contains": r"listen\s+0\.0\.0\.0"})) == [f"{tree}/app.conf"]
    assert paths(host.run("find", {"paths": tree, "contains": "0.0.0.0"})) == []  # a line's start, as Ansible
    assert paths(host.run("find", {"paths": tree, "contains": "0.0.0.0", "read_whole_file": True})) == [
        f"{tree}/app.conf"]
    assert host.run("find", {"paths": tree, "age": "soon"})["msg"] == "failed to process age"


def test_recursion_with_depth_checksums_and_limit(host: RemoteHost, tree: str) -> None:
    everything = [f"{tree}/app.log", f"{tree}/sub/deeper/deep.log", f"{tree}/sub/nested.log"]
    assert paths(host.run("find", {"paths": tree, "patterns": "*.log", "recurse": True})) == everything
    assert paths(host.run("find", {"paths": tree, "patterns": "*.log", "recurse": True, "depth": 2})) == [
        f"{tree}/app.log", f"{tree}/sub/nested.log"]
    found = host.run("find", {"paths": f"{tree}/sub", "patterns": "nested.log", "get_checksum": True})["files"]
    assert found[0]["checksum"] == hashlib.sha1(b"n\n").hexdigest() and found[0]["mode"] == "0644"
    assert found[0]["isreg"] is True and found[0]["pw_name"] == "root"
    assert host.run("find", {"paths": tree, "recurse": True, "patterns": "*.log", "limit": 1})["matched"] == 1


def test_missing_path_is_skipped_with_a_warning(host: RemoteHost, tree: str) -> None:
    result = host.run("find", {"paths": [f"{tree}/none", tree], "patterns": "*.conf"})
    assert paths(result) == [f"{tree}/app.conf"]
    assert result["skipped_paths"] == {f"{tree}/none": f"'{tree}/none' is not a directory"}
    assert result["msg"] == "Not all paths examined, check warnings for details" and result["warnings"]


def test_root_only_directory_through_sudo(host_as_deploy: RemoteHost, tree: str) -> None:
    host_as_deploy.shell(f"chmod 0700 {tree}/sub")
    found = host_as_deploy.run("find", {"paths": f"{tree}/sub", "patterns": "*.log"})
    assert paths(found) == [f"{tree}/sub/nested.log"]
