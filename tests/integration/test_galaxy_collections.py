"""Ansible collections through provisioning-galaxy: built as ansible-galaxy builds them (and accepted by it),
pushed to and installed from a real registry (Debian's docker-registry, started here) with dependencies, a lock
and the cache, and installed from tarballs, git repositories and directories. ansible-core's own
``ansible-galaxy collection list`` proves the installed collections are where it looks for them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from runner.galaxy.local_registry import BINARIES, LocalRegistry
from runner.galaxy.lockfile import read_lock
from tests.integration.test_galaxy_sources import git
from tests.support.ansible_core import ansible_binary
from tests.support.galaxy import Galaxy

needs_registry = pytest.mark.skipif(not any(shutil.which(name) for name in BINARIES),
                                    reason="no registry binary (apt-get install docker-registry)")



def make_collection(parent: Path, fqcn: str, version: str, dependencies: dict[str, str] | None = None) -> Path:
    namespace, name = fqcn.split(".")
    root = parent / f"{namespace}_{name}_{version}"
    (root / "plugins" / "modules").mkdir(parents=True)
    (root / "roles" / "hello" / "tasks").mkdir(parents=True)
    (root / "galaxy.yml").write_text(
        f"namespace: {namespace}\nname: {name}\nversion: {version}\nreadme: README.md\nauthors: [ops]\n"
        f"license: MIT\ndependencies: {json.dumps(dependencies or {})}\nbuild_ignore: ['*.log']\n")
    (root / "README.md").write_text(f"# {fqcn} {version}\n")
    (root / "plugins" / "modules" / "ping.py").write_text(f"VERSION = {version!r}\n")
    (root / "roles" / "hello" / "tasks" / "main.yml").write_text(f"- debug: msg={fqcn}-{version}\n")
    (root / "build.log").write_text("left out by build_ignore\n")
    return root


def ansible_galaxy(*args: str, home: Path) -> str:
    return subprocess.run([str(ansible_binary("ansible-galaxy")), *args], check=True, capture_output=True, text=True,
                          env={"HOME": str(home), "PATH": "/usr/bin:/bin"}).stdout


def ansible_list(collections: Path, home: Path) -> dict[str, str]:
    """What ansible-core sees in a collections path: {NAMESPACE.NAME: version}."""
    data = json.loads(ansible_galaxy("collection", "list", "-p", str(collections), "--format", "json", home=home))
    root = str(collections / "ansible_collections")  # ansible-core lists its built-in collection too
    return {name: info["version"] for path, found in data.items() if path == root for name, info in found.items()}


def test_build_is_reproducible_ansible_layout_and_ansible_installs_it(tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    source = make_collection(tmp_path / "src", "demo.tools", "1.2.0")
    ours = tmp_path / "ours"
    first = galaxy("collection", "build", str(source), "--output-path", str(ours)).stdout.strip()
    (ours / "demo-tools-1.2.0.tar.gz").rename(tmp_path / "first.tar.gz")
    second = galaxy("collection", "build", str(source), "--output-path", str(ours)).stdout.strip()
    assert first == second and first.startswith("sha256:")
    ansible_galaxy("collection", "build", str(source), "--output-path", str(tmp_path / "theirs"), home=tmp_path)

    def layout(tarball: Path) -> tuple[list[str], dict[str, object], list[dict[str, object]]]:
        with tarfile.open(tarball) as tar:
            names = tar.getnames()
            manifest = json.loads(tar.extractfile("MANIFEST.json").read())  # type: ignore[union-attr]
            files = json.loads(tar.extractfile("FILES.json").read())["files"]  # type: ignore[union-attr]
        manifest["file_manifest_file"]["chksum_sha256"] = None  # FILES.json's order differs: ours is sorted
        return sorted(names), manifest, sorted(files, key=lambda entry: str(entry["name"]))

    assert layout(ours / "demo-tools-1.2.0.tar.gz") == layout(tmp_path / "theirs" / "demo-tools-1.2.0.tar.gz")
    assert "build.log" not in layout(ours / "demo-tools-1.2.0.tar.gz")[0]
    ansible_galaxy("collection", "install", str(ours / "demo-tools-1.2.0.tar.gz"), "-p", str(tmp_path / "installed"),
                   home=tmp_path)
    assert ansible_list(tmp_path / "installed", tmp_path) == {"demo.tools": "1.2.0"}


def test_bad_galaxy_yml_is_reported_at_its_line(tmp_path: Path) -> None:
    source = make_collection(tmp_path, "demo.tools", "1.0.0")
    (source / "galaxy.yml").write_text("namespace: demo\nname: Tools\nversion: 1.0\nreadme: README.md\n"
                                       "authors: [ops]\n")
    run = Galaxy(tmp_path / "home")("collection", "build", str(source), expect=4)
    assert f"{source / 'galaxy.yml'}:2:7" in run.stderr and "'Tools' is not a collection name part" in run.stderr
    assert f"{source / 'galaxy.yml'}:3:10" in run.stderr and "not a semver version" in run.stderr
    run = Galaxy(tmp_path / "home")("collection", "build", str(tmp_path), expect=1)
    assert "has no galaxy.yml" in run.stderr and "Traceback" not in run.output


@needs_registry
def test_registry_collections_with_dependencies_lock_and_frozen_offline(basic_registry: LocalRegistry,
                                                                       tmp_path: Path) -> None:
    registry = basic_registry.registry
    galaxy = Galaxy(tmp_path / "home")
    galaxy.login(registry)
    team = f"oci://{registry}/team"
    for version in ("1.0.0", "1.1.0", "2.0.0"):
        galaxy("collection", "push", str(make_collection(tmp_path / "src", "demo.base", version)), f"{team}/demo.base")
    tools = make_collection(tmp_path / "src", "demo.tools", "1.0.0", {"demo.base": ">=1.0.0,<2.0.0"})
    pushed = galaxy("collection", "push", str(tools), f"{team}/demo.tools:1.0.0").stdout.split()[-1]
    mismatch = galaxy("collection", "push", str(tools), f"{team}/demo.other:1.0.0", expect=1)
    assert "is the collection demo.tools" in mismatch.stderr

    project = tmp_path / "project"
    project.mkdir()
    requirements = project / "requirements.yml"
    requirements.write_text(f"collections:\n  - name: {team}/demo.tools\n    version: '^1.0'\n")
    collections = project / "collections"
    run = galaxy("collection", "install", "-r", str(requirements), "-p", str(collections))
    assert "demo.base (1.1.0) was installed successfully" in run.stdout
    assert (collections / "ansible_collections" / "demo" / "tools" / "plugins" / "modules" / "ping.py").is_file()
    assert ansible_list(collections, tmp_path) == {"demo.base": "1.1.0", "demo.tools": "1.0.0"}
    lock = read_lock(requirements.with_suffix(".lock"))
    assert lock is not None and lock.roles == []
    assert {(item.name, item.version) for item in lock.collections} == {("demo.tools", "1.0.0"), ("demo.base", "1.1.0")}
    tools_locked = next(item for item in lock.collections if item.name == "demo.tools")
    assert tools_locked.digest == pushed and tools_locked.dependencies == ("demo.base",)
    listed = galaxy("collection", "list", "-p", str(collections)).stdout
    assert f"- demo.tools, 1.0.0 ({pushed})" in listed
    assert "already installed, skipping" in galaxy("collection", "install", "-r", str(requirements), "-p",
                                                   str(collections)).stdout

    # --frozen with the registry stopped: the lock and the cache are enough.
    basic_registry.stop()
    shutil.rmtree(collections)
    frozen = galaxy("install", "-r", str(requirements), "--collections-path", str(collections), "--frozen").stdout
    assert "demo.tools (1.0.0) was installed successfully" in frozen and "downloading" not in frozen
    assert ansible_list(collections, tmp_path) == {"demo.base": "1.1.0", "demo.tools": "1.0.0"}


@needs_registry
def test_an_ansible_built_tarball_pushed_and_pulled_by_digest(basic_registry: LocalRegistry, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    registry = basic_registry.registry
    galaxy = Galaxy(tmp_path / "home")
    galaxy.login(registry)
    source = make_collection(tmp_path / "src", "demo.tools", "3.0.0")
    galaxy("collection", "build", str(source), "--output-path", str(tmp_path))
    built = tmp_path / "demo-tools-3.0.0.tar.gz"
    digest = galaxy("collection", "push", str(built), f"oci://{registry}/team/demo.tools").stdout.split()[-1]
    # The configured collections path (Ansible's variable) is where a pull goes by default.
    monkeypatch.setenv("ANSIBLE_COLLECTIONS_PATH", str(tmp_path / "shared"))
    galaxy("collection", "pull", f"oci://{registry}/team/demo.tools@{digest}")
    installed = tmp_path / "shared" / "ansible_collections" / "demo" / "tools"
    assert (installed / "README.md").read_text() == "# demo.tools 3.0.0\n"
    assert "- demo.tools, 3.0.0" in galaxy("collection", "list").stdout


def test_collections_from_a_tarball_git_and_a_directory_with_dependencies(tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    project = tmp_path / "project"
    project.mkdir()
    tools = make_collection(tmp_path / "src", "demo.tools", "1.0.0", {"demo.base": "*", "demo.extra": ">=0.1.0"})
    galaxy("collection", "build", str(tools), "--output-path", str(project))
    base = make_collection(tmp_path / "repos", "demo.base", "2.0.0")
    git(base, "init", "-q")
    git(base, "add", "-A")
    git(base, "commit", "-q", "-m", "base")
    git(base, "tag", "v2.0.0")
    extra = make_collection(project, "demo.extra", "0.2.0")
    requirements = project / "requirements.yml"
    requirements.write_text(f"""collections:
  - name: ./demo-tools-1.0.0.tar.gz
    type: file
  - name: git+file://{base}
    type: git
    version: v2.0.0
  - name: ./{extra.name}
    type: dir
