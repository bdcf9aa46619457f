"""Run a local script on the host: the controller sends it over the agent's channel, the host runs it once.

The work is split between the controller action ``runner/actions/script.py`` (finds the script among the
role's or playbook's files, sends it) and this module, called twice: first to decide whether the script runs at
all (creates/removes, check mode) and where it goes, then to run it and remove it.
"""

import io
import os
import shlex
import tempfile

from modules._utils import _matches, run_command_task

DOCUMENTATION = {
    "short_description": "Runs a local script on a remote node after transferring it",
    "description": [
        "Takes a script on the controller (relative paths are looked up in the role's or playbook's files/ "
        "directory, then beside it), sends it to the host and runs it there through the shell, with the "
        "arguments that follow its name. The script is removed afterwards.",
        "It always reports changed unless creates or removes say it was not needed; the task is then skipped, "
        "as Ansible's is. In check mode it is skipped, unless creates or removes decide the outcome (a change "
        "is then predicted).",
    ],
    "options": {
        "free_form": {"description": "The script's path on the controller, followed by its arguments (shell "
                                     "syntax in the arguments is kept).", "type": "str"},
        "cmd": {"description": "The script and its arguments, as free_form.", "type": "str"},
        "chdir": {"description": "Change into this directory on the host before running the script.",
                  "type": "path"},
        "creates": {"description": "A filename or glob on the host; when it matches, the script is not run.",
                    "type": "path"},
        "removes": {"description": "A filename or glob on the host; when it does not match, the script is not "
                                   "run.", "type": "path"},
        "executable": {"description": "Run the script with this interpreter (python3, /bin/bash) instead of "
                                      "executing it directly.", "type": "str"},
        "decrypt": {"description": "Accepted for compatibility (scripts are never vault-encrypted here).",
                    "type": "bool", "default": True},
    },
}

EXAMPLES = """
- name: Run a script with arguments
  script: setup.sh --with-ssl "/etc/ssl/my cert.pem"

- name: Run a script once, in a directory, with bash
  script:
    cmd: scripts/migrate.sh
    chdir: /srv/app
    creates: /srv/app/.migrated
    executable: /bin/bash

- name: Run a Python script
  script: inventory_report.py
  args:
    executable: python3
"""

RETURN = {
    "rc": "The script's exit status (0 when skipped)",
    "stdout": "Its standard output",
    "stdout_lines": "stdout split into lines",
    "stderr": "Its standard error",
    "stderr_lines": "stderr split into lines",
    "cmd": "The command line run on the host",
    "msg": "Why it was skipped, or 'non-zero return code'",
}

ARGUMENT_SPEC = {
    "_raw_params": {"type": "str", "aliases": ["cmd"]},
    "chdir": {"type": "path"},
    "creates": {"type": "path"},
    "removes": {"type": "path"},
    "executable": {"type": "str"},
    "decrypt": {"type": "bool", "default": True},
}
FREE_FORM = "_raw_params"
# ansible-core's script action fails a script that exited non-zero with this, in 2.19 and 2.21 alike.
SCRIPT_FAILED = "non-zero return code"
# ansible-core's script action in check mode when no creates/removes can decide: a skip, the host left alone.
CHECK_MODE_SKIPPED = {"changed": False, "skipped": True, "msg": "Check mode is not supported for this task."}
SUPPORTS_CHECK_MODE = True
ACTION = "script"

# What the controller action passes besides the user's arguments (see runner/actions/script.py).
NAME = "_provisioning_script_name"  # the script's file name (its $0 on the host)
ARGS = "_provisioning_script_args"  # the arguments after the script's name, as written
SCRIPT = "_provisioning_script"  # second call: where the script was sent on the host
UPLOAD = "_provisioning_upload"  # in the first call's reply: where to send the script


def split_script(text):
    """``'files/x.sh --a "b c"'`` -> ('files/x.sh', '--a "b c"'): the script's name, and its arguments as written
    (quotes and shell syntax kept, as the shell on the host reads them)."""
    stream = io.StringIO(text.strip())
    lexer = shlex.shlex(stream, posix=True)
    lexer.whitespace_split = True
    try:
        name = lexer.get_token()
    except ValueError as exc:
        raise ValueError("cannot read the script's name from %r: %s" % (text, exc))
    rest = stream.read().strip()  # what the lexer has not read yet
    return name or "", rest


def _command_line(params, script):
    parts = [params["executable"]] if params["executable"] else []
    parts.append(shlex.quote(script))
    if params.get(ARGS):
        parts.append(params[ARGS])
    return " ".join(parts)


def _would_run(module):
    """None when the script must be sent and run; otherwise the result of this task, in the words of Ansible's
    script action: skipped when creates or removes say it is not needed, and in check mode skipped unless
    creates or removes decide (then a change is predicted)."""
    params = module.params
    chdir = params["chdir"]
    creates, removes = params["creates"], params["removes"]
    if creates and _matches(creates, chdir):
        return {"changed": False, "skipped": True, "msg": "%s exists, matching creates option" % creates}
    if removes and not _matches(removes, chdir):
        return {"changed": False, "skipped": True, "msg": "%s does not exist, matching removes option" % removes}
    if module.check_mode:
        if creates or removes:
            return {"changed": True}
        return dict(CHECK_MODE_SKIPPED)
    if chdir and not os.path.isdir(chdir):
        return run_command_task(module, use_shell=True, failed_msg=SCRIPT_FAILED)  # its error for a missing chdir
    return None


def run(module):
    params = module.params
    script = params.get(SCRIPT)
    if script is None:
        decided = _would_run(module)
        if decided is not None:
            return decided
        # Its own directory in the agent's temp dir, so the script keeps its name (and its $0).
        directory = tempfile.mkdtemp(prefix="script-", dir=module.tmpdir)
        return {"changed": False, UPLOAD: os.path.join(directory, params.get(NAME) or "script")}
    try:
        params["_raw_params"] = _command_line(params, script)
        return run_command_task(module, use_shell=True, failed_msg=SCRIPT_FAILED)
    finally:
        if os.path.exists(script):
            os.unlink(script)
        try:
            os.rmdir(os.path.dirname(script))
        except OSError:
            pass
