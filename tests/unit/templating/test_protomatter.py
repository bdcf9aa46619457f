"""``ansible._protomatter``'s filters and tests read this runner's marks under Ansible 2.19's tag names."""

from __future__ import annotations

import pytest

from runner.secrets.encrypted import VaultEncryptedValue
from runner.templating import Templar, TemplateError
from runner.util.unsafe import UnsafeText


def test_tags_of_trusted_unsafe_and_vaulted_values() -> None:
    templar = Templar({"written": "hello", "from_host": UnsafeText("hi"),
                       "vaulted": VaultEncryptedValue.opened("$ANSIBLE_VAULT;1.1;AES256\n00\n", "s", "f.yml:1:2")})
    assert templar.template("{{ written | ansible._protomatter.tag_names }}") == ["TrustedAsTemplate"]
    assert templar.template("{{ from_host | ansible._protomatter.tag_names }}") == []
    assert templar.template("{{ from_host is ansible._protomatter.tagged }}") is False
    assert templar.template("{{ vaulted is ansible._protomatter.tagged_with('VaultedValue') }}") is True
    assert templar.template("{{ missing | ansible._protomatter.tag_names is undefined }}") is True
    with pytest.raises(TemplateError, match="Unknown tag name 'Bogus'"):
        templar.template("{{ written is ansible._protomatter.tagged_with('Bogus') }}")


def test_literal_eval_true_type_and_unmask() -> None:
    templar = Templar()
    assert templar.template("{{ '[1, 2]' | ansible._protomatter.python_literal_eval }}") == [1, 2]
    assert templar.template("{{ 'x[' | ansible._protomatter.python_literal_eval(ignore_errors=True) }}") == "x["
    with pytest.raises(TemplateError, match="must be a string"):
        templar.template("{{ 123 | ansible._protomatter.python_literal_eval }}")
    assert templar.template("{{ missing | ansible._protomatter.true_type }}") == "UndefinedMarker"
    with pytest.raises(TemplateError, match="'type_names' argument must be of type 'str' or 'list', not 'int'"):
        templar.template("{{ [] | ansible._protomatter.unmask(1) }}")
    with pytest.raises(TemplateError, match="Unknown type name"):
        templar.template("{{ [] | ansible._protomatter.unmask('BogusType') }}")


def test_a_failed_literal_eval_is_a_captured_error_and_dump_object_makes_enums_their_values() -> None:
    import dataclasses
    import enum

    class Kind(enum.Enum):
        MODULE = "module"

    @dataclasses.dataclass
    class Info:
        resolved_name: str
        type: Kind

    templar = Templar({"info": Info("ns.col.module", Kind.MODULE)})
    assert templar.template("{{ 'x[1, 2]' | ansible._protomatter.python_literal_eval "
                            "| ansible._protomatter.true_type }}") == "CapturedExceptionMarker"
    assert templar.template("{{ info | ansible._protomatter.dump_object }}") == {
        "resolved_name": "ns.col.module", "type": "module"}


def test_apply_trust_makes_untrusted_text_a_template_again_where_it_is_stored() -> None:
    from runner.util.unsafe import mark_unsafe

    templar = Templar({"untrusted": UnsafeText("{{ 1 }}")})
    trusted = templar.template("{{ untrusted | ansible._protomatter.apply_trust }}")
    assert trusted == "{{ 1 }}" and mark_unsafe(trusted) is trusted  # a template read untrusted data for it
    assert Templar({"stored": trusted}).template("{{ stored }}") == 1
    assert Templar({"stored": mark_unsafe("{{ 1 }}")}).template("{{ stored }}") == "{{ 1 }}"
