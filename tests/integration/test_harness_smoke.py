from tests.integration.remote_harness import remote_host_fixture, converge, infra_for
host = remote_host_fixture()
def test_smoke(host, testenv):
    infra = infra_for(testenv)
    converge(host, "file", {"path": "/tmp/harness-dir", "state": "directory", "mode": "0750"},
             state=lambda: infra.file("/tmp/harness-dir").exists)
    assert infra.file("/tmp/harness-dir").mode == 0o750
