"""What every command shares: turning errors into one clear message and an exit code."""

from __future__ import annotations

import functools
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import click

from runner.callbacks.log_file import close_run_log, print_error
from runner.errors import ExitCode, UserError
from runner.util.heap import collection_held
from runner.util.termination import Terminated, raising_on_termination, stop_message

F = TypeVar("F", bound=Callable[..., Any])


def report_errors(function: F) -> F:
    """Run a command body: a user mistake prints one message (no traceback) and exits with its code;
    Ctrl-C exits 99, SIGTERM 143 and SIGHUP 129 (during a run, ``runner.executor.outcome`` handles them);
    anything else is a bug, reported as an internal error (exit 250). The message is also recorded in the
    command's log (``log_path``), which is closed when the command ends."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with raising_on_termination(), collection_held():  # collection: released sooner when workers fork
                code = function(*args, **kwargs)
        except UserError as exc:
            print_error(exc.render())
            sys.exit(int(exc.exit_code))
        except KeyboardInterrupt:
            print_error(stop_message(signal.SIGINT))
            sys.exit(int(ExitCode.INTERRUPTED))
        except Terminated as exc:
            print_error(exc.message)
            sys.exit(exc.exit_code)
        except Exception as exc:
            print_error(f"ERROR! Unexpected internal error: {type(exc).__name__}: {exc}")
            if os.environ.get("PROVISIONING_DEBUG"):
                traceback.print_exc()
            else:
                sys.stderr.write("(set PROVISIONING_DEBUG=1 to see the traceback)\n")
            sys.exit(int(ExitCode.INTERNAL))
        finally:
            close_run_log()
        sys.exit(int(code or 0))

    return wrapper  # type: ignore[return-value]


_invocation: list[str] = []


def command_line() -> list[str]:
    """The command being run as it was typed (the program's name and its arguments), also when a command is
    invoked in-process with arguments of its own rather than from ``sys.argv``."""
    return list(_invocation) or list(sys.argv)


class _AnsibleExitCodes:
    """Usage errors exit 5 (bad options), as Ansible's do, not click's 2 (which would read as 'a host failed')."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        arguments = args[0] if args else kwargs.get("args")
        _invocation[:] = [kwargs.get("prog_name") or os.path.basename(sys.argv[0]),
                          *(sys.argv[1:] if arguments is None else arguments)]
        try:
            return super().main(*args, **kwargs)  # type: ignore[misc]
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            sys.exit(int(ExitCode.BAD_OPTIONS))
        except click.ClickException as exc:
            exc.show()
            sys.exit(int(ExitCode.BAD_OPTIONS))
        except click.exceptions.Abort:
            sys.stderr.write("[ERROR]: User interrupted execution\n")
            sys.exit(int(ExitCode.INTERRUPTED))


class Command(_AnsibleExitCodes, click.Command):
    pass


class Group(_AnsibleExitCodes, click.Group):
    command_class = Command
