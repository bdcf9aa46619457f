"""The ``vault`` and ``unvault`` filters: ansible-vault's format byte for byte, and inline vault values that the
run's passwords cannot open, which fail where used but can still be given to ``unvault``."""

from __future__ import annotations

import pytest

from runner.secrets.encrypted import VaultEncryptedValue
from runner.templating import Templar, TemplateError

# ansible-core 2.19's own output for "secret" | vault("test", salt=7) (its filter_encryption target)
EXPECTED = ("$ANSIBLE_VAULT;1.2;AES256;filter_default\n"
            "33370a34333734353636633035656232613935353432656132646533346233326431346232616261\n"
            "6133383034376566366261316365633931356133633337396363370a376664386236313834326561\n"
            "6338373864623763613165366636633031303739\n")


def test_vault_with_a_salt_gives_ansible_cores_envelope_and_unvault_reads_it_back() -> None:
    templar = Templar({"vaulted": EXPECTED})
    assert templar.template("{{ 'secret' | vault('test', salt=7) }}") == EXPECTED
    assert templar.template("{{ vaulted | unvault('test') }}") == "secret"
    assert templar.template("{{ 'plain' | unvault('test') }}") == "plain"
    assert templar.template("{{ 'x' | vault('pw', wrap_object=True) is vault_encrypted }}") is True
    with pytest.raises(TemplateError, match="Unable to decrypt"):
        templar.template("{{ vaulted | unvault('wrong') }}")


def test_an_undecryptable_vault_value_fails_where_used_but_unvault_opens_it() -> None:
    templar = Templar({"inline": VaultEncryptedValue(EXPECTED, "vars.yml:1:8"), "holder": {"x": "{{ inline }}"}})
    assert templar.template("{{ inline | unvault('test') }}") == "secret"
    for used in ("{{ inline }}", "{{ inline | string }}", "{{ holder }}", "{{ holder | to_json }}"):
        with pytest.raises(TemplateError, match="Attempt to use undecryptable variable"):
            templar.template(used)
