"""Create or delete a server with its provider (local, aws, upcloud), and add it to the running inventory.

Runs on the controller: the work is ``runner.actions.server_provider``, over ``runner.providers``.
"""

ACTION = "server"
DOCUMENTATION = {
    "short_description": "Create or delete a server with its provider, idempotent by name",
    "description": [
        "Makes sure the server called name exists (created if missing, started if stopped) or does not.",
        "A server is known by its name only: the settings of an existing server are not changed.",
        "With wait, a new server is waited for until it runs and its SSH server answers.",
        "A server that runs is added to the inventory of the running playbook, in the groups of its labels, "
        "with the variables to log in to it.",
        "In check mode nothing is created or deleted; the result says what would be.",
        "Settings a provider does not have are errors (plan on a local server).",
    ],
    "options": {
        "name": {"description": "The server's hostname, and its inventory host name.", "type": "str",
                 "required": True, "aliases": ["hostname"]},
        "provider": {"description": "Where the server lives.", "type": "str", "required": True,
                     "choices": ["local", "aws", "upcloud"]},
        "state": {"description": "Whether the server should exist.", "type": "str", "default": "present",
                  "choices": ["present", "absent"]},
        "labels": {"description": "Inventory groups the server is added to.", "type": "list", "elements": "str",
                   "aliases": ["groups"]},
        "user": {"description": "The user to log in as (the login user created on upcloud servers).",
                 "type": "str"},
        "ssh_port": {"description": "The SSH port.", "type": "int"},
        "ssh_key": {"description": "Private key file to log in with; its .pub file is installed (aws, upcloud).",
                    "type": "path"},
        "address": {"description": "local: the server's 127.0.0.N (the first free one by default).",
                    "type": "str"},
        "image": {"description": "aws: the AMI id; upcloud: the template's UUID or title.", "type": "str"},
        "disk_gb": {"description": "aws, upcloud: size of the system disk in GB.", "type": "int"},
        "plan": {"description": "upcloud: the plan (1xCPU-2GB); aws: the instance type.", "type": "str"},
        "instance_type": {"description": "aws: the instance type (t3.micro).", "type": "str"},
        "zone": {"description": "upcloud: the zone (de-fra1); aws: the availability zone.", "type": "str"},
        "region": {"description": "aws: the region.", "type": "str"},
        "key_name": {"description": "aws: the key pair (imported from ssh_key when missing).", "type": "str"},
        "security_groups": {"description": "aws: security group names (one allowing SSH by default).",
                            "type": "list", "elements": "str"},
        "subnet": {"description": "aws: the subnet id.", "type": "str"},
        "network": {"description": "aws: the VPC id; upcloud: the interfaces (public, utility).", "type": "raw"},
        "tags": {"description": "aws: tags besides Name.", "type": "dict"},
        "infra": {"description": "The infra the server belongs to: local servers of one infra share an env.",
                  "type": "str", "default": "local"},
        "wait": {"description": "Wait until a new server runs (and answers SSH, see wait_for_ssh).",
                 "type": "bool", "default": True},
        "wait_for_ssh": {"description": "Also wait until SSH answers (default: the provider settings', true).",
                         "type": "bool"},
        "wait_timeout": {"description": "Seconds to wait (default: the provider settings', 600).", "type": "int"},
        "keep_storage": {"description": "With state=absent, keep the server's disks.", "type": "bool",
                         "default": False},
        "host_vars": {"description": "More variables for the host added to the inventory.", "type": "dict"},
        "provider_config": {"description": "Provider settings, as under 'providers.<provider>' in an infra file "
                                           "(endpoint_url, api_url, state_dir, tries ...). Never shown.",
                            "type": "dict", "no_log": True},
    },
}
EXAMPLES = """
- name: A local server to try a role on
  server:
    name: web1
    provider: local
    labels: [web]

- name: An EC2 instance
  server:
    name: api1
    provider: aws
    region: eu-west-1
    image: ami-0abcdef1234567890
    instance_type: t3.small
    ssh_key: ~/.ssh/id_ed25519
    user: admin

- name: An UpCloud server, gone
  server:
    name: db1
    provider: upcloud
    state: absent
"""
RETURN = {
    "server": "The server: name, provider, id, state, address, public_address, private_address and the "
              "provider's details (region, zone, instance_type, plan ...)",
    "msg": "What was done, or would be done in check mode",
    "add_host": "The host added to the inventory: host_name, groups, host_vars",
}
ARGUMENT_SPEC = dict(
    (name, dict((key, value) for key, value in option.items() if key != "description"))
    for name, option in DOCUMENTATION["options"].items()
)
SUPPORTS_CHECK_MODE = True
