"""known_hosts on a test host: a host's key added (plain and hashed), replaced and removed."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, converge, infra_for

PATH = "/tmp/known-hosts-test/known_hosts"
ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGPUuCf7HFLFxnRyc85s9cZmscMlo5AB+KTdskqogNNo"
OTHER_ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL5kGiuGLmQp3qmClD5iiSRuvDJNG4FsFdfYOyQrKQ/V"


def test_key_added_replaced_and_removed(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    host.shell("rm -rf /tmp/known-hosts-test")
    content = lambda: infra.file(PATH).content_string if infra.file(PATH).exists else None  # noqa: E731
    converge(host, "known_hosts", {"name": "git.example.test", "key": f"git.example.test {ED25519}", "path": PATH},
             state=content)
    assert content() == f"git.example.test {ED25519}\n"
    assert infra.file("/tmp/known-hosts-test").mode == 0o700
    converge(host, "known_hosts", {"name": "other.example.test", "key": f"other.example.test {ED25519}",
                                   "path": PATH}, state=content)
    replaced = converge(host, "known_hosts", {"name": "git.example.test", "key": f"git.example.test {OTHER_ED25519}",
                                              "path": PATH}, state=content)
    assert content() == f"other.example.test {ED25519}\ngit.example.test {OTHER_ED25519}\n"
    assert ED25519 in replaced["diff"]["before"]
    converge(host, "known_hosts", {"name": "git.example.test", "state": "absent", "path": PATH}, state=content)
    assert content() == f"other.example.test {ED25519}\n"
    host.shell("rm -rf /tmp/known-hosts-test")


def test_hashed_entry_is_found_by_ssh_keygen(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    host.shell("rm -rf /tmp/known-hosts-test")
    converge(host, "known_hosts", {"name": "hashed.example.test", "key": f"hashed.example.test {ED25519}",
                                   "path": PATH, "hash_host": True},
             state=lambda: infra.file(PATH).exists)
    assert infra.file(PATH).content_string.startswith("|1|")
    assert "hashed.example.test" not in infra.file(PATH).content_string
    found = infra.run(f"ssh-keygen -F hashed.example.test -f {PATH}")
    assert found.rc == 0 and ED25519 in found.stdout
    host.shell("rm -rf /tmp/known-hosts-test")


def test_clear_failures(host: RemoteHost) -> None:
    no_key = host.run("known_hosts", {"name": "a.example.test", "path": PATH})
    assert no_key.get("failed") and "key" in no_key["msg"]
    wrong_host = host.run("known_hosts", {"name": "a.example.test", "key": f"b.example.test {ED25519}",
                                          "path": PATH})
    assert wrong_host.get("failed")
    assert wrong_host["msg"] == "Host parameter does not match hashed host field in supplied key"  # Ansible's
    several = host.run("known_hosts", {"name": "a.example.test,b.example.test", "key": f"a.example.test {ED25519}",
                                       "path": PATH})
    assert several.get("failed") and several["msg"] == ("Comma separated list of names is not supported. Please "
                                                        "pass a single name to lookup in the known_hosts file.")



def test_diff_is_headed_by_the_path_as_ansibles(host: RemoteHost) -> None:
    path = "/tmp/known-hosts-headers/known_hosts"
    host.shell("rm -rf /tmp/known-hosts-headers")
    args = {"name": "git.example.test", "key": f"git.example.test {ED25519}", "path": path}
    new = host.run("known_hosts", args, diff=True)
    assert (new["diff"]["before_header"], new["diff"]["after_header"]) == ("/dev/null", path)
    removed = host.run("known_hosts", {**args, "state": "absent"}, diff=True)
    assert removed["diff"]["before_header"] == removed["diff"]["after_header"] == path
    host.shell("rm -rf /tmp/known-hosts-headers")
