"""Magic variables, fact aliases and hostvars: computed when read, never copied per host."""

from __future__ import annotations

import pytest

from runner.templating import OMIT, Templar
from runner.vars import FactsView, HostVars, MagicVariables, VariableLayers


def magic(**overrides: object) -> MagicVariables:
    values: dict = {"inventory_hostname": "web1.example.com", "groups": {"all": ["web1.example.com", "db1"],
                                                                         "web": ["web1.example.com"]},
                    "group_names": ["web"], "play_hosts": ["web1.example.com", "db1"], "check_mode": True,
                    "playbook_dir": "/srv/site", "extra": {"ansible_play_name": "Site"}}
    values.update(overrides)
    return MagicVariables(**values)


def test_magic_variables_have_ansibles_names_and_values() -> None:
    variables = magic()
    assert variables["inventory_hostname"] == "web1.example.com"
    assert variables["inventory_hostname_short"] == "web1"
    assert variables["groups"]["web"] == ["web1.example.com"]
    assert variables["group_names"] == ["web"]
    assert variables["play_hosts"] == variables["ansible_play_hosts"] == ["web1.example.com", "db1"]
    assert variables["ansible_play_batch"] == ["web1.example.com", "db1"]
    assert variables["ansible_play_hosts_all"] == ["web1.example.com", "db1"]
    assert variables["ansible_check_mode"] is True
    assert variables["ansible_diff_mode"] is False
    assert variables["playbook_dir"] == "/srv/site"
    assert variables["omit"] == OMIT
    assert variables["ansible_play_name"] == "Site"


def test_role_variables_exist_only_inside_a_role() -> None:
    outside = magic()
    assert "role_name" not in outside and "role_path" not in outside
    with pytest.raises(KeyError):
        outside["role_name"]
    inside = outside.for_role("nginx", "/srv/site/roles/nginx")
    assert inside["role_name"] == "nginx" and inside["role_path"] == "/srv/site/roles/nginx"
    assert "role_name" in list(inside) and "role_name" not in list(outside)


def test_a_serial_batch_narrows_ansible_play_batch() -> None:
    batch = magic().for_batch(["db1"])
    assert batch["ansible_play_batch"] == ["db1"]
    assert batch["ansible_play_hosts"] == ["web1.example.com", "db1"]


def test_facts_appear_under_ansible_facts_and_as_ansible_prefixed_aliases() -> None:
    facts = {"distribution": "Debian", "os_family": "Debian", "python": {"version": {"major": 3}}}
    view = FactsView(facts)
    assert view["ansible_facts"] is facts
    assert view["ansible_distribution"] == "Debian"
    assert view["ansible_python"]["version"]["major"] == 3
    assert "ansible_os_family" in view and "os_family" not in view and "ansible_nothing" not in view
    assert set(view) == {"ansible_facts", "ansible_distribution", "ansible_os_family", "ansible_python"}
    facts["hostname"] = "late"  # gathered after the view was made
    assert view["ansible_hostname"] == "late"


def test_hostvars_reads_a_hosts_variables_only_when_asked() -> None:
    asked: list[str] = []
    web1 = VariableLayers().with_layer("inventory", {"http_port": 8080, "url": "http://web1:{{ http_port }}"})
    per_host = {"web1": web1, "db1": {"db_port": 5432}}

    def variables_for(host: str) -> VariableLayers | dict:
        asked.append(host)
        return per_host[host]

    hostvars = HostVars(variables_for, lambda: list(per_host))
    assert asked == []
    assert sorted(hostvars) == ["db1", "web1"] and len(hostvars) == 2 and "db1" in hostvars
    with pytest.raises(KeyError):
        hostvars["nope"]
    me = VariableLayers(magic=magic(hostvars=hostvars)).with_layer("inventory", {"http_port": 1})
    templar = Templar()
    assert templar.template("{{ hostvars['web1'].url }}", me.as_mapping()) == "http://web1:8080"
    assert templar.template("{{ hostvars.db1.db_port }}", me.as_mapping()) == 5432
    assert templar.template("{{ hostvars.db1.nope | default('none') }}", me.as_mapping()) == "none"
    assert asked == ["web1", "db1", "db1"]


def test_hostvars_looks_up_the_implicit_localhost_without_listing_it() -> None:
    per_host = {"web1": {"role": "web"}, "localhost": {"role": "controller"}}
    hostvars = HostVars(per_host.__getitem__, ["web1"], implicit=("localhost",))
    assert "localhost" in hostvars and hostvars["localhost"]["role"] == "controller"
    assert list(hostvars) == ["web1"] and len(hostvars) == 1


def test_templates_read_magic_and_fact_variables() -> None:
    layers = VariableLayers(magic=magic()).with_layer("facts", FactsView({"distribution": "Debian"}))
    rendered = Templar().template("{{ inventory_hostname_short }} on {{ ansible_distribution }} "
                                  "in {{ group_names | join(',') }}", layers.as_mapping())
    assert rendered == "web1 on Debian in web"
