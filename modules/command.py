"""Run a command on the host, without a shell: no pipes, redirections or variables other than $VAR expansion."""

from modules._utils import COMMAND_ARGUMENTS, COMMAND_RETURN, run_command_task

DOCUMENTATION = {
    "short_description": "Execute commands on targets",
    "description": [
        "Runs the command with its arguments on each host, not through a shell: '|', '>', '&&' and the like "
        "are passed to the command as plain arguments. Use the shell module for those.",
        "The command always reports changed unless creates or removes say it was not needed.",
        "In check mode the command is skipped (its result still carries rc, stdout and stderr, empty), "
        "unless creates or removes decide the outcome.",
    ],
    "options": {
        "free_form": {"description": "The command and its arguments, split like a shell would (quotes kept).",
                      "type": "str"},
        "cmd": {"description": "The command to run, as free_form.", "type": "str"},
        "argv": {"description": "The command as a list, one argument per item; use instead of cmd/free_form.",
                 "type": "list", "elements": "str"},
        "chdir": {"description": "Change into this directory before running the command.", "type": "path"},
        "creates": {"description": "A filename or glob; when it matches, the command is not run.",
                    "type": "path"},
        "removes": {"description": "A filename or glob; when it does not match, the command is not run.",
                    "type": "path"},
        "stdin": {"description": "Text to feed to the command on its standard input.", "type": "str"},
        "stdin_add_newline": {"description": "Append a newline to stdin.", "type": "bool", "default": True},
        "strip_empty_ends": {"description": "Strip trailing newlines from stdout and stderr.", "type": "bool",
                             "default": True},
        "expand_argument_vars": {"description": "Expand $VAR and ~ in the arguments, as a shell would not.",
                                 "type": "bool", "default": True},
        "executable": {"description": "Accepted for Ansible's playbooks and ignored with Ansible's warning: the "
                                      "command runs without a shell, so there is no shell to choose (see shell).",
                       "type": "path"},
    },
}

EXAMPLES = """
- name: Return the kernel's name
  command: uname -s
  register: kernel

- name: Create a database only once
  command: /usr/bin/make_database.sh db_user db_name
  args:
    chdir: somedir/
    creates: /path/to/database

- name: Pass arguments that contain spaces without quoting
  command:
    argv: [/usr/bin/printf, "%s\\n", "one argument"]
"""

RETURN = dict(COMMAND_RETURN)

ARGUMENT_SPEC = dict(COMMAND_ARGUMENTS, argv={"type": "list", "elements": "str"},
                     expand_argument_vars={"type": "bool", "default": True}, executable={"type": "path"})
SPEC_RULES = {"mutually_exclusive": [["_raw_params", "argv"]]}
FREE_FORM = "_raw_params"
SUPPORTS_CHECK_MODE = True


def run(module):
    if module.params.get("executable"):
        # Ansible's words, so playbooks that check warnings see the same text.
        module.warn("As of Ansible 2.4, the parameter 'executable' is no longer supported with the 'command' "
                    "module. Not using '%s'." % module.params["executable"])
    return run_command_task(module, use_shell=False)
