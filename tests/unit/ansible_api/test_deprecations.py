"""A result's ``deprecations`` in ansible-core 2.19's form (runner/ansible_api/deprecations.py), checked against
what ansible-core 2.19.14 and 2.21.5 register for a module returning the older form, and our own module layer's
``deprecate``, which returns that older form."""

from __future__ import annotations

from modules._utils import Module
from runner.ansible_api.deprecations import normalized_deprecations, with_normalized_deprecations
from runner.ansible_api.profiles import decode_result
from runner.ansible_api.results import normalize_result
from runner.templating import Templar
from runner.templating.deprecations import collecting
from runner.util.unsafe import DeprecatedText, mark_unsafe


def test_the_older_form_gets_its_deprecator_from_its_collection() -> None:
    assert normalized_deprecations(
        [
            {"msg": "Old one.", "version": "1.0"},
            {"msg": "Old three.", "version": "2.0", "collection_name": "ns.col"},
            {"msg": "Old four.", "date": "2030-01-01", "collection_name": "ansible.builtin"},
            "not a mapping",
        ]
    ) == [
        {"msg": "Old one.", "collection_name": None, "version": "1.0", "deprecator": None},
        {
            "msg": "Old three.",
            "collection_name": "ns.col",
            "version": "2.0",
            "deprecator": {"resolved_name": "ns.col", "type": None},
        },
        {
            "msg": "Old four.",
            "collection_name": "ansible.builtin",
            "date": "2030-01-01",
            "deprecator": {"resolved_name": "ansible.builtin", "type": None},
        },
        "not a mapping",
    ]


def test_our_modules_deprecate_as_ansible_modules_do() -> None:
    module = Module({})
    module.deprecate("Param 'two' is deprecated", version="3.30")
    result = with_normalized_deprecations({"results": [{"deprecations": module.deprecations}]})
    assert result["results"][0]["deprecations"] == [
        {
            "msg": "Param 'two' is deprecated",
            "collection_name": "ansible.builtin",
            "version": "3.30",
            "deprecator": {"resolved_name": "ansible.builtin", "type": None},
        }
    ]


def test_a_2_19_modules_summaries_are_decoded() -> None:
    # as ansible-core 2.19's legacy profile writes them (the deprecations target's module, foo.bar.noisy)
    result = decode_result(
        {
            "warnings": [
                {"event": {"msg": "This is a warning.", "__ansible_type": "Event"}, "__ansible_type": "WarningSummary"}
            ],
            "deprecations": [
                {
                    "event": {"msg": "No deprecator.", "__ansible_type": "Event"},
                    "deprecator": {
                        "resolved_name": "foo.bar.noisy",
                        "__ansible_type": "PluginInfo",
                        "type": {"value": "module", "__ansible_type": "PluginType"},
                    },
                    "__ansible_type": "DeprecationSummary",
                }
            ],
            "value": {"value": "a deprecated value", "tags": [], "__ansible_type": "_AnsibleTaggedStr"},
        }
    )
    assert result == {
        "warnings": ["This is a warning."],
        "value": "a deprecated value",
        "deprecations": [
            {
                "msg": "No deprecator.",
                "collection_name": "foo.bar",
                "version": None,
                "deprecator": {"resolved_name": "foo.bar.noisy", "type": "module"},
            }
        ],
    }


def test_a_value_a_module_deprecated_deprecates_the_task_that_reads_it() -> None:
    # ansible-core 2.19's deprecate_value(), as its legacy profile writes the value (foo.bar.noisy's)
    result = normalize_result(
        {
            "deprecated_result": {
                "value": "a deprecated value",
                "__ansible_type": "_AnsibleTaggedStr",
                "tags": [
                    {
                        "msg": "value is deprecated",
                        "version": "9999.9",
                        "__ansible_type": "Deprecated",
                        "deprecator": {"resolved_name": "foo.bar", "type": None, "__ansible_type": "PluginInfo"},
                    }
                ],
            }
        },
        DeprecatedText,
    )
    assert result["deprecated_result"] == "a deprecated value"
    variables = {"registered": mark_unsafe(result)}
    with collecting() as untouched:
        assert Templar().template("{{ registered | length }}", variables) == 1
    with collecting() as touched:
        assert Templar().template("{{ registered.deprecated_result }}", variables) == "a deprecated value"
    assert untouched == []
    assert touched == [
        {
            "msg": "value is deprecated",
            "collection_name": "foo.bar",
            "version": "9999.9",
            "deprecator": {"resolved_name": "foo.bar", "type": None},
        }
    ]
