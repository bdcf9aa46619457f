"""provisioning-doc: a module's page, the list, snippets, modules from a library directory, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from runner.cli.doc import main


def _doc(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_module_page_shows_options_examples_and_return_values() -> None:
    code, out = _doc("get_url")
    assert code == 0, out
    # ansible-doc's header: the type, the fully qualified name, the file
    assert out.startswith("> MODULE ansible.builtin.get_url (/") and "Downloads url to dest on the host" in out
    assert "\n= url " in out and "\n= dest " in out and "\n- force " in out  # '=' marks required ones
    assert "aliases: [thirsty]" in out and "default: false" in out and "type: bool" in out
    assert "        elements: str\n        type: list" in out and "default: ''" in out
    assert "EXAMPLES:\n- name: Download a release, once" in out
    assert "RETURN VALUES:" in out and "\n- checksum_src " in out


def test_page_says_where_a_module_runs_and_how_it_reads_free_form() -> None:
    _, debug = _doc("debug")
    assert "NOTES:\n      * Runs on the controller." in debug and "choices" not in debug
    assert "  * note: This module has a corresponding action plugin." in debug
    _, meta = _doc("meta")
    assert "choices: [flush_handlers, end_play" in meta and "Takes free-form text" in meta
    _, prefixed = _doc("ansible.builtin.ping")
    assert prefixed.startswith("> MODULE ansible.builtin.ping (")


def test_list_names_every_module_with_its_short_description() -> None:
    code, out = _doc("--list")
    assert code == 0
    lines = out.splitlines()
    names = [line.split()[0] for line in lines]
    builtin = {f"ansible.builtin.{name}" for name in ("copy", "uri", "wait_for", "debug")}
    assert names == sorted(names) and builtin <= set(names)
    # ansible-doc's columns: the names padded to the longest, the description cut to the width (79 off a terminal)
    assert any(line.startswith("ansible.builtin.uri ") and "Interacts with webservices" in line for line in lines)
    assert len({len(line) for line in lines if not line.endswith("...")}) == 1


def test_snippet_puts_required_options_first() -> None:
    code, out = _doc("-s", "get_url")
    lines = out.splitlines()
    assert code == 0 and lines[:2] == ["- name: Downloads files from HTTP, HTTPS, or FTP to node", "  get_url:"]
    assert lines[2].startswith("    dest:") and lines[2].endswith("(required)")
    assert lines[3].startswith("    url:") and lines[4].startswith("    attributes:")  # then the others by name


def test_language_actions_have_pages_and_are_listed() -> None:
    _, listed = _doc("--list")
    actions = ("include_tasks", "import_tasks", "include_role", "import_role", "import_playbook")
    assert {f"ansible.builtin.{name}" for name in actions} <= {line.split()[0] for line in listed.splitlines()}
    code, page = _doc("ansible.builtin.include_role")
    assert code == 0 and page.startswith("> MODULE ansible.builtin.include_role (")
    assert "* Carried out by the compiler" in page
    assert "\n= name " in page and "\n- tasks_from " in page and "EXAMPLES:" in page


def test_module_path_adds_a_library(tmp_path: Path) -> None:
    (tmp_path / "hello.py").write_text(
        'DOCUMENTATION = {"short_description": "Say hello", "options": {"who": {"description": "Whom.", '
        '"type": "str", "required": True}}}\nEXAMPLES = "- hello:\\n    who: world\\n"\nRETURN = {}\n'
        'ARGUMENT_SPEC = {"who": {"type": "str", "required": True}}\n')
    code, out = _doc("-M", str(tmp_path), "hello")
    assert code == 0 and out.startswith(f"> MODULE hello ({tmp_path / 'hello.py'})") and "\n= who     Whom." in out


def test_errors_are_one_clear_line() -> None:
    # a name nothing answers to is a warning, as in ansible-doc: the other names are still shown
    code, out = _doc("get_ulr", "ping")
    assert code == 0 and "[WARNING]: get_ulr was not found (couldn't resolve module/action 'get_ulr'" in out
    assert "did you mean 'get_url'?" in out and "> MODULE ansible.builtin.ping (" in out
    assert "Traceback" not in out
    code, out = _doc()
    assert code == 5 and "name a MODULE" in out
    code, out = _doc("--list", "copy")  # what --list takes are collections
    assert code == 5 and "Invalid collection name (must be of the form namespace.collection): copy" in out


ANSIBLE_MODULE = '''
DOCUMENTATION = r"""
module: willgo
short_description: does nothing
description: a module documented as Ansible documents them
deprecated:
  removed_in: '3.30'
  why: it does nothing
  alternatives: ping
