"""A forked child that must not outlive the process that forked it.

Linux delivers a chosen signal to a process when its parent ends, once the child asked for it with
``prctl(PR_SET_PDEATHSIG)``: a parent killed with SIGKILL runs no code of its own, so only the kernel can tell its
children. Elsewhere this is not available, and a child notices its parent's end by the end of the channel between
them (see ``runner.executor.pool``).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The running interpreter's own symbols include libc's: no library search (which may spawn ldconfig).
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent(parent_pid: int, signum: int) -> bool:
    """Ask the kernel to send ``signum`` to this process when its parent ends; False when the parent (expected to
    be ``parent_pid``) has already gone, and the caller should end at once.

    The parent may end between the fork and the request, and the kernel would then never send the signal (the
    request applies to the parent at the time it is made, here the process that adopted the orphan): checking the
    parent's pid after the request closes that window.
    """
    prctl = _prctl()
    if prctl is not None and prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signum), 0, 0, 0) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"prctl(PR_SET_PDEATHSIG): {os.strerror(errno)}")
    return os.getppid() == parent_pid
