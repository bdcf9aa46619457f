"""Run a command line through a shell (/bin/sh by default): pipes, redirections and variables work."""

from modules._utils import COMMAND_ARGUMENTS, COMMAND_RETURN, run_command_task

DOCUMENTATION = {
    "short_description": "Execute shell commands on targets",
    "description": [
        "Runs the command line through /bin/sh -c (or the shell named by executable) on each host.",
        "The command always reports changed unless creates or removes say it was not needed.",
        "In check mode the command is skipped (its result still carries rc, stdout and stderr, empty), "
        "unless creates or removes decide the outcome.",
    ],
    "options": {
        "free_form": {"description": "The shell command line to run.", "type": "str"},
        "cmd": {"description": "The command line to run, as free_form.", "type": "str"},
        "chdir": {"description": "Change into this directory before running the command.", "type": "path"},
        "creates": {"description": "A filename or glob; when it matches, the command is not run.",
                    "type": "path"},
        "removes": {"description": "A filename or glob; when it does not match, the command is not run.",
                    "type": "path"},
        "executable": {"description": "The shell to use instead of /bin/sh (an absolute path).", "type": "path"},
        "stdin": {"description": "Text to feed to the command on its standard input.", "type": "str"},
        "stdin_add_newline": {"description": "Append a newline to stdin.", "type": "bool", "default": True},
        "strip_empty_ends": {"description": "Strip trailing newlines from stdout and stderr.", "type": "bool",
                             "default": True},
        "expand_argument_vars": {"description": "command's option, refused here when the task runs, in the words "
                                                "of Ansible's shell (the shell itself expands variables).",
                                 "type": "raw"},
    },
}

EXAMPLES = """
- name: Count the users that log in with bash
  shell: grep -c /bin/bash /etc/passwd
  register: bash_users

- name: Run a script with bash, once
  shell: ./setup.sh >> setup.log 2>&1
  args:
    chdir: /opt/app
    creates: /opt/app/.installed
    executable: /bin/bash
"""

RETURN = dict(COMMAND_RETURN)

ARGUMENT_SPEC = dict(COMMAND_ARGUMENTS, executable={"type": "path"}, expand_argument_vars={"type": "raw"})
FREE_FORM = "_raw_params"
SUPPORTS_CHECK_MODE = True


def run(module):
    if module.params.get("expand_argument_vars") is not None:
        module.fail("Unsupported parameters for (shell) module: expand_argument_vars")
    return run_command_task(module, use_shell=True, executable=module.params["executable"])
