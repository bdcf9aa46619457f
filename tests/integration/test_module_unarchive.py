"""unarchive on a test host: tar.gz, tar.bz2, tar.xz and zip archives from the controller or already on the
host, only what differs written, strip-components, include/exclude, creates, list_files, permissions and owners
from the archive or the task, and as deploy through sudo."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for


def _tar_entry(archive: tarfile.TarFile, name: str, data: bytes | None = None, mode: int = 0o644,
               link: str | None = None, uid: int = 0, uname: str = "root") -> None:
    info = tarfile.TarInfo(name)
    info.mode, info.uid, info.gid, info.uname, info.gname, info.mtime = mode, uid, 0, uname, "root", 1_700_000_000
    if link is not None:
        info.type, info.linkname = tarfile.SYMTYPE, link
    elif data is None:
        info.type = tarfile.DIRTYPE
    else:
        info.size = len(data)
    archive.addfile(info, io.BytesIO(data) if data is not None else None)


def make_tar(path: Path, compression: str) -> Path:
    """app-1.0/ with bin/tool (0755, owned by deploy), README, and a link current -> bin/tool."""
    with tarfile.open(path, f"w:{compression}") as archive:
        _tar_entry(archive, "app-1.0", mode=0o755)
        _tar_entry(archive, "app-1.0/bin", mode=0o755)
        _tar_entry(archive, "app-1.0/bin/tool", b"#!/bin/sh\necho tool\n", 0o755, uid=1001, uname="deploy")
        _tar_entry(archive, "app-1.0/README", b"read me\n")
        _tar_entry(archive, "app-1.0/current", link="bin/tool")
    return path


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """The controller's files/: app.tar.gz, app.tar.bz2, app.tar.xz and app.zip."""
    directory = tmp_path / "files"
    directory.mkdir()
    for compression in ("gz", "bz2", "xz"):
        make_tar(directory / f"app.tar.{compression}", compression)
    with zipfile.ZipFile(directory / "app.zip", "w") as archive:
        archive.writestr("site/index.html", "<h1>hi</h1>\n")
        archive.writestr("site/css/main.css", "body {}\n")
    return tmp_path


@pytest.mark.parametrize("name", ["app.tar.gz", "app.tar.bz2", "app.tar.xz"])
def test_tar_from_the_controller(host: RemoteHost, scratch: str, files: Path, name: str, testenv) -> None:
    infra = infra_for(testenv)
    args = {"src": name, "dest": scratch, "list_files": True}
    result = converge(host, "unarchive", args, state=lambda: infra.file(f"{scratch}/app-1.0").exists,
                      search_paths=[files])
    assert result["handler"] == "TgzArchive" and result["src"] == str(files / "files" / name)
    assert result["files"] == ["app-1.0", "app-1.0/bin", "app-1.0/bin/tool", "app-1.0/README", "app-1.0/current"]
    tool = infra.file(f"{scratch}/app-1.0/bin/tool")
    assert tool.content_string == "#!/bin/sh\necho tool\n" and tool.mode == 0o755 and tool.user == "deploy"
    assert infra.file(f"{scratch}/app-1.0/current").linked_to == f"{scratch}/app-1.0/bin/tool"
    assert infra.file(f"{scratch}/app-1.0/README").user == "root"
    # The upload in the agent's temp directory is gone once unpacked.
    assert host.shell("ls -d ~root/.ansible/tmp/ansible-tmp-*/archive.* /home/*/.ansible/tmp/ansible-tmp-*/archive.* "
                      "2>/dev/null || true") == ""


def test_only_what_differs_is_written(host: RemoteHost, scratch: str, files: Path, testenv) -> None:
    infra = infra_for(testenv)
    args = {"src": "app.tar.gz", "dest": scratch}
    host.run("unarchive", args, search_paths=[files])
    host.shell(f"echo changed > {scratch}/app-1.0/README && chmod 0700 {scratch}/app-1.0/bin/tool")
    link_inode = host.shell(f"stat -c %i {scratch}/app-1.0/current")
    predicted = host.run("unarchive", args, search_paths=[files], check=True, diff=True)
    assert predicted["changed"] is True
    assert predicted["diff"]["after"] == "app-1.0/bin/tool: file\napp-1.0/README: file\n"
    assert infra.file(f"{scratch}/app-1.0/README").content_string == "changed\n"
    converge_again = host.run("unarchive", args, search_paths=[files])
    assert converge_again["changed"] is True and infra.file(f"{scratch}/app-1.0/README").content_string == "read me\n"
    assert infra.file(f"{scratch}/app-1.0/bin/tool").mode == 0o755
    assert host.shell(f"stat -c %i {scratch}/app-1.0/current") == link_inode  # unchanged: not rewritten
    assert host.run("unarchive", args, search_paths=[files])["changed"] is False


