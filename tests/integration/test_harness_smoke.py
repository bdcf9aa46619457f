from tests.integration.remote_harness import converge, infra_for, remote_host_fixture

host = remote_host_fixture()
def test_smoke(host, testenv):
    infra = infra_for(testenv)
    converge(host, "file", {"path": "/tmp/harness-dir", "state": "directory", "mode": "0750"},
             state=lambda: infra.file("/tmp/harness-dir").exists)
    assert infra.file("/tmp/harness-dir").mode == 0o750
