"""provisioning-doc: a module's page, the list, snippets, modules from a library directory, and clear errors."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from runner.cli.doc import main


def _doc(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_module_page_shows_options_examples_and_return_values() -> None:
    code, out = _doc("get_url")
    assert code == 0, out
    assert out.startswith("> GET_URL    (") and "Downloads files from HTTP, HTTPS, or FTP to node" in out
    assert "\n= url\n" in out and "\n= dest\n" in out and "\n- force\n" in out  # '=' marks required ones
    assert "aliases: [thirsty]" in out and "default: false" in out and "type: bool" in out
    assert "type: list (of str)" in out and "default: ''" in out
    assert "EXAMPLES:\n\n- name: Download a release, once" in out
    assert "RETURN VALUES:" in out and "\n- checksum_src\n" in out


def test_page_says_where_a_module_runs_and_how_it_reads_free_form() -> None:
    _, debug = _doc("debug")
    assert "Runs on the controller." in debug and "choices" not in debug
    _, meta = _doc("meta")
    assert "choices: [flush_handlers, end_play" in meta and "Takes free-form text" in meta
    _, prefixed = _doc("ansible.builtin.ping")
    assert prefixed.startswith("> PING")


def test_list_names_every_module_with_its_short_description() -> None:
    code, out = _doc("--list")
    assert code == 0
    lines = out.splitlines()
    names = [line.split()[0] for line in lines]
    assert names == sorted(names) and {"copy", "uri", "wait_for", "debug"} <= set(names)
    assert any(line.startswith("uri ") and line.endswith("Interacts with webservices") for line in lines)


def test_snippet_puts_required_options_first() -> None:
    code, out = _doc("-s", "get_url")
    lines = out.splitlines()
    assert code == 0 and lines[:2] == ["- name: Downloads files from HTTP, HTTPS, or FTP to node", "  get_url:"]
    assert lines[2].startswith("    dest:") and lines[2].endswith("(required)")
    assert lines[3].startswith("    url:") and lines[4].startswith("    attributes:")  # then the others by name


def test_language_actions_have_pages_and_are_listed() -> None:
    _, listed = _doc("--list")
    assert {"include_tasks", "import_tasks", "include_role", "import_role", "import_playbook"} <= {
        line.split()[0] for line in listed.splitlines()}
    code, page = _doc("ansible.builtin.include_role")
    assert code == 0 and page.startswith("> INCLUDE_ROLE") and "no module runs on the host" in page
    assert "= name\n" in page and "- tasks_from\n" in page and "EXAMPLES:" in page


def test_module_path_adds_a_library(tmp_path: Path) -> None:
    (tmp_path / "hello.py").write_text(
        'DOCUMENTATION = {"short_description": "Say hello", "options": {"who": {"description": "Whom.", '
        '"type": "str", "required": True}}}\nEXAMPLES = "- hello:\\n    who: world\\n"\nRETURN = {}\n'
        'ARGUMENT_SPEC = {"who": {"type": "str", "required": True}}\n')
    code, out = _doc("-M", str(tmp_path), "hello")
    assert code == 0 and "> HELLO" in out and "= who" in out and "Say hello" in out


def test_errors_are_one_clear_line() -> None:
    code, out = _doc("get_ulr")
    assert code == 1 and "couldn't resolve module/action 'get_ulr' (did you mean 'get_url'?)" in out
    assert "Traceback" not in out
    code, out = _doc()
    assert code == 5 and "name a MODULE" in out
    code, out = _doc("--list", "copy")
    assert code == 5 and "--list takes no MODULE" in out


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
    assert "> WILLGO" in out and "a module documented as Ansible documents them" in out
    # ansible-doc's section and words, a tab before each line
    assert "DEPRECATED: \n\tReason: it does nothing\n\tWill be removed in: Ansible 3.30\n\tAlternatives: ping" in out
    assert "- old\n        an option on its way out\n        type: str\n        deprecated:\n" in out
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
    assert code == 5 and "cache plugin 'nothing_here' not found" in out and "Traceback" not in out


def test_a_filter_is_documented_from_the_yaml_file_of_its_name(tmp_path: Path) -> None:
    (tmp_path / "filter_plugins").mkdir()
    (tmp_path / "filter_plugins" / "shout.yml").write_text(
        "DOCUMENTATION:\n  name: shout\n  short_description: Upper-case a string\n  options:\n"
        "    _input:\n      description: The text.\n      type: string\n      required: true\n"
        "EXAMPLES: |\n  x: \"{{ 'a' | shout }}\"\nRETURN:\n  _value:\n    description: The text, upper-cased.\n")
    code, out = _doc("-t", "filter", "shout", "--playbook-dir", str(tmp_path))
    assert code == 0, out
    assert "> SHOUT" in out and "Upper-case a string" in out and "= _input" in out
    assert "EXAMPLES:\n\nx: \"{{ 'a' | shout }}\"" in out and "- _value\n        The text, upper-cased." in out
