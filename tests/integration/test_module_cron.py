"""cron on a test host: jobs and variables in a user's crontab (through crontab, as deploy with sudo) and in a
file under /etc/cron.d."""

from __future__ import annotations

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for


@pytest.fixture(scope="module")
def host(host_as_deploy: RemoteHost) -> RemoteHost:
    """This file's modules run as the deploy user through sudo."""
    return host_as_deploy

CRON_FILE = "provisioning-cron-test"


@pytest.fixture(autouse=True)
def no_crontab(host: RemoteHost):
    host.shell("sh -c 'crontab -r -u deploy || true'")
    yield
    host.shell("sh -c 'crontab -r -u deploy || true'")
    host.shell(f"rm -f /etc/cron.d/{CRON_FILE}")


def crontab_of_deploy(infra) -> str:
    return infra.run("crontab -l -u deploy").stdout


def test_job_in_a_users_crontab(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    args = {"name": "nightly report", "user": "deploy", "minute": "5", "hour": "2", "job": "/usr/bin/true report"}
    added = converge(host, "cron", args, state=lambda: crontab_of_deploy(infra))
    assert crontab_of_deploy(infra) == "#Ansible: nightly report\n5 2 * * * /usr/bin/true report\n"
    assert added["jobs"] == ["nightly report"] and "+5 2 * * * /usr/bin/true report" not in added["diff"]["before"]

    converge(host, "cron", {**args, "hour": "3", "disabled": True}, state=lambda: crontab_of_deploy(infra))
    assert crontab_of_deploy(infra) == "#Ansible: nightly report\n#5 3 * * * /usr/bin/true report\n"
    converge(host, "cron", {"name": "nightly report", "user": "deploy", "state": "absent"},
             state=lambda: crontab_of_deploy(infra))
    assert crontab_of_deploy(infra) == ""


def test_environment_variables_go_on_top(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    host.run("cron", {"name": "job", "user": "deploy", "special_time": "reboot", "job": "/usr/bin/true"})
    converge(host, "cron", {"name": "MAILTO", "env": True, "job": "ops@example.com", "user": "deploy"},
             state=lambda: crontab_of_deploy(infra))
    converge(host, "cron", {"name": "PATH", "env": True, "job": "/usr/bin:/bin", "user": "deploy",
                            "insertafter": "MAILTO"}, state=lambda: crontab_of_deploy(infra))
    assert crontab_of_deploy(infra) == ("MAILTO=ops@example.com\nPATH=/usr/bin:/bin\n"
                                        "#Ansible: job\n@reboot /usr/bin/true\n")


def test_cron_file_created_and_removed(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    path = f"/etc/cron.d/{CRON_FILE}"
    args = {"name": "cleanup", "cron_file": CRON_FILE, "user": "deploy", "special_time": "hourly",
            "job": "/usr/bin/true cleanup"}
    converge(host, "cron", args, state=lambda: infra.file(path).exists)
    assert infra.file(path).content_string == "#Ansible: cleanup\n@hourly deploy /usr/bin/true cleanup\n"
    assert infra.file(path).mode == 0o644
    converge(host, "cron", {"cron_file": CRON_FILE, "state": "absent"}, state=lambda: infra.file(path).exists)
    assert not infra.file(path).exists


def test_cron_file_goes_with_its_last_job(host: RemoteHost, testenv) -> None:
    """Removing the only job of a cron_file removes the file, blank lines or not, as Ansible does; a file with
    another line left keeps it."""
    infra = infra_for(testenv)
    path = f"/etc/cron.d/{CRON_FILE}"
    job = {"name": "only", "cron_file": CRON_FILE, "user": "root", "job": "ls"}
    host.run("cron", job)
    host.shell(f"sh -c 'printf \"\\n    \\n\\t\\n\" >> {path}'")
    removed = host.run("cron", {**job, "state": "absent"})
    assert removed["changed"] and not infra.file(path).exists

    host.run("cron", job)
    host.shell(f"sh -c 'echo MAILTO=ops >> {path}'")
    host.run("cron", {**job, "state": "absent"})
    assert infra.file(path).content_string == "MAILTO=ops\n"


def test_clear_failures(host: RemoteHost) -> None:
    no_job = host.run("cron", {"name": "x", "user": "deploy"})
    assert no_job.get("failed") and "job" in no_job["msg"]
    bad_time = host.run("cron", {"name": "x", "job": "true", "special_time": "fortnightly"})
    assert bad_time.get("failed") and "special_time" in bad_time["msg"]
