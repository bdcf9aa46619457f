"""The garbage collector around start-up.

A command's start builds many objects that live for the whole run and make few reference cycles: the
validators of the playbook models, the compiled templates, the plan, the inventory. Python's cyclic collector,
left on, walks them again and again while they are being built (about a tenth of a second of every run's
start). Commands hold it off until the work is loaded, then freeze what was built, so that neither the
controller nor the forked workers walk it again (the workers share those pages copy-on-write; a collection
that touched them would copy them).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collection_held() -> Iterator[None]:
    """No cyclic collection while a command loads its work (``release_collection`` ends it sooner); reference
    counting still frees the rest. It runs again on the way out, for callers that stay (tests run commands
    in-process)."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def release_collection() -> None:
    """What has been built so far stays for the run: freeze it, and collect cycles again from here on."""
    gc.freeze()
    gc.enable()


def thaw_collection() -> None:
    """The workers are gone: what was frozen for them may be collected again (a caller that stays, as the test
    suite running many playbooks in one process, would otherwise keep every earlier run's cycles)."""
    gc.unfreeze()
