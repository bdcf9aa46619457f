"""What names an async job: a task waited for on the agent still reports a job, as Ansible's results name one."""

from __future__ import annotations

import os
import random


def new_job_id() -> str:
    """An async job's id, in Ansible's form (``j<random>.<pid>``)."""
    return f"j{random.randint(0, 999999999999)}.{os.getpid()}"


def finished_job(result: dict[str, object]) -> dict[str, object]:
    """``result`` as the finished job that ran it reports it (a new id, started and finished)."""
    result.update(ansible_job_id=new_job_id(), started=True, finished=True)
    return result
