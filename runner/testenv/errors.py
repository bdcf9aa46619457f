"""The one error the local test hosts raise: printed as a clear message by the CLI, exit code 1."""

from __future__ import annotations

from runner.errors import ExitCode, UserError


class TestEnvError(UserError):
    """The machine cannot host the test env (not root, sshd missing, address taken) or a host failed to start."""

    __test__ = False  # not a pytest test class, despite its name
    exit_code = ExitCode.ERROR