""")
    collections = project / "collections"
    galaxy("collection", "install", "-r", str(requirements), "-p", str(collections))
    root = collections / "ansible_collections" / "demo"
    assert sorted(path.name for path in root.iterdir()) == ["base", "extra", "tools"]
    assert (root / "base" / "MANIFEST.json").is_file() and not (root / "base" / ".git").exists()
    again = galaxy("collection", "install", "-r", str(requirements), "-p", str(collections)).stdout
    assert again.count("is already installed, skipping") == 3 and "installed successfully" not in again
    lock = read_lock(requirements.with_suffix(".lock"))
    assert lock is not None
    sources = {item.name: (item.source, item.commit is not None) for item in lock.collections}
    assert sources == {"demo.tools": ("demo-tools-1.0.0.tar.gz", False), "demo.base": (f"git+file://{base}", True),
                       "demo.extra": (extra.name, False)}
    # --frozen from the lock: the same names without fetching anything to learn them.
    shutil.rmtree(collections)
    shutil.move(base, tmp_path / "gone")
    galaxy("collection", "install", "-r", str(requirements), "-p", str(collections), "--frozen")
    assert sorted(path.name for path in root.iterdir()) == ["base", "extra", "tools"]
    assert ansible_list(collections, tmp_path) == {"demo.base": "2.0.0", "demo.extra": "0.2.0",
                                                   "demo.tools": "1.0.0"}
