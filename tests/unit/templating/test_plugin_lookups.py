"""Lookup plugins written for Ansible: a collection's by its full name, a ``lookup_plugins/`` folder's by its
short name (before the builtin of that name, as ``ansible.legacy`` does), with their documented options."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.templating import Templar, TemplateError, add_project_plugins, configure_plugins

COLLECTIONS = Path(__file__).resolve().parents[2] / "data" / "collections"
pytestmark = pytest.mark.usefixtures("ansible_core")

LOCAL_LOOKUP = '''
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        found = self.find_file_in_search_path(variables, "files", terms[0])
        return [open(found).read().strip(), variables["who"], self._templar.template(variables["who"])]
'''


@pytest.fixture
def plugins() -> Iterator[None]:
    configure_plugins(collections_paths=[COLLECTIONS])
    yield
    configure_plugins()


@pytest.mark.usefixtures("plugins")
def test_a_collections_lookup_with_its_documented_options() -> None:
    templar = Templar({})
    assert templar.template("{{ lookup('demo.tools.echo', 'a', 'b') }}") == ">a,>b"
    assert templar.template("{{ query('demo.tools.echo', 'a', prefix='#') }}") == ["#a"]


@pytest.mark.usefixtures("plugins")
def test_a_lookup_plugins_error_is_a_template_error_naming_it() -> None:
    with pytest.raises(TemplateError, match=r"lookup 'demo\.tools\.echo'.*echo cannot say boom"):
        Templar({}).template("{{ lookup('demo.tools.echo', 'boom') }}")
    assert Templar({}).template("{{ lookup('demo.tools.echo', 'boom', errors='ignore') }}") is None


@pytest.mark.usefixtures("plugins")
def test_an_unknown_collection_lookup_is_an_unknown_lookup() -> None:
    with pytest.raises(TemplateError, match=r"The lookup plugin 'demo\.tools\.nothing' was not found"):
        Templar({}).template("{{ lookup('demo.tools.nothing', 'a') }}")


@pytest.mark.usefixtures("plugins")
def test_a_lookup_plugins_folder_wins_over_the_builtin_and_reads_raw_variables(tmp_path: Path) -> None:
    (tmp_path / "lookup_plugins").mkdir()
    (tmp_path / "lookup_plugins" / "file.py").write_text(LOCAL_LOOKUP)
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "motd").write_text("hello\n")
    add_project_plugins(tmp_path)
    templar = Templar({"who": "{{ 'wor' + 'ld' }}"}, search_paths=[tmp_path])
    # Ansible passes a lookup the variables unrendered; the plugin renders what it wants with its templar.
    assert templar.template("{{ query('file', 'motd') }}") == ["hello", "{{ 'wor' + 'ld' }}", "world"]
    assert templar.template("{{ query('ansible.legacy.file', 'motd') }}")[0] == "hello"
    assert templar.template("{{ query('ansible.builtin.file', 'motd') }}") == ["hello"]  # the builtin, always


@pytest.mark.usefixtures("plugins")
def test_a_collections_runtime_yml_routes_its_lookups() -> None:
    assert Templar({}).template("{{ lookup('demo.tools.say', 'a') }}") == ">a"


def test_a_lookup_routed_to_a_collection_not_installed_names_it() -> None:
    configure_plugins(collections_paths=[COLLECTIONS])
    try:
        routed = "unknown lookup 'dig': it is routed to community.general.dig"
        with pytest.raises(TemplateError, match=re.escape(routed)):
            Templar({}).template("{{ lookup('dig', 'example.com') }}")
    finally:
        configure_plugins()


TERMS_AS_OPTION = '''
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, first, variables=None, terms=None, **kwargs):
        return [{"first": first, "terms": terms}]
'''


def test_a_lookup_plugin_may_take_an_option_called_terms(tmp_path: Path) -> None:
    (tmp_path / "lookup_plugins").mkdir()
    (tmp_path / "lookup_plugins" / "echo_terms.py").write_text(TERMS_AS_OPTION)
    configure_plugins()
    add_project_plugins(tmp_path)
    try:
        assert Templar({}).template("{{ lookup('echo_terms', 'a', terms='b') }}") == {"first": ["a"], "terms": "b"}
    finally:
        configure_plugins()


MARKER_LOOKUPS = {
    "accept_no_markers": "class LookupModule(LookupBase):\n    def run(self, terms, variables, **kwargs):\n"
                         "        return terms\n",
    "accept_args_markers": "from ansible._internal._templating._jinja_common import Marker\n\n\n"
                           "class LookupModule(LookupBase):\n    accept_args_markers = True\n\n"
                           "    def run(self, terms, variables, **kwargs):\n"
                           "        return [isinstance(term, Marker) for term in terms]\n",
}


@pytest.mark.usefixtures("plugins")
def test_undefined_lookup_arguments_as_ansible_cores_markers(tmp_path: Path) -> None:
    (tmp_path / "lookup_plugins").mkdir()
    for name, body in MARKER_LOOKUPS.items():
        (tmp_path / "lookup_plugins" / f"{name}.py").write_text(
            "from ansible.plugins.lookup import LookupBase\n" + body)
    add_project_plugins(tmp_path)
    templar = Templar({"a_dict": {"a_key": "{{ not_defined }}"}})
    # a plugin that takes no markers is not run for an undefined argument, which is its result
    assert templar.template("{{ lookup('accept_no_markers', not_defined) is undefined }}") is True
    # an undefined item of a list is passed on, written as such or made by an embedded template
    assert templar.template("{{ lookup('accept_no_markers', [a_dict.a_key, 42])[1] }}") == 42
    assert templar.template("{{ lookup('accept_no_markers', '{{ [a_dict.a_key, 42] }}')[1] }}") == 42
    # one that takes them gets ansible-core's own marker in the undefined argument's place
    assert templar.template("{{ query('accept_args_markers', not_defined, 1) }}") == [True, False]
    assert templar.template("{{ lookup('accept_args_markers', '{{ not_defined }}') }}") is True


@pytest.mark.usefixtures("plugins")
def test_a_lookup_plugin_that_fails_to_load_fails_the_template_using_it(tmp_path: Path) -> None:
    (tmp_path / "lookup_plugins").mkdir()
    (tmp_path / "lookup_plugins" / "broken_on_import.py").write_text("raise NotImplementedError('boom')\n")
    add_project_plugins(tmp_path)
    templar = Templar({}, search_paths=[tmp_path])
    assert templar.template("{{ 1 + 1 }}") == 2
    with pytest.raises(TemplateError, match="The lookup plugin 'broken_on_import' failed to load: boom"):
        templar.template("{{ lookup('broken_on_import') }}")


@pytest.mark.usefixtures("plugins")
def test_a_lookup_plugin_with_malformed_documentation_says_so_before_anything_else(tmp_path: Path) -> None:
    (tmp_path / "lookup_plugins").mkdir()
    # no LookupModule either: ansible-core reads the documentation (its options) first
    broken = 'DOCUMENTATION = """\n    name: broken_docs\n    -\n"""\n'
    (tmp_path / "lookup_plugins" / "broken_docs.py").write_text(broken)
    add_project_plugins(tmp_path)
    templar = Templar({}, search_paths=[tmp_path])
    with pytest.raises(TemplateError, match="plugin broken_docs has malformed documentation!"):
        templar.template("{{ lookup('broken_docs') }}")
