"""The controller's decisions as ansible-core's debug log words them (``ANSIBLE_DEBUG``, ``runner.util.debug_log``).

Only the decisions ansible-core's engine makes too, in its words, so that what greps its log finds ours: the
implicit ``flush_handlers`` after each section of a play (ansible-core's play iterator skips one for a host with
no handler notified, and its strategy runs the others as an implicit meta task, whose ``META:`` line is in the
debug log; an explicit ``meta`` task's line is ``-vv``'s, ``runner.callbacks.engine_lines``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from runner.util.debug_log import DEBUG_LOG


def implicit_flush(hosts: Iterable[str], notified: Mapping[str, Sequence[str]]) -> None:
    """The implicit ``flush_handlers`` reached by ``hosts``: run for a host with a handler notified, skipped for
    the others. ``notified``: handler name or topic -> the hosts it was notified for."""
    if not DEBUG_LOG.enabled:
        return
    waiting = {host for names in notified.values() for host in names}
    for host in hosts:
        if host in waiting:
            DEBUG_LOG.debug(f"META: triggered running handlers for {host}")
        else:
            DEBUG_LOG.debug(f"No handler notifications for {host}, skipping.")
