#!/usr/bin/python
# A module written against Ansible's API, as a role's or playbook's library/ holds them: check mode, diff,
# no_log, fail_json, and a module_utils file of the project's own (module_utils/greeting.py).
import os

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.greeting import make_greeting


def main():
    module = AnsibleModule(
        argument_spec=dict(
            name=dict(type="str", required=True),
            path=dict(type="path", required=True),
            token=dict(type="str", no_log=True),
            fail=dict(type="bool", default=False),
        ),
        supports_check_mode=True,
    )
    if module.params["fail"]:
        module.fail_json(msg="asked to fail for " + module.params["name"])
    path, text = module.params["path"], make_greeting(module.params["name"])
    before = ""
    if os.path.exists(path):
        with open(path) as handle:
            before = handle.read()
    result = dict(changed=before != text, greeting=text, token_echo=module.params["token"], pid=os.getpid(),
                  check=module.check_mode)
    if module._diff:
        result["diff"] = dict(before=before, after=text)
    if result["changed"] and not module.check_mode:
        with open(path, "w") as handle:
            handle.write(text)
    print("noise before the result, as some modules print")
    module.exit_json(**result)


if __name__ == "__main__":
    main()