options:
  old:
    description: an option on its way out
    type: str
    deprecated:
      removed_in: '3.30'
      why: unused
"""
EXAMPLES = "- willgo:\\n"
RETURN = ""

from ansible.module_utils.basic import AnsibleModule
'''
CACHE_PLUGIN = '''
DOCUMENTATION = """
    name: notjson
    short_description: a cache
    description: keeps nothing
    deprecated:
      why: Test deprecation
      version: '2.0.0'
      alternative: jsonfile
    options:
      _timeout:
        description: Expiration timeout
        default: 86400
        type: integer
        env:
          - name: ANSIBLE_CACHE_PLUGIN_TIMEOUT
"""
from ansible.plugins.cache import BaseFileCacheModule
'''


def test_a_module_documented_in_yaml_beside_the_playbook_shows_its_deprecations(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "willgo.py").write_text(ANSIBLE_MODULE)
    code, out = _doc("willgo", "--playbook-dir", str(tmp_path))
    assert code == 0, out
    assert "> MODULE willgo (" in out and "a module documented as Ansible documents them" in out
    # ansible-doc's section and words, a tab before each line
    assert "DEPRECATED: \n\tReason: it does nothing\n\tWill be removed in: Ansible 3.30\n\tAlternatives: ping" in out
    assert "- old     an option on its way out\n        default: null\n        deprecated:\n" in out
    assert "          removed_in: '3.30'\n" in out


def test_a_plugin_of_a_type_is_documented_from_its_folder_beside_the_playbook(tmp_path: Path) -> None:
    (tmp_path / "cache_plugins").mkdir()
    (tmp_path / "cache_plugins" / "notjson.py").write_text(CACHE_PLUGIN)
    code, out = _doc("-t", "cache", "notjson", "--playbook-dir", str(tmp_path))
    assert code == 0, out
    # a plugin's version is its removal release, as ansible-doc reads it
    assert "DEPRECATED: \n\tReason: Test deprecation\n\tWill be removed in: Ansible 2.0.0\n\tAlternatives: jsonfile" \
        in out
    assert "set_via:\n          env:\n          - name: ANSIBLE_CACHE_PLUGIN_TIMEOUT" in out
    code, out = _doc("-t", "cache", "nothing_here", "--playbook-dir", str(tmp_path))
    assert code == 0 and "[WARNING]: nothing_here was not found (looked beside --playbook-dir" in out
    assert "Traceback" not in out


def test_a_filter_is_documented_from_the_yaml_file_of_its_name(tmp_path: Path) -> None:
    (tmp_path / "filter_plugins").mkdir()
    (tmp_path / "filter_plugins" / "shout.yml").write_text(
        "DOCUMENTATION:\n  name: shout\n  short_description: Upper-case a string\n  options:\n"
        "    _input:\n      description: The text.\n      type: string\n      required: true\n"
        "EXAMPLES: |\n  x: \"{{ 'a' | shout }}\"\nRETURN:\n  _value:\n    description: The text, upper-cased.\n")
    code, out = _doc("-t", "filter", "shout", "--playbook-dir", str(tmp_path))
    assert code == 0, out
    assert "> FILTER shout (" in out and "= _input  The text." in out
    assert "EXAMPLES:\nx: \"{{ 'a' | shout }}\"" in out and "\n- _value  The text, upper-cased." in out


FRAGMENT = '''
class ModuleDocFragment(object):
    DOCUMENTATION = r"""
options:
    shared:
        description: An option every module of the collection takes.
        type: str
        version_added: 1.0.0
notes:
    - From the fragment.
