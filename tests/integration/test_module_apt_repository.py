"""apt_repository on a test host: a one-line source added, enabled where it is commented out, and removed, with
the lists left alone (update_cache: false) since the host's other sources are on the internet."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for

REPO = "deb [trusted=yes] file:/srv/provisioning-test-repo ./"
LIST = "/etc/apt/sources.list.d/provisioning-test.list"
DERIVED = "/etc/apt/sources.list.d/file_srv_provisioning_test_repo.list"  # as ansible-core names it


@pytest.fixture
def clean_sources(host: RemoteHost) -> Iterator[None]:
    yield
    host.shell(f"rm -f {LIST} {DERIVED}")


def listing(testenv, path: str) -> str | None:
    file = infra_for(testenv).file(path)
    return file.content_string if file.exists else None


def test_added_then_removed(host: RemoteHost, testenv, clean_sources: None) -> None:
    args = {"repo": REPO, "filename": "provisioning-test", "update_cache": False, "mode": "0600"}
    first = converge(host, "apt_repository", args, state=lambda: listing(testenv, LIST))
    assert listing(testenv, LIST) == "deb [trusted=yes] file:/srv/provisioning-test-repo ./\n"
    assert infra_for(testenv).file(LIST).mode == 0o600
    assert first["sources_added"] == [LIST]
    assert first["diff"] == [{"before": "", "after": REPO + "\n", "before_header": "/dev/null",
                              "after_header": f"{LIST} (content)"}]
    removed = converge(host, "apt_repository", {"repo": "deb  [trusted=yes]   file:/srv/provisioning-test-repo ./",
                                                "state": "absent", "update_cache": False},
                       state=lambda: listing(testenv, LIST))
    assert listing(testenv, LIST) is None
    assert removed["sources_removed"] == [LIST]


def test_commented_line_enabled_in_place(host: RemoteHost, testenv, clean_sources: None) -> None:
    disabled = "#deb [trusted=yes] file:/srv/provisioning-test-repo ./ # tests"
    host.shell(f"printf '# local packages\\n{disabled}\\n' > {LIST}")
    converge(host, "apt_repository", {"repo": REPO, "update_cache": False}, state=lambda: listing(testenv, LIST))
    assert listing(testenv, LIST) == "# local packages\n" + REPO + " # tests\n"
    assert listing(testenv, DERIVED) is None


def test_file_name_derived_from_address(host: RemoteHost, testenv, clean_sources: None) -> None:
    result = host.run("apt_repository", {"repo": REPO, "update_cache": False})
    assert result["changed"] and result["sources_added"] == [DERIVED], result


@pytest.mark.parametrize(("repo", "message"), [
    ("# deb file:/srv ./", "Invalid repository string"),
    ("http://example.com/debian stable", "Invalid repository string"),
    ("ppa:nginx/stable", "ppa: repositories"),
    ("  ", "non-empty"),
])
def test_bad_repository_refused(host: RemoteHost, repo: str, message: str) -> None:
    result = host.run("apt_repository", {"repo": repo, "update_cache": False})
    assert result.get("failed") and message in result["msg"], result
