from ansible.module_utils.basic import AnsibleModule


def main():
    module = AnsibleModule(argument_spec=dict(name=dict(type="str", required=True)), supports_check_mode=True)
    module.exit_json(changed=False, frobbed=module.params["name"], check=module.check_mode)


if __name__ == "__main__":
    main()
