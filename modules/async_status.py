"""Obtain the status of an asynchronous task (a task started with ``async`` and ``poll: 0``)."""

import json
import os

DOCUMENTATION = {
    "short_description": "Obtain status of asynchronous task",
    "description": [
        "Reads the state of a job that a task with async and poll: 0 started on this host.",
        "The job's state is kept in ~/.ansible_async/<job id> of the user the job ran as (ansible_async_dir "
        "sets another directory); a finished job reports its module's result with finished: true.",
    ],
    "options": {
        "jid": {"description": "Job or task identifier (the ansible_job_id the starting task returned).",
                "type": "str", "required": True},
        "mode": {"description": "If status, obtain the status. If cleanup, remove the job's state without "
                                "waiting for it to finish.",
                 "type": "str", "default": "status", "choices": ["status", "cleanup"]},
        "_async_dir": {"description": "The directory the jobs' state is in; set from ansible_async_dir, as "
                                      "Ansible's async_status action sets it.",
                       "type": "str", "default": "~/.ansible_async"},
    },
}

EXAMPLES = """
- name: Upgrade in the background
  command: sleep 20
  async: 600
  poll: 0
  register: upgrade

- name: Wait for the upgrade to end
  async_status:
    jid: "{{ upgrade.ansible_job_id }}"
  register: job
  until: job.finished
  retries: 60
  delay: 5

- name: Forget the job
  async_status:
    jid: "{{ upgrade.ansible_job_id }}"
    mode: cleanup
"""

RETURN = {
    "ansible_job_id": "The asynchronous job id",
    "started": "Whether the job has started (a boolean, as recent Ansible returns it)",
    "finished": "Whether the job has finished (a boolean: until: job.finished reads it)",
    "erased": "The job's state file, removed (mode cleanup)",
}

ARGUMENT_SPEC = {
    "jid": {"type": "str", "required": True},
    "mode": {"type": "str", "default": "status", "choices": ["status", "cleanup"]},
    # Set by the runner from ansible_async_dir, as Ansible's async_status action sets it.
    "_async_dir": {"type": "str", "default": "~/.ansible_async"},
}
SUPPORTS_CHECK_MODE = True


def run(module):
    jid = module.params["jid"]
    if os.sep in jid or jid in (".", ".."):
        module.fail("invalid job id %r" % jid)
    path = os.path.join(os.path.expanduser(module.params["_async_dir"]), jid)
    if module.params["mode"] == "cleanup":
        if os.path.exists(path) and not module.check_mode:
            os.unlink(path)
        return {"changed": False, "ansible_job_id": jid, "erased": path}
    try:
        with open(path) as handle:
            state = json.load(handle)
    except (IOError, OSError):
        module.fail("could not find job", ansible_job_id=jid, started=True, finished=True)
    except ValueError:  # written whole and renamed into place, so only a foreign file reads like this
        module.fail("could not parse the job's state in %s" % path, ansible_job_id=jid, started=True, finished=True)
    if not state.get("finished"):
        return {"changed": False, "ansible_job_id": jid, "started": True, "finished": False, "results_file": path}
    state.update(ansible_job_id=jid, finished=True, started=True)
    state.setdefault("changed", False)
    if state.get("failed"):
        module.fail(state.pop("msg", "the async job failed"), **{k: v for k, v in state.items() if k != "failed"})
    return state
