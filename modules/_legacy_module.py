"""Runs a module of Ansible's older kinds (old-style key=value, WANT_JSON, binary) on the host, as ansible-core
runs it: the file and its arguments file in a private directory, ``INTERPRETER FILE ARGS_FILE`` (the file itself
for a binary), its printed JSON as the result. Called by the controller (``runner/ansible_api/legacy.py``), never
named by a task: its leading underscore keeps it out of the module index.
"""

import base64
import json
import os
import shutil
import sys
import tempfile

ARGUMENT_SPEC = {
    "name": {"type": "str", "required": True},
    "source": {"type": "str", "required": True},  # the module file, base64
    "style": {"type": "str", "required": True, "choices": ["old", "want_json", "binary"]},
    "interpreter": {"type": "list", "elements": "str"},  # the #! line's, split; none for a binary
    "arguments": {"type": "str", "required": True},  # the arguments file's text
    # the interpreter is the task's ansible_<name>_interpreter: run as it is, whatever it names
    "configured": {"type": "bool", "default": False},
}
SUPPORTS_CHECK_MODE = True  # the module itself reads _ansible_check_mode, as under Ansible

_PYTHON_NAMES = ("python", "python2", "python3")


def _command(params, path, args_path):
    interpreter = params["interpreter"]
    if params["style"] == "binary" or not interpreter:
        return [path, args_path]
    if params["configured"]:
        return [*interpreter, path, args_path]
    program = os.path.basename(interpreter[0])
    if program == "env" and len(interpreter) > 1:
        program = os.path.basename(interpreter[1])
        interpreter = interpreter[1:]
    if program.startswith(_PYTHON_NAMES):
        # The host's Python, the one the agent runs on: Ansible runs a python #! line with the discovered one.
        return [sys.executable, *interpreter[1:], path, args_path]
    return [*interpreter, path, args_path]


def _json_result(stdout):
    """The JSON object the module printed; text before it is ignored and lines after it are warned about, as
    ansible-core does (and the agent for modules written against its API). None without one."""
    lines = stdout.splitlines()
    for index, line in enumerate(lines):
        if line.lstrip().startswith("{"):
            text = "\n".join(lines[index:]).lstrip()
            try:
                result, end = json.JSONDecoder().raw_decode(text)
            except ValueError:
                continue
            if isinstance(result, dict):
                junk = text[end:].split("\n", 1)[1] if "\n" in text[end:] else ""
                if junk.strip():
                    result.setdefault("warnings", []).append(
                        "Module invocation had junk after the JSON data: %s" % "\n".join(junk.splitlines()))
                return result
    return None


def _strip_internal_keys(value):
    """The value without ``_ansible_*`` keys in its dicts, as ansible-core strips them from what a module
    returns (a module that echoes its arguments shows the task's only)."""
    if isinstance(value, dict):
        return {key: _strip_internal_keys(item) for key, item in value.items()
                if not (isinstance(key, str) and key.startswith("_ansible_"))}
    if isinstance(value, list):
        return [_strip_internal_keys(item) for item in value]
    return value


def run(module):
    params = module.params
    directory = tempfile.mkdtemp(prefix="legacy-", dir=module.tmpdir)
    try:
        path = os.path.join(directory, params["name"])
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(params["source"]))
        os.chmod(path, 0o700)
        args_path = os.path.join(directory, "args")
        with open(args_path, "w") as handle:
            handle.write(params["arguments"])
        rc, stdout, stderr = module.run_command(_command(params, path, args_path))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    result = _json_result(stdout)
    if result is None:
        return {"failed": True, "changed": False, "msg": "MODULE FAILURE\nSee stdout/stderr for the exact error",
                "module_stdout": stdout, "module_stderr": stderr, "rc": rc}
    # The result's own top-level _ansible_ keys (no_log, verbose_always) stay: the controller reads them.
    result = {key: item if key.startswith("_ansible_") else _strip_internal_keys(item)
              for key, item in result.items()}
    if rc != 0 and "failed" not in result:
        result["failed"] = True
    return result