"""
'''
COLLECTION_MODULE = '''
DOCUMENTATION = r"""
module: marked
short_description: marked up
description:
    - Uses C(code), O(path=/tmp), V(yes), E(HOME), M(ansible.builtin.copy) and P(ns.coll.other#filter).
options:
    path:
        description: Where.
        type: dict
        version_added: 1.2.0
        suboptions:
            mode:
                description: How.
                type: str
                version_added: 1.1.0
extends_documentation_fragment:
    - ns.coll.common
"""
EXAMPLES = "- ns.coll.marked:\\n"
RETURN = ""
'''


def test_a_collection_module_page_is_laid_out_as_ansible_doc_lays_it_out(tmp_path: Path) -> None:
    plugins = tmp_path / "collections" / "ansible_collections" / "ns" / "coll" / "plugins"
    (plugins / "modules").mkdir(parents=True)
    (plugins / "doc_fragments").mkdir()
    (plugins / "modules" / "marked.py").write_text(COLLECTION_MODULE)
    (plugins / "doc_fragments" / "common.py").write_text(FRAGMENT)
    code, out = _doc("--playbook-dir", str(tmp_path), "ns.coll.marked")
    assert code == 0, out
    assert out.startswith(f"> MODULE ns.coll.marked ({plugins / 'modules' / 'marked.py'})\n\n")
    # markup as ansible-doc shows it without colour
    assert "`code', `path=/tmp', `yes', `HOME', [ansible.builtin.copy] and\n  [[ns.coll.other]]." in out
    # the fragment's option joins the module's; a nested option says when it was added, and in which collection
    assert "\n- shared  An option every module of the collection takes.\n" in out
    assert "        suboptions:\n\n        - mode  How.\n          default: null\n          type: str\n" in out
    assert "          added in: version 1.1.0 of ns.coll\n" in out
    assert "NOTES:\n      * From the fragment." in out
    assert out.endswith("EXAMPLES:\n- ns.coll.marked:\n\n")


def test_an_unknown_fragment_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "broken.py").write_text(
        'DOCUMENTATION = """\nmodule: broken\ndescription: x\nextends_documentation_fragment: nope.nope.nope\n"""\n'
        "from ansible.module_utils.basic import AnsibleModule\n")
    code, out = _doc("--playbook-dir", str(tmp_path), "broken")
    assert code != 0 and "unknown doc_fragment(s) in file" in out and "nope.nope.nope" in out
    assert "Traceback" not in out


def test_documentation_that_cannot_be_read_or_shown_names_the_module(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "nodesc.py").write_text(
        'DOCUMENTATION = """\nmodule: nodesc\ndescription: x\noptions:\n  a:\n    type: str\n"""\n'
        "from ansible.module_utils.basic import AnsibleModule\n")
    (tmp_path / "library" / "badret.py").write_text(
        'DOCUMENTATION = """\nmodule: badret\ndescription: x\n"""\nRETURN = """\na:\n  b: c\n   d: e\n"""\n'
        "from ansible.module_utils.basic import AnsibleModule\n")
    code, out = _doc("--playbook-dir", str(tmp_path), "nodesc")
    assert code != 0 and "Unable to retrieve documentation from 'nodesc': All (sub-)options and return values " \
        "must have a 'description' field" in out
    code, out = _doc("--playbook-dir", str(tmp_path), "badret")
    assert code != 0 and "module badret Missing documentation (or could not parse documentation): " in out
    assert "RETURN of" in out and "Traceback" not in out


COLLECTION_FILTERS = """
from ansible_collections.ns.coll.plugins.filter.sub._shared import shout


class FilterModule:
    def filters(self):
        return {"shout": shout, "whisper": str.lower}
"""


def test_list_of_a_type_names_each_plugin_of_the_collections_given(tmp_path: Path) -> None:
    plugins = tmp_path / "collections" / "ansible_collections" / "ns" / "coll" / "plugins"
    (plugins / "filter" / "sub").mkdir(parents=True)
    (plugins / "filter" / "sub" / "__init__.py").write_text("")
    (plugins / "filter" / "sub" / "_shared.py").write_text("def shout(text):\n    return text.upper()\n")
    (plugins / "filter" / "sub" / "words.py").write_text(COLLECTION_FILTERS)
    (plugins / "filter" / "sub" / "shout.yml").write_text(
        "DOCUMENTATION:\n  name: shout\n  short_description: Upper-case C(text).\n")
    (plugins / "modules").mkdir()
    (plugins / "modules" / "stubbed.py").write_text('DOCUMENTATION = """\nmodule: stubbed\ndescription: x\n"""\n')
    code, out = _doc("-l", "-t", "filter", "--playbook-dir", str(tmp_path), "ns.coll")
    assert code == 0, out
    # a filter file lists each filter it defines, named with its folder; the description from the file named after
    # it (its markup shown as ansible-doc shows it, the final period dropped), else UNDOCUMENTED
    assert [line.rstrip() for line in out.splitlines()] == [
        "ns.coll.sub.shout   Upper-case `text'",
        "ns.coll.sub.whisper UNDOCUMENTED",
    ]
    code, out = _doc("-l", "--playbook-dir", str(tmp_path), "ns.coll", "--json")
    assert code == 0 and json.loads(out) == {"ns.coll.stubbed": "UNDOCUMENTED"}
    code, out = _doc("-F", "--playbook-dir", str(tmp_path), "ns.coll")
    assert out.split() == ["ns.coll.stubbed", str(plugins / "modules" / "stubbed.py")]
    code, out = _doc("-l", "ns.coll.stubbed")
    assert code != 0 and "Invalid collection name (must be of the form namespace.collection): ns.coll.stubbed" in out
    code, out = _doc("-l", "bogus.coll")
    assert code != 0 and "unable to locate collection bogus.coll" in out


def test_a_jinja_builtin_without_ansible_documentation_has_a_page_of_its_own() -> None:
    code, out = _doc("-t", "test", "number")
    assert code == 0, out
    assert out.startswith("> TEST ansible.builtin.number (Jinja2)\n\n  Return true if the variable is a number.\n")
    assert "This is the Jinja builtin test plugin 'number'.\n  See:\n  https://jinja.palletsprojects.com/" in out
    code, out = _doc("-l", "-t", "filter", "--json", "ansible.builtin")
    assert code == 0 and json.loads(out)["ansible.builtin.sum"].startswith("Returns the sum of a sequence")


def test_ansible_cores_internal_collection_is_listed_only_when_named() -> None:
    _, everything = _doc("-l", "-t", "filter")
    assert "ansible._protomatter." not in everything
    code, named = _doc("-l", "-t", "filter", "ansible._protomatter")
    assert code == 0 and named and all(line.startswith("ansible._protomatter.") for line in named.splitlines())


def test_keywords_are_documented_with_what_they_apply_to() -> None:
    code, out = _doc("-t", "keyword", "-l")
    assert code == 0 and "vars_prompt: list of variables to prompt for." in out.splitlines()
    code, out = _doc("-t", "keyword", "vars_prompt", "async")
    assert code == 0, out
    assert "vars_prompt:\n  applies_to:\n  - Play\n  description: list of variables to prompt for.\n" in out
    assert "async:\n  alias: async\n  applies_to:\n  - Task\n  - Handler\n" in out  # async_val inside
    code, out = _doc("-t", "keyword", "asldkfjaslidfhals")
    assert code == 0 and "[WARNING]: Skipping invalid keyword 'asldkfjaslidfhals'" in out


def test_json_and_metadata_dump_give_the_documentation_as_read(tmp_path: Path) -> None:
    plugins = tmp_path / "collections" / "ansible_collections" / "ns" / "coll" / "plugins"
    (plugins / "modules").mkdir(parents=True)
    (plugins / "doc_fragments").mkdir()
    (plugins / "modules" / "marked.py").write_text(COLLECTION_MODULE)
    (plugins / "doc_fragments" / "common.py").write_text(FRAGMENT)
    (plugins / "modules" / "nodocs.py").write_text("import json\n")
    code, out = _doc("--json", "--playbook-dir", str(tmp_path), "ns.coll.marked")
    assert code == 0, out
    entry = json.loads(out)["ns.coll.marked"]
    assert entry["examples"] == "- ns.coll.marked:\n" and entry["return"] is None and entry["metadata"] is None
    doc = entry["doc"]
    assert doc["collection"] == "ns.coll" and doc["plugin_name"] == "ns.coll.marked" and doc["has_action"] is False
    assert doc["options"]["path"]["version_added_collection"] == "ns.coll"
    assert doc["options"]["shared"]["version_added_collection"] == "ns.coll"  # the fragment's own collection
    # a module without documentation: its error with --no-fail-on-errors, else the dump fails naming it
    code, out = _doc("--metadata-dump", "--no-fail-on-errors", "--playbook-dir", str(tmp_path), "ns.coll")
    assert code == 0, out
    modules = json.loads(out)["all"]["module"]
    assert sorted(modules) == ["ns.coll.marked", "ns.coll.nodocs"]
    assert modules["ns.coll.nodocs"]["error"].startswith("Missing documentation (or could not parse documentation)")
    code, out = _doc("--metadata-dump", "--playbook-dir", str(tmp_path), "ns.coll")
    assert code != 0 and "module ns.coll.nodocs Missing documentation" in out


ROLE_SPECS = """
argument_specs:
  main:
    short_description: Set the thing up
    version_added: 1.2.0
    description: Sets up B(the thing).
    author: [A (@a), B (@b)]
    options:
      size:
        description: How big.
        type: int
        required: true
    notes: [A note.]
  other:
    short_description: The other way
"""


def test_roles_are_listed_and_documented_from_their_argument_specs(tmp_path: Path) -> None:
    (tmp_path / "roles" / "thing" / "meta").mkdir(parents=True)
    (tmp_path / "roles" / "thing" / "meta" / "argument_specs.yml").write_text(ROLE_SPECS)
    (tmp_path / "roles" / "nospec" / "tasks").mkdir(parents=True)
    (tmp_path / "roles" / "broken" / "meta").mkdir(parents=True)
    (tmp_path / "roles" / "broken" / "meta" / "main.yml").write_text("argument_specs:\n  main:\n    a: b\n   c: d\n")
    code, out = _doc("-t", "role", "-l", "--playbook-dir", str(tmp_path))
    assert code == 0, out
    # a role without a spec file is not listed; one whose spec cannot be read is skipped with a warning
    assert "thing:\n  specs:\n    main : Set the thing up\n    other: The other way" in out and "nospec" not in out
    assert "[WARNING]: Skipping role (broken) due to: Failed to process role (broken)" in out
    code, out = _doc("-t", "role", "--playbook-dir", str(tmp_path), "thing", "-e", "main")
    assert code == 0, out
    assert out.startswith(f"> ROLE: *thing* ({tmp_path / 'roles' / 'thing'})\n\n")
    assert "\nENTRY POINT: *main* - Set the thing up\n" in out
    assert "ADDED IN: version 1.2.0\n\n          Sets up *the thing*.\n" in out
    assert "Options (= indicates it is required):\n\n= size      How big.\n          type: int\n" in out
    assert "NOTES:\n        * A note.\n\nAUTHOR: A (@a), B (@b)" in out and "ENTRY POINT: *other*" not in out
    code, out = _doc("-t", "role", "--playbook-dir", str(tmp_path), "broken")
    assert code != 0 and "Failed to process role (broken)" in out and "Traceback" not in out


def test_return_values_are_extended_by_fragments_as_ansible_core_2_21_does(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "withret.py").write_text(
        'DOCUMENTATION = """\nmodule: withret\ndescription: x\n"""\n'
        'RETURN = """\nz_last:\n  example: merged\nextends_documentation_fragment: [ns.coll.rets]\n"""\n'
        "from ansible.module_utils.basic import AnsibleModule\n")
    fragments = tmp_path / "collections" / "ansible_collections" / "ns" / "coll" / "plugins" / "doc_fragments"
    fragments.mkdir(parents=True)
    (fragments / "rets.py").write_text(
        'class ModuleDocFragment:\n    RETURN = """\nz_last:\n  description: From the fragment.\n  type: str\n"""\n')
    code, out = _doc("--playbook-dir", str(tmp_path), "withret")
    assert code == 0, out
    assert "RETURN VALUES:\n\n- z_last  From the fragment.\n        example: merged\n        type: str" in out


def test_a_plugin_named_with_a_leading_underscore_is_found_by_its_name_with_a_deprecation(tmp_path: Path) -> None:
    (tmp_path / "lookup_plugins").mkdir()
    (tmp_path / "lookup_plugins" / "_old.py").write_text(
        'DOCUMENTATION = """\nname: old\nshort_description: x\ndescription: An old lookup.\n"""\n')
    (tmp_path / "lookup_plugins" / "_older.py").write_text("from ansible.plugins.lookup import LookupBase\n")
    (tmp_path / "lookup_plugins" / "older.yml").write_text("DOCUMENTATION:\n  name: older\n  description: Older.\n")
    code, out = _doc("-t", "lookup", "--playbook-dir", str(tmp_path), "old", "older")
    assert code == 0, out
    assert "[DEPRECATION WARNING]: Plugin 'old' automatically redirected to '_old'." in out
    assert f"> LOOKUP _old ({tmp_path / 'lookup_plugins' / '_old.py'})\n\n  An old lookup.\n" in out
    # code without documentation is documented by the YAML file of the plugin's name beside it
    assert f"> LOOKUP _older ({tmp_path / 'lookup_plugins' / 'older.yml'})\n\n  Older.\n" in out
