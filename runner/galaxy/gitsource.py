"""Checking out a git source at a branch, tag or commit, with the commit it resolved to.

git runs without a terminal and without credential prompts (a repository that wants a password fails rather
than hangs), in its own process group, which a timeout kills whole (git's ssh or remote helper included).
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from runner.galaxy.errors import GalaxyError

GIT_TIMEOUT = 300.0
_QUIET_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "SSH_ASKPASS": "true", "GIT_SSH_COMMAND":
              "ssh -o BatchMode=yes", "LC_ALL": "C"}


def checkout(url: str, version: str | None, directory: Path, label: str) -> str:
    """Clone ``url`` into ``directory`` at ``version`` (default: the remote's HEAD); the commit checked out."""
    if version and version.startswith("-"):
        raise GalaxyError(f"{label}: '{version}' is not a branch, tag or commit")
    _git(["clone", "--quiet", "--no-checkout", "--", url, str(directory)], None, label)
    if version:
        # A branch of the remote is origin/NAME once cloned; a tag or a commit reads as itself.
        branch = _git(["rev-parse", "--verify", "--quiet", f"refs/remotes/origin/{version}^{{commit}}"],
                      directory, label, check=False)
        target = branch or _git(["rev-parse", "--verify", "--quiet", f"{version}^{{commit}}"], directory, label,
                                check=False)
        if not target:
            raise GalaxyError(f"{label}: the repository has no branch, tag or commit '{version}'")
    else:
        target = _git(["rev-parse", "--verify", "HEAD^{commit}"], directory, label)
    _git(["-c", "advice.detachedHead=false", "checkout", "--quiet", target], directory, label)
    return target


def _git(args: list[str], cwd: Path | None, label: str, *, check: bool = True) -> str:
    try:
        process = subprocess.Popen(["git", *args], cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env={**os.environ, **_QUIET_ENV},
                                   start_new_session=True)
    except OSError as exc:
        raise GalaxyError(f"{label}: cannot run git ({exc.strerror}): install git to use git sources") from None
    try:
        out, err = process.communicate(timeout=GIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        _kill(process)
        raise GalaxyError(f"{label}: git {args[0]} did not finish within {GIT_TIMEOUT:.0f} s") from None
    except BaseException:  # interrupted: take git (and its ssh) down with us
        _kill(process)
        raise
    if process.returncode != 0:
        if not check:
            return ""
        message = err.strip().splitlines()[-1] if err.strip() else f"exit status {process.returncode}"
        raise GalaxyError(f"{label}: git {args[0]} failed: {message}")
    return out.strip()


def _kill(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()
