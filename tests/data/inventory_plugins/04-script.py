#!/usr/bin/env python3
"""An inventory script as Ansible's documentation describes one: --list with _meta.hostvars, --host NAME."""
import json
import sys

INVENTORY = {
    "cache": {"hosts": ["cache1", "cache2"], "vars": {"port": 6379}},
    "backends": {"children": ["cache"], "vars": {"tier": "back"}},
    "_meta": {"hostvars": {"cache1": {"ansible_host": "10.0.1.1"}, "cache2": {"maxmemory": "2gb"}}},
}

if sys.argv[1:] == ["--list"]:
    print(json.dumps(INVENTORY))
elif sys.argv[1:2] == ["--host"]:
    print(json.dumps(INVENTORY["_meta"]["hostvars"].get(sys.argv[2], {})))
else:
    sys.exit("usage: --list | --host NAME")
