"""A template whose result is a view of variables (``{{ hostvars[inventory_hostname] }}``, ``{{ hostvars }}``)
gives plain data, as Ansible's does: printable, picklable, each value rendered in its host's scope, without the
views of everything again (``hostvars``, ``vars``) that would make it endless."""

from __future__ import annotations

import pickle
from typing import Any

from runner.templating import Templar
from runner.vars import HostVars, MagicVariables, VariableLayers


def _hosts() -> tuple[HostVars, dict[str, VariableLayers]]:
    layers: dict[str, VariableLayers] = {}
    hostvars = HostVars(lambda host: layers[host], lambda: list(layers))
    inventory: dict[str, dict[str, Any]] = {
        "web1": {"port": 8080, "url": "http://{{ inventory_hostname }}:{{ port }}"},
        "db1": {"port": 5432, "broken": "{{ nowhere }}"},
    }
    for host, values in inventory.items():
        magic = MagicVariables(inventory_hostname=host, hostvars=hostvars)
        layers[host] = VariableLayers(magic=magic).with_layer("inventory", values)
    return hostvars, layers


def test_one_hosts_variables_print_as_data() -> None:
    _, layers = _hosts()
    web1 = Templar().template("{{ hostvars[inventory_hostname] }}", layers["web1"].as_mapping())
    assert type(web1) is dict and "hostvars" not in web1
    assert web1["url"] == "http://web1:8080" and web1["inventory_hostname"] == "web1"
    assert pickle.loads(pickle.dumps(web1)) == web1


def test_every_hosts_variables_nested_in_data_with_their_own_values() -> None:
    _, layers = _hosts()
    rendered = Templar().template({"all": ["{{ hostvars }}"]}, layers["web1"].as_mapping())
    everyone = rendered["all"][0]
    assert sorted(everyone) == ["db1", "web1"] and everyone["db1"]["port"] == 5432
    # a value that cannot be rendered says why instead of failing the whole print, as debug: var= does
    assert everyone["db1"]["broken"] == "<< error 1 - 'nowhere' is undefined >>"


def test_vars_as_data_holds_every_hosts_variables_as_in_ansible_core() -> None:
    _, layers = _hosts()
    everything = Templar().template("{{ vars }}", layers["web1"].as_mapping())
    assert type(everything) is dict and "vars" not in everything
    assert everything["hostvars"]["db1"]["port"] == 5432 and "hostvars" not in everything["hostvars"]["db1"]


def test_another_hosts_variable_holding_templates_is_data_in_the_result() -> None:
    _, layers = _hosts()
    layers["db1"] = layers["db1"].with_layer("play_vars", {"data": {"url": "{{ port }}", "all": ["{{ port + 1 }}"]}})
    web1 = layers["web1"].as_mapping()
    assert Templar().template("{{ hostvars['db1'].data }}", web1) == {"url": 5432, "all": [5433]}
    rendered = Templar().template("{{ hostvars['db1'].data.all }}", web1)
    assert type(rendered) is list and rendered == [5433]


def test_plain_results_are_returned_as_they_are() -> None:
    _, layers = _hosts()
    data = {"a": [1, {"b": "{{ port }}"}]}
    assert Templar().template(data, layers["db1"].as_mapping()) == {"a": [1, {"b": 5432}]}