def test_zip_with_task_attributes(host: RemoteHost, scratch: str, files: Path, testenv) -> None:
    infra = infra_for(testenv)
    args = {"src": "app.zip", "dest": scratch, "owner": "deploy", "group": "deploy", "mode": "u=rwX,g=rX,o="}
    result = converge(host, "unarchive", args, state=lambda: infra.file(f"{scratch}/site").exists,
                      search_paths=[files])
    assert result["handler"] == "ZipArchive"
    page = infra.file(f"{scratch}/site/index.html")
    assert page.content_string == "<h1>hi</h1>\n" and page.user == "deploy" and page.mode == 0o640
    assert infra.file(f"{scratch}/site/css").mode == 0o750


def test_remote_src_with_strip_components_and_include(host: RemoteHost, scratch: str, files: Path, testenv) -> None:
    infra = infra_for(testenv)
    host.shell(f"mkdir -p {scratch}/src {scratch}/bin")
    host.loop.run_until_complete(host.session.put(files / "files" / "app.tar.gz", f"{scratch}/src/app.tgz"))
    args = {"src": f"{scratch}/src/app.tgz", "dest": f"{scratch}/bin", "remote_src": True,
            "extra_opts": ["--strip-components=2"], "include": ["*/bin/tool"]}
    converge(host, "unarchive", args, state=lambda: infra.file(f"{scratch}/bin/tool").exists)
    assert host.shell(f"ls -A {scratch}/bin").split() == ["tool"]
    assert infra.file(f"{scratch}/src/app.tgz").exists  # an archive on the host is never removed
    excluded = host.run("unarchive", {"src": f"{scratch}/src/app.tgz", "dest": f"{scratch}/bin", "remote_src": True,
                                      "exclude": ["*README", "app-1.0/current"]})
    assert excluded["changed"] is True and not infra.file(f"{scratch}/bin/app-1.0/README").exists
    unsupported = host.run("unarchive", {**args, "extra_opts": ["--no-same-owner"]})
    assert unsupported["failed"] and "only --strip-components is understood" in unsupported["msg"]


def test_creates_and_failures(host: RemoteHost, scratch: str, files: Path, tmp_path: Path) -> None:
    skipped = host.run("unarchive", {"src": "app.tar.gz", "dest": scratch, "creates": scratch},
                       search_paths=[files])
    assert skipped["changed"] is False and skipped["msg"] == f"skipped, since {scratch} exists"
    assert host.run("unarchive", {"src": "app.tar.gz", "dest": f"{scratch}/none"}, search_paths=[files])["msg"] == (
        f"Destination '{scratch}/none' is not a directory")
    (tmp_path / "files" / "plain.txt").write_text("not an archive")
    wrong = host.run("unarchive", {"src": "plain.txt", "dest": scratch}, search_paths=[files])
    assert wrong["failed"] and wrong["msg"].startswith('Failed to find handler for "')
    evil = tmp_path / "files" / "evil.tar"
    with tarfile.open(evil, "w") as archive:
        _tar_entry(archive, "../escape", b"x")
    refused = host.run("unarchive", {"src": "evil.tar", "dest": scratch}, search_paths=[files])
    assert refused["failed"] and "outside the destination" in refused["msg"]


def test_as_deploy_with_sudo(host: RemoteHost, host_as_deploy: RemoteHost, scratch: str, files: Path,
                             testenv) -> None:
    infra = infra_for(testenv)
    host.shell(f"chmod 0700 {scratch}")
    converge(host_as_deploy, "unarchive", {"src": "app.zip", "dest": scratch},
             state=lambda: infra.file(f"{scratch}/site").exists, search_paths=[files])
    assert infra.file(f"{scratch}/site/index.html").user == "root"
