"""Filters and tests of collections by their full names (``NS.COLL.NAME``), found in the collections path on
first use, Ansible-API ones imported through ansible-core's collection finder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.templating import Templar, TemplateError, configure_plugins

COLLECTIONS = Path(__file__).resolve().parents[2] / "data" / "collections"


@pytest.fixture
def collections_path() -> Iterator[Path]:
    configure_plugins(collections_paths=[COLLECTIONS])
    yield COLLECTIONS
    configure_plugins()


@pytest.mark.usefixtures("collections_path")
def test_a_collections_filter_and_test_by_their_full_names() -> None:
    templar = Templar({"word": "hi"})
    assert templar.template("{{ word | demo.tools.shout }}") == "HI!"
    assert templar.template("{{ 'HI' is demo.tools.loud }}") is True
    assert templar.template("{{ 'hi' is demo.tools.loud }}") is False


@pytest.mark.usefixtures("collections_path", "ansible_core")
def test_an_ansible_api_filter_with_its_collections_module_utils() -> None:
    templar = Templar({})
    assert templar.template("{{ 'hi' | demo.tools.emphasize(3) }}") == "hi!!!"
    with pytest.raises(TemplateError, match="emphasize wants a string"):
        templar.template("{{ 1 | demo.tools.emphasize }}")


@pytest.mark.usefixtures("collections_path")
def test_a_short_name_is_never_looked_up_in_collections_as_in_ansible() -> None:
    with pytest.raises(TemplateError, match="No filter named 'shout'"):
        Templar({}).template("{{ 'hi' | shout }}")


@pytest.mark.usefixtures("collections_path")
@pytest.mark.parametrize("template", ["{{ 'hi' | demo.tools.nothing }}", "{{ 'hi' | demo.absent.shout }}",
                                      "{{ 'hi' is demo.tools.nothing }}"])
def test_an_unknown_full_name_is_an_unknown_filter_or_test(template: str) -> None:
    with pytest.raises(TemplateError, match=r"No (filter|test) named 'demo"):
        Templar({}).template(template)


def test_without_a_collections_path_nothing_resolves() -> None:
    configure_plugins()
    with pytest.raises(TemplateError, match=r"No filter named 'demo\.tools\.shout'"):
        Templar({}).template("{{ 'hi' | demo.tools.shout }}")


@pytest.mark.usefixtures("collections_path")
def test_a_collections_runtime_yml_routes_its_filters() -> None:
    assert Templar({}).template("{{ 'hi' | demo.tools.yell }}") == "HI!"


@pytest.mark.usefixtures("ansible_core")
def test_a_short_name_ansible_core_routes_to_a_collection_is_found_there(community_collections: Path) -> None:
    configure_plugins(collections_paths=[community_collections])
    try:
        templar = Templar({"data": {"a": [{"b": 1}, {"b": 2}]}})
        assert templar.template("{{ data | json_query('a[].b') }}") == [1, 2]  # community.general's
        assert templar.template("{{ data | to_json }}") == '{"a": [{"b": 1}, {"b": 2}]}'  # native
    finally:
        configure_plugins()
