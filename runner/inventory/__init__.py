"""Ansible-compatible inventory: INI and YAML sources, group_vars/host_vars, host patterns, merged variables.

```python
inventory = load_inventory(["inventories/prod"], playbook_dir=Path("playbooks"))
for host in inventory.get_hosts("web:&prod:!web03", limit="@retry.txt"):
    print(host.name, inventory.host_vars(host.name)["ansible_host"])
```
"""

from runner.inventory.inventory import Inventory
from runner.inventory.model import Group, Host
from runner.inventory.sources import YamlSourceReader, add_source, load_inventory

__all__ = ["Group", "Host", "Inventory", "YamlSourceReader", "add_source", "load_inventory"]
