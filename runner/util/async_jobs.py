"""What names an async job: a task waited for on the agent still reports a job, as Ansible's results name one."""

from __future__ import annotations

import os
import random
from collections.abc import Mapping


def new_job_id() -> str:
    """An async job's id, in Ansible's form (``j<random>.<pid>``)."""
    return f"j{random.randint(0, 999999999999)}.{os.getpid()}"


def finished_job(result: dict[str, object]) -> dict[str, object]:
    """``result`` as the finished job that ran it reports it (a new id, started and finished)."""
    result.update(ansible_job_id=new_job_id(), started=True, finished=True)
    return result


def timed_out_job(limit: int) -> dict[str, object]:
    """A job waited for that ran past its ``async`` limit: failed, with the job as its last poll found it
    (``async_result``, which names it, as ansible-core's result does)."""
    running = {"ansible_job_id": new_job_id(), "started": True, "finished": False, "changed": False,
               "failed": False}
    return {"failed": True, "changed": False, "finished": True, "async_result": running,
            "msg": f"async task did not complete within the requested time - {limit}s"}


def job_id(result: Mapping[str, object]) -> object:
    """The job an async result names: its own id, else its last poll's (a job over its limit)."""
    jid = result.get("ansible_job_id")
    polled = result.get("async_result")
    if not jid and isinstance(polled, Mapping):
        jid = polled.get("ansible_job_id")
    return jid
