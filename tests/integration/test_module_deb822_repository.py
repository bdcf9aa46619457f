"""deb822_repository on a test host: a .sources file written field by field as ansible-core writes it, its
inline key indented, then removed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for

SOURCES = "/etc/apt/sources.list.d/provisioning-test-repo.sources"


@pytest.fixture
def clean(host: RemoteHost) -> Iterator[None]:
    yield
    host.shell(f"rm -f {SOURCES}")


def content(testenv) -> str | None:
    file = infra_for(testenv).file(SOURCES)
    return file.content_string if file.exists else None


def test_written_then_removed(host: RemoteHost, testenv, clean: None) -> None:
    args = {"name": "Provisioning test_repo", "uris": "file:/srv/provisioning-test-repo", "suites": ["./"],
            "trusted": True, "architectures": ["amd64", "arm64"], "date_max_future": 10,
            "signed_by": "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ\n-----END PGP PUBLIC KEY BLOCK-----\n"}
    first = converge(host, "deb822_repository", args, state=lambda: content(testenv))
    expected = ("Architectures: amd64 arm64\n"
                "Date-Max-Future: 10\n"
                "X-Repolib-Name: Provisioning test_repo\n"
                "Signed-By:\n"
                "    -----BEGIN PGP PUBLIC KEY BLOCK-----\n"
                "    .\n"
                "    mDMEZ\n"
                "    -----END PGP PUBLIC KEY BLOCK-----\n"
                "Suites: ./\n"
                "Trusted: yes\n"
                "Types: deb\n"
                "URIs: file:/srv/provisioning-test-repo\n")
    assert content(testenv) == expected
    assert first["dest"] == SOURCES and first["repo"] == expected
    assert first["diff"]["after"] == expected and first["diff"]["before"] == ""
    assert infra_for(testenv).file(SOURCES).mode == 0o644
    converge(host, "deb822_repository", {"name": "Provisioning test_repo", "state": "absent"}, diff=False,
             state=lambda: content(testenv))
    assert content(testenv) is None


def test_keyring_path_used_as_is(host: RemoteHost, testenv, clean: None) -> None:
    args = {"name": "provisioning-test-repo", "uris": ["file:/srv/a", "file:/srv/b"], "suites": ["stable"],
            "components": ["main"], "signed_by": "/usr/share/keyrings/debian-archive-keyring.gpg", "mode": "0600"}
    converge(host, "deb822_repository", args, state=lambda: content(testenv))
    assert "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n" in content(testenv)
    assert "URIs: file:/srv/a file:/srv/b\n" in content(testenv)
    assert infra_for(testenv).file(SOURCES).mode == 0o600


def test_bad_type_refused(host: RemoteHost) -> None:
    result = host.run("deb822_repository", {"name": "x", "types": ["rpm"]})
    assert result.get("failed") and "types" in result["msg"], result
