"""The run's trace (-vvv, -vvvv): what it shows of a local-connection run, in which order, on which stream (the
lines Ansible prints too on stdout, as Ansible's display prints them; our own diagnostics on stderr), what it
never shows (a no_log task's arguments, vault values), and that it is silent below -vvv.

The runs are real ``provisioning-playbook`` processes (the trace is written by forked workers straight to the
command's stdout and stderr), on "hosts" that are this machine over the local connection: no root, no sshd.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.secrets import censor
from runner.secrets.vault_format import encrypt
from runner.util.logging import DISPLAYED, TRACE_ROOT, VERBOSE, configure_trace
from tests.support.playbook_run import CONFIG, PlaybookRun, run_playbook
from tests.support.scripts import script

VAULT_PASSWORD = "trace-test-password"
VAULTED_ADDRESS = "vaulted-address-31337"  # the hosts' ansible_host: the trace names hosts by it
NO_LOG_ARGUMENT = "no-log-argument-8675309"

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: first
      ping:
    - name: hidden
      command: "echo {{ hidden_value }}"
      no_log: true
    - name: hidden raw
      raw: "echo {{ hidden_value }}"
      no_log: true
    - name: last
      debug:
        msg: done
"""


def _vault_block(text: str) -> str:
    envelope = encrypt(text.encode(), VAULT_PASSWORD.encode()).decode()
    return "!vault |\n" + textwrap.indent(envelope, " " * 10)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three local hosts whose address is a vault value, a playbook with no_log tasks, the vault password."""
    base = tmp_path_factory.mktemp("trace")
    hosts = "\n".join(f"        {name}:" for name in ("h1", "h2", "h3"))
    (base / "inventory.yml").write_text(
        "all:\n  children:\n    local:\n      hosts:\n" + hosts + "\n      vars:\n"
        "        ansible_connection: local\n"
        # named, not discovered: a discovered interpreter that does not start (a version manager's shim) is
        # followed by another start, which the trace would show too
        f"        ansible_python_interpreter: {sys.executable}\n"
        f"        ansible_host: {_vault_block(VAULTED_ADDRESS)}\n"
        f"        hidden_value: {NO_LOG_ARGUMENT}\n")
    (base / "site.yml").write_text(PLAYBOOK)
    (base / "vault-pass").write_text(VAULT_PASSWORD + "\n")
    return base


def _run(project: Path, *args: str, env: dict[str, str] | None = None) -> PlaybookRun:
    return run_playbook(project / "inventory.yml", project / "site.yml", "--vault-password-file",
                        str(project / "vault-pass"), *args, subprocess_run=True, report=False, env=env)


TRACE_LINE = re.compile(r"^\[(\d+)\] (.*)$", re.MULTILINE)


def _trace(output: str) -> list[tuple[int, str]]:
    """(pid, message) of every -vvvv trace line."""
    return [(int(pid), message) for pid, message in TRACE_LINE.findall(output)]


@pytest.fixture(scope="module")
def debug_run(project: Path) -> PlaybookRun:
    run = _run(project, "-vvvv")
    assert run.exit_code == 0, run.output
    return run


def test_vvvv_shows_connections_agents_frames_workers_and_timing(debug_run: PlaybookRun) -> None:
    messages = [message for _, message in _trace(debug_run.stderr)]
    text = "\n".join(messages)
    assert re.search(r"^WORKERS started: \d+ process(es)? for 3 hosts \(forks=4\)$", text, re.MULTILINE), text
    held = re.findall(r"^WORKER pid \d+ holds (.*)$", text, re.MULTILINE)
    assert sorted(host for line in held for host in line.split(", ")) == ["h1", "h2", "h3"]
    for host in ("h1", "h2", "h3"):
        assert f"[{host}] TASK TIMING task 'first' at " in text
        assert re.search(rf"^\[{host}\] TASK TIMING task 'hidden raw' at \S+: changed [\d.]+ ms = templating "
                         r"[\d.]+ ms \+ module [\d.]+ ms \(1 exchange\) \+ result [\d.]+ ms$", text, re.MULTILINE)
    shown = debug_run.stdout  # the lines Ansible shows too are where Ansible's are
    assert shown.count("ESTABLISH LOCAL CONNECTION FOR USER: ") == 3
    # each agent's start command, as Ansible shows its commands: the agent's temporary directory its last word
    assert len(re.findall(r"EXEC /bin/sh -c .* -c .*/ansible-tmp-[\d.]+-\d+-\d+'\"'\"'; fi;", shown)) == 3, shown
    assert len(re.findall(r"AGENT started in [\d.]+ ms: Python 3\.\d+\.\d+ at \S+, pid \d+", text)) == 3
    # Each host's first module loads its source (and what it imports) with the run request, once.
    assert len(re.findall(r"FRAMES sent load x2 [\d.]+ KiB, run \d+ B; received 3 frames \d+ B; round trip "
                          r"[\d.]+ ms \(task 'first' at ", text)) == 3
    assert len(re.findall(r"RAW exec channel: rc=0, stdout \d+ B, stderr \d+ B in [\d.]+ ms "
                          r"\(task 'hidden raw' at ", text)) == 3
    assert shown.count("Using module file ") == 6  # ping and command on each host; raw needs no module
    assert re.search(r"^WORKERS stopping: \d+ process", text, re.MULTILINE)
    assert len(re.findall(r"^WORKER pid \d+ ended \(exit code 0\)", text, re.MULTILINE)) == len(held)


def test_vvvv_lines_of_a_host_come_in_order_from_its_worker(debug_run: PlaybookRun) -> None:
    lines = _trace(debug_run.stderr)
    controller = lines[0][0]
    workers = {int(pid) for pid in re.findall(r"WORKER pid (\d+) holds", debug_run.stderr)}
    for host in ("h1", "h2", "h3"):
        own = [(pid, message) for pid, message in lines if f"[{host}]" in message]
        assert {pid for pid, _ in own} <= workers and controller not in workers
        tasks = [re.search(r"task '([^']+)'", message).group(1) for _, message in own]  # type: ignore[union-attr]
        assert tasks == ["first", "hidden", "hidden raw", "last"]
    # A worker's agent starts before its first exchange; on stdout a connection is made before its agent starts.
    first_worker = next(pid for pid, message in lines if "AGENT started" in message)
    order = [message.split(" ")[1] for pid, message in lines if pid == first_worker and message.startswith("<")]
    assert order.index("AGENT") < order.index("FRAMES")
    shown = [line.split(" ")[1] for line in debug_run.stdout.splitlines() if line.startswith("<")]
    assert shown.index("ESTABLISH") < shown.index("EXEC")


def test_vvvv_puts_ansibles_lines_on_stdout_as_ansible_and_its_own_on_stderr(debug_run: PlaybookRun) -> None:
    """``-vvvv | grep 'sudo -H -S'`` finds our EXEC line as it finds Ansible's; a callback's stdout gets no line
    Ansible has no counterpart for."""
    connection = re.findall(r"^<\*+> (ESTABLISH|EXEC) ", debug_run.stdout, re.MULTILINE)
    assert connection.count("ESTABLISH") == 3 and connection.count("EXEC") == 3
    assert re.search(r"^Using module file \S+/modules/ping\.py$", debug_run.stdout, re.MULTILINE)
    assert not _trace(debug_run.stdout)  # no pid before Ansible's lines, nor any line of ours there
    for own in ("FRAMES", "TASK TIMING", "WORKER", "AGENT started", "PLAN CACHE", "CLOSE connection"):
        assert own not in debug_run.stdout, own
    for ansible in ("ESTABLISH", "EXEC", "Using module file"):
        assert ansible not in debug_run.stderr, ansible


def test_the_trace_never_shows_a_no_log_argument_nor_a_vault_value(debug_run: PlaybookRun) -> None:
    assert NO_LOG_ARGUMENT not in debug_run.output
    assert VAULTED_ADDRESS not in debug_run.output
    assert "<********> ESTABLISH LOCAL CONNECTION FOR USER: " in debug_run.output


def test_vvv_shows_what_ansible_shows_there_and_no_more(project: Path) -> None:
    run = _run(project, "-vvv")
    assert run.exit_code == 0, run.output
    assert run.stdout.count("<********> ESTABLISH LOCAL CONNECTION FOR USER: ") == 3
    assert re.search(r"^Using module file \S+/modules/ping\.py$", run.stdout, re.MULTILINE)
    for detail in ("FRAMES", "TASK TIMING", "WORKER", "AGENT started"):
        assert detail not in run.output
    assert not _trace(run.output)  # no pid prefix below -vvvv
    assert NO_LOG_ARGUMENT not in run.output and VAULTED_ADDRESS not in run.output


@pytest.mark.parametrize("verbosity", ["", "-v", "-vv"])
def test_below_vvv_there_is_no_trace(project: Path, verbosity: str) -> None:
    run = _run(project, *([verbosity] if verbosity else []))
    assert run.exit_code == 0, run.output
    for detail in ("ESTABLISH", "Using module file", "EXEC", "FRAMES", "TASK TIMING", "WORKER"):
        assert detail not in run.output


def test_the_trace_goes_into_the_run_log_too(project: Path, tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    run = _run(project, "-vvvv", env={"PROVISIONING_LOG_PATH": str(log)})
    assert run.exit_code == 0, run.output
    text = log.read_text()
    assert re.search(r" p=\d+ u=\S+ n=provisioning INFO\| \[\d+\] \[h1\] TASK TIMING task 'first'", text)
    assert re.search(r" INFO\| <\*+> ESTABLISH LOCAL CONNECTION FOR USER: ", text)
    assert " INFO| PLAY RECAP " in text  # the view's lines are there as before
    assert NO_LOG_ARGUMENT not in text and VAULTED_ADDRESS not in text


def test_log_verbosity_puts_the_trace_into_the_run_log_alone(project: Path, tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    run = _run(project, "-v", env={"PROVISIONING_LOG_PATH": str(log), "ANSIBLE_LOG_VERBOSITY": "3"})
    assert run.exit_code == 0, run.output
    assert "ESTABLISH LOCAL CONNECTION" not in run.output  # displayed as -v asks
    assert re.search(r" INFO\| <[^>]+> ESTABLISH LOCAL CONNECTION FOR USER: ", log.read_text())


# -- the set-up, in-process ----------------------------------------------------------------------------------
@pytest.fixture
def trace_pipe() -> Iterator[tuple[int, int]]:
    read_end, write_end = os.pipe()
    yield read_end, write_end
    configure_trace(0)
    censor.forget_all()
    os.close(read_end)
    os.close(write_end)


def test_levels_follow_the_verbosity_and_a_new_set_up_replaces_the_old(trace_pipe: tuple[int, int]) -> None:
    read_end, write_end = trace_pipe
    connection_log = logging.getLogger("runner.connection.ssh")
    configure_trace(0, write_end)
    assert not connection_log.isEnabledFor(VERBOSE)
    assert not logging.getLogger(TRACE_ROOT).handlers
    configure_trace(3, write_end)
    assert connection_log.isEnabledFor(VERBOSE) and not connection_log.isEnabledFor(logging.DEBUG)
    configure_trace(4, write_end)
    configure_trace(4, write_end)
    assert connection_log.isEnabledFor(logging.DEBUG)
    assert len(logging.getLogger(TRACE_ROOT).handlers) == 1
    connection_log.debug("<%s> one line", "h1")
    assert os.read(read_end, 4096) == f"[{os.getpid()}] <h1> one line\n".encode()


def test_a_line_ansible_displays_goes_to_the_display_stream_as_ansible_prints_it() -> None:
    own_read, own_write = os.pipe()
    shown_read, shown_write = os.pipe()
    logged: list[str] = []
    try:
        configure_trace(4, own_write, display_descriptor=shown_write, also=logged.append)
        connection_log = logging.getLogger("runner.connection.session")
        connection_log.info("<%s> ESTABLISH LOCAL CONNECTION FOR USER: %s", "h1", "root", extra=DISPLAYED)
        connection_log.debug("<%s> CLOSE connection", "h1")
        assert os.read(shown_read, 4096) == b"<h1> ESTABLISH LOCAL CONNECTION FOR USER: root\n"  # no pid
        assert os.read(own_read, 4096) == f"[{os.getpid()}] <h1> CLOSE connection\n".encode()
        assert logged == ["<h1> ESTABLISH LOCAL CONNECTION FOR USER: root", f"[{os.getpid()}] <h1> CLOSE connection"]
    finally:
        configure_trace(0)
        for descriptor in (own_read, own_write, shown_read, shown_write):
            os.close(descriptor)


def test_a_level_only_the_log_asks_for_goes_to_it_alone(trace_pipe: tuple[int, int]) -> None:
    read_end, write_end = trace_pipe
    logged: list[str] = []
    configure_trace(3, write_end, also=logged.append, also_verbosity=4)
    connection_log = logging.getLogger("runner.connection.ssh")
    connection_log.debug("<%s> for the log", "h1")
    connection_log.info("<%s> shown", "h1")
    assert os.read(read_end, 4096) == f"[{os.getpid()}] <h1> shown\n".encode()
    assert logged == [f"[{os.getpid()}] <h1> for the log", f"[{os.getpid()}] <h1> shown"]
    configure_trace(0, write_end, also=logged.append, also_verbosity=0)
    assert not connection_log.isEnabledFor(VERBOSE)  # no log verbosity: no trace and no cost, as before


def test_a_known_secret_is_masked_in_a_trace_line(trace_pipe: tuple[int, int]) -> None:
    read_end, write_end = trace_pipe
    configure_trace(3, write_end, mask=censor.censor_text)
    censor.remember("decrypted-secret-value")
    logging.getLogger("runner.connection.session").info("<%s> ESTABLISH", "decrypted-secret-value")
    assert os.read(read_end, 4096) == b"<********> ESTABLISH\n"


def test_an_ad_hoc_run_is_traced_and_timed_too(tmp_path: Path) -> None:
    done = subprocess.run([script("provisioning"), "all", "-i", "localhost,", "-c", "local", "-m", "command",
                           "-a", "echo hi", "-vvvv"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PROVISIONING_CONFIG": str(CONFIG)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^\[\d+\] <localhost> FRAMES sent load x2 [\d.]+ KiB, run \d+ B; .*\(module 'command'\)$",
                     done.stderr, re.MULTILINE)
    assert re.search(r"^\[\d+\] \[localhost\] TASK TIMING module 'command': changed [\d.]+ ms = templating ",
                     done.stderr, re.MULTILINE)
    assert "localhost | CHANGED | rc=0 >>\nhi\n" in done.stdout
    # Ansible's lines come before the result they led to, on the same stream, as in Ansible's ad-hoc output
    assert done.stdout.index("<localhost> ESTABLISH LOCAL CONNECTION FOR USER: ") < done.stdout.index("localhost |")
    assert "ESTABLISH" not in done.stderr
