"""Run a command and answer its prompts (with pexpect, which must be installed on the host)."""

import datetime
import os
import platform
import sys

from modules._spec import argument_spec
from modules._utils import CONVERTERS, ArgumentError

try:
    import pexpect
except ImportError:  # the task fails with ansible-core's message; the module must still load
    pexpect = None

DOCUMENTATION = {
    "short_description": "Executes a command and responds to prompts",
    "description": [
        "Runs command in a pseudo-terminal with pexpect and, each time its output matches a key of responses "
        "(a regular expression), sends that key's answer and a newline; a list of answers is given one per "
        "match, in order, and running out of them fails the task.",
        "pexpect (python3-pexpect) must be installed for the host's Python; without it the task fails with "
        "ansible-core's message.",
        "The command is not run through a shell (use a shell as the command for pipes or redirections). "
        "creates/removes skip it as the command module does. Not supported in check mode: the task is skipped.",
    ],
    "options": {
        "command": {"description": "The command to run.", "type": "str", "required": True},
        "responses": {"description": "Expected output (regular expression) -> answer, or a list of answers for "
                                     "successive matches.", "type": "dict", "required": True},
        "chdir": {"description": "Change into this directory first.", "type": "path"},
        "creates": {"description": "Skip the command when this path exists.", "type": "path"},
        "removes": {"description": "Skip the command unless this path exists.", "type": "path"},
        "timeout": {"description": "Seconds to wait for an expected output; null waits forever.", "type": "raw",
                    "default": 30},
        "echo": {"description": "Echo the answers into the output.", "type": "bool", "default": False},
    },
}

EXAMPLES = """
- name: Change a user's password
  expect:
    command: passwd username
    responses:
      (?i)password: "MySekretPa$$word"
  no_log: true

- name: Answer the same question twice
  expect:
    command: /path/to/custom/command
    responses:
      Question:
        - response1
        - response2
"""

RETURN = {"cmd": "The command", "stdout": "Its output (prompts and, with echo, answers)", "rc": "Its exit status",
          "start": "When it started", "end": "When it ended", "delta": "How long it took"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = False


def missing_pexpect():
    return ("Failed to import the required Python library (pexpect) on %s's Python %s. Please read the module "
            "documentation and install it in the appropriate location. If the required library is installed, "
            "but Ansible is using the wrong Python interpreter, please consult the documentation on "
            "ansible_python_interpreter" % (platform.node(), sys.executable))


def answer(text):
    return text.encode("utf-8").rstrip(b"\n") + b"\n"


def answers_in_turn(module, question, answers):
    """pexpect's callback for a list of answers: the next one at each match, failing once they run out."""
    remaining = iter([answer(str(item)) for item in answers])

    def respond(info):
        try:
            return next(remaining)
        except StopIteration:
            module.fail("No remaining responses for '%s', output was '%s'"
                        % (question, info["child_result_list"][-1]))
    return respond


def run(module):
    params = module.params
    if pexpect is None:
        module.fail(missing_pexpect())
    timeout = params["timeout"]
    if timeout is not None:
        try:
            timeout = CONVERTERS["int"](timeout, "timeout")
        except ArgumentError as exc:
            module.fail(str(exc))
    command = params["command"]
    if not command.strip():
        module.fail("no command given", rc=256)
    chdir = os.path.abspath(params["chdir"]) if params["chdir"] else None
    for path, exists, reason in ((params["creates"], True, "skipped, since %s exists"),
                                 (params["removes"], False, "skipped, since %s does not exist")):
        if path and os.path.exists(os.path.join(chdir or "", path)) == exists:
            return {"changed": False, "cmd": command, "stdout": reason % path, "rc": 0}
    events = {}
    for question, response in params["responses"].items():
        events[str(question).encode("utf-8")] = answers_in_turn(module, question, response) \
            if isinstance(response, list) else answer(str(response))
    start = datetime.datetime.now()
    try:
        output, rc = pexpect.run(command, timeout=timeout, withexitstatus=True, events=events, cwd=chdir,
                                 echo=params["echo"], encoding=None)
    except pexpect.ExceptionPexpect as exc:
        module.fail(str(exc))
    end = datetime.datetime.now()
    result = {"changed": True, "cmd": command, "stdout": (output or b"").decode("utf-8", "replace").rstrip("\r\n"),
              "rc": rc, "start": str(start), "end": str(end), "delta": str(end - start)}
    if rc is None:
        module.fail("command exceeded timeout", **result)
    if rc != 0:
        module.fail("non-zero return code", **result)
    return result
