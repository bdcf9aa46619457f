# A project's own module_utils file: Ansible merges module_utils/ beside a playbook into ansible.module_utils.
from ansible.module_utils.common.text.converters import to_text


def make_greeting(name):
    return to_text("hello " + name + "\n")
