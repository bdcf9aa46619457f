"""archive on a test host: a tree as tar.gz and zip (idempotent by content, rewritten when a file changes), a
single file compressed, globs and exclusions, remove, check mode, and as deploy through sudo."""

from __future__ import annotations

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for


@pytest.fixture
def tree(host: RemoteHost, scratch: str) -> str:
    host.shell(f"cd {scratch} && mkdir -p data/sub && printf 'one\\n' > data/one.txt && printf 'two\\n' > "
               f"data/sub/two.log && ln -s one.txt data/link && printf 'dump' > db.sql")
    return scratch


def listing(host: RemoteHost, command: str) -> list[str]:
    return sorted(host.shell(command).split())


def test_tree_as_tar_gz(host: RemoteHost, tree: str, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{tree}/data.tar.gz"
    result = converge(host, "archive", {"path": f"{tree}/data", "dest": dest, "mode": "0600"},
                      state=lambda: infra.file(dest).exists)
    assert result["dest_state"] == "archive" and result["arcroot"] == f"{tree}/"
    assert listing(host, f"tar tzf {dest}") == ["data/", "data/link", "data/one.txt", "data/sub/", "data/sub/two.log"]
    assert infra.file(dest).mode == 0o600 and "data/one.txt" in result["diff"]["after"]
    host.shell(f"touch -d '1 day ago' {tree}/data/one.txt")
    assert host.run("archive", {"path": f"{tree}/data", "dest": dest})["changed"] is False  # same content
    host.shell(f"printf 'uno\\n' > {tree}/data/one.txt")
    assert host.run("archive", {"path": f"{tree}/data", "dest": dest}, check=True)["changed"] is True
    assert host.run("archive", {"path": f"{tree}/data", "dest": dest})["changed"] is True
    assert host.shell(f"tar xzOf {dest} data/one.txt") == "uno\n"


def test_glob_as_zip_with_exclusions(host: RemoteHost, tree: str, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{tree}/logs.zip"
    args = {"path": [f"{tree}/data/*", f"{tree}/db.sql"], "dest": dest, "format": "zip",
            "exclude_path": [f"{tree}/data/link"], "exclusion_patterns": ["*.log"]}
    result = converge(host, "archive", args, state=lambda: infra.file(dest).exists)
    assert result["expanded_paths"] == [f"{tree}/data/link", f"{tree}/data/one.txt", f"{tree}/data/sub",
                                        f"{tree}/db.sql"]
    names = host.shell(f"python3 -c \"import zipfile; print('\\\\n'.join(zipfile.ZipFile('{dest}').namelist()))\"")
    assert sorted(names.split()) == ["data/one.txt", "data/sub/", "db.sql"]


def test_single_file_compressed_and_removed(host: RemoteHost, tree: str, testenv) -> None:
    infra = infra_for(testenv)
    args = {"path": f"{tree}/db.sql", "format": "xz", "remove": True}
    predicted = host.run("archive", args, check=True)
    assert predicted["changed"] is True and infra.file(f"{tree}/db.sql").exists
    result = converge(host, "archive", args, diff=False, state=lambda: infra.file(f"{tree}/db.sql.xz").exists)
    assert result["dest"] == f"{tree}/db.sql.xz" and result["dest_state"] == "compress"
    assert not infra.file(f"{tree}/db.sql").exists
    assert host.shell(f"xz -dc {tree}/db.sql.xz") == "dump"
    again = host.run("archive", args)
    assert again["changed"] is False and again["dest_state"] == "compress" and again["missing"] == [f"{tree}/db.sql"]


def test_failures(host: RemoteHost, tree: str) -> None:
    assert host.run("archive", {"path": f"{tree}/data"})["msg"] == (
        'Error, must specify "dest" when archiving multiple files or trees')
    inside = host.run("archive", {"path": f"{tree}/data", "dest": f"{tree}/data/self.tgz", "remove": True})
    assert inside["failed"] and "can not be contained in source paths" in inside["msg"]
    assert host.run("archive", {"path": f"{tree}/nothing-*"})["msg"] == "Error, no source paths were found"


def test_as_deploy_with_sudo(host: RemoteHost, host_as_deploy: RemoteHost, tree: str, testenv) -> None:
    infra = infra_for(testenv)
    host.shell(f"chmod 0700 {tree}/data")
    dest = f"{tree}/root.tar.bz2"
    converge(host_as_deploy, "archive", {"path": f"{tree}/data", "dest": dest, "format": "bz2"},
             state=lambda: infra.file(dest).exists)
    assert infra.file(dest).user == "root"
    assert "data/sub/two.log" in host.shell(f"tar tjf {dest}")
