"""Lookups in templates (lookup/query/q) and as loop sources (run_lookup), against real files under tmp_path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import runner.executor.run_lookups  # noqa: F401  (registers inventory_hostnames and config)
from runner.templating import Templar, TemplateError, is_unsafe, run_lookup


@pytest.fixture(scope="module")
def templar() -> Templar:
    return Templar()


@pytest.fixture
def role(tmp_path: Path) -> Path:
    """A role folder and a playbook folder, each with files/ and templates/."""
    role = tmp_path / "roles" / "web"
    for folder in (role / "files", role / "templates", tmp_path / "files"):
        folder.mkdir(parents=True)
    (role / "files" / "motd").write_text("  welcome {{ not_rendered }}\n\n")
    (role / "files" / "a.conf").write_text("a")
    (role / "files" / "b.conf").write_text("b")
    (role / "files" / "sub").mkdir()
    (role / "templates" / "site.j2").write_text("server {{ name }}:{{ port }}\n")
    (tmp_path / "files" / "only-in-playbook.txt").write_text("pb")
    (tmp_path / "local.txt").write_text("beside the playbook")
    return role


def look(templar: Templar, expression: str, role: Path, **variables: Any) -> Any:
    paths = [role, role.parent.parent]
    return templar.template("{{ " + expression + " }}", variables, search_paths=paths)


def test_file_reads_from_files_folder_strips_trailing_space_and_is_never_rendered(templar: Templar,
                                                                                  role: Path) -> None:
    content = look(templar, "lookup('file', 'motd')", role)
    assert content == "  welcome {{ not_rendered }}"
    assert is_unsafe(content)
    assert look(templar, "lookup('file', 'motd', lstrip=true, rstrip=false)", role) == "welcome {{ not_rendered }}\n\n"
    assert look(templar, "lookup('file', 'only-in-playbook.txt')", role) == "pb"
    assert look(templar, "lookup('file', 'local.txt')", role) == "beside the playbook"


def test_several_results_are_joined_with_commas_unless_wantlist(templar: Templar, role: Path) -> None:
    assert look(templar, "lookup('file', 'a.conf', 'b.conf')", role) == "a,b"
    assert look(templar, "lookup('file', 'a.conf', 'b.conf', wantlist=true)", role) == ["a", "b"]
    assert look(templar, "query('file', 'a.conf')", role) == ["a"]
    assert look(templar, "q('file', 'b.conf')", role) == ["b"]


def test_missing_file_is_an_error_naming_it_and_the_search_paths(templar: Templar, role: Path) -> None:
    with pytest.raises(TemplateError, match=r"could not find 'nope.txt'.*roles/web"):
        look(templar, "lookup('file', 'nope.txt')", role)
    assert look(templar, "lookup('file', 'nope.txt', errors='ignore')", role) is None
    assert look(templar, "query('file', 'nope.txt', errors='ignore')", role) == []
    assert look(templar, "lookup('fileglob', 'nothing-matches-*')", role) == []


def test_template_renders_with_current_and_extra_variables(templar: Templar, role: Path) -> None:
    assert look(templar, "lookup('template', 'site.j2')", role, name="web1", port=80) == "server web1:80\n"
    assert look(templar, "lookup('template', 'site.j2', template_vars={'port': 8080})", role,
                name="web1", port=80) == "server web1:8080\n"


def test_template_with_other_delimiters(templar: Templar, role: Path) -> None:
    (role / "templates" / "alt.j2").write_text("[[ name ]] {{ literal }}")
    result = look(templar, "lookup('template', 'alt.j2', variable_start_string='[[', variable_end_string=']]')",
                  role, name="x")
    assert result == "x {{ literal }}"


def test_template_trims_blocks_unless_told_not_to(templar: Templar, role: Path) -> None:
    (role / "templates" / "blocks.j2").write_text("{% if true %}\nyes\n{% endif %}\n")
    assert look(templar, "lookup('template', 'blocks.j2')", role) == "yes\n"
    assert look(templar, "lookup('template', 'blocks.j2', trim_blocks=False)", role) == "\nyes\n"


def test_env_reads_the_controller_environment(templar: Templar, role: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVISIONING_TEST_VALUE", "42")
    assert look(templar, "lookup('env', 'PROVISIONING_TEST_VALUE')", role) == "42"
    assert look(templar, "lookup('env', 'PROVISIONING_UNSET_VALUE')", role) == ""
    assert look(templar, "lookup('env', 'PROVISIONING_UNSET_VALUE', default='d')", role) == "d"


def test_env_says_where_its_value_came_from_and_names_a_variable_not_set(templar: Templar, role: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVISIONING_TEST_VALUE", "42")
    monkeypatch.delenv("PROVISIONING_UNSET_VALUE", raising=False)
    origin = "lookup('env', 'PROVISIONING_TEST_VALUE') | ansible._protomatter.origin"
    assert look(templar, origin, role) == "<environment variable 'PROVISIONING_TEST_VALUE'>"
    with pytest.raises(TemplateError, match="The environment variable 'PROVISIONING_UNSET_VALUE' is not set"):
        look(templar, "lookup('env', 'PROVISIONING_UNSET_VALUE', default=undef())", role)
    with pytest.raises(TemplateError, match="custom"):  # an undef with a hint of its own keeps it
        look(templar, "lookup('env', 'PROVISIONING_UNSET_VALUE', default=undef('custom'))", role)
    unset = "lookup('env', 'PROVISIONING_UNSET_VALUE', default=undef()) is undefined"
    assert look(templar, unset, role) is True


def test_pipe_and_lines_run_commands_on_the_controller(templar: Templar, role: Path) -> None:
    assert look(templar, "lookup('pipe', 'printf \"one\\ntwo\\n\"')", role) == "one\ntwo"
    assert look(templar, "query('lines', 'printf \"one\\ntwo\\n\"')", role) == ["one", "two"]
    assert look(templar, "lookup('pipe', 'pwd')", role, playbook_dir=str(role)) == str(role)
    with pytest.raises(TemplateError, match="exited with 3"):
        look(templar, "lookup('pipe', 'exit 3')", role)


def test_vars_renders_a_variable_by_name(templar: Templar, role: Path) -> None:
    assert look(templar, "lookup('vars', 'url')", role, url="http://{{ host }}", host="h") == "http://h"
    assert look(templar, "lookup('vars', 'x', default=0)", role) == 0
    with pytest.raises(TemplateError, match="No variable named 'x' was found"):
        look(templar, "lookup('vars', 'x')", role)
    with pytest.raises(TemplateError, match="Variable name must be 'str' not 'int'"):
        look(templar, "lookup('vars', 42)", role)


def test_items_list_dict_and_indexed_items(templar: Templar, role: Path) -> None:
    assert look(templar, "query('items', [1, [2, 3]], 4)", role) == [1, [2, 3], 4]
    assert look(templar, "query('items', [[1, 2], 3])", role) == [[1, 2], 3]
    assert look(templar, "query('list', [1, 2])", role) == [[1, 2]]
    assert look(templar, "query('dict', {'a': 1})", role) == [{"key": "a", "value": 1}]
    assert look(templar, "query('indexed_items', ['a', 'b'])", role) == [[0, "a"], [1, "b"]]
    with pytest.raises(TemplateError, match="the 'dict' lookup plugin expects a dictionary, got '1' of type int"):
        look(templar, "query('dict', 1)", role)


def test_first_found_returns_the_first_existing_file(templar: Templar, role: Path) -> None:
    found = look(templar, "lookup('first_found', ['missing.conf', 'b.conf', 'a.conf'])", role)
    assert found == str(role / "files" / "b.conf")
    found = look(templar, "lookup('first_found', {'files': ['x', 'a.conf'], 'paths': [files]})", role,
                 files=str(role / "files"))
    assert found == str(role / "files" / "a.conf")
    assert look(templar, "query('first_found', ['nothing'], skip=true)", role) == []
    with pytest.raises(TemplateError, match="No file was found when using first_found: none of nothing, nada"):
        look(templar, "lookup('first_found', ['nothing', 'nada'])", role)
    with pytest.raises(TemplateError, match="A string, dict or list is required, not 'int'"):
        look(templar, "lookup('first_found', [1])", role)
    with pytest.raises(TemplateError, match="A string, dict or list is required, not 'int'"):
        look(templar, "lookup('first_found', 1)", role)
    # a name that needs what is not known yet (a host's variable, when compiling) is undefined, not a bad term
    with pytest.raises(TemplateError, match="'foo' is undefined") as raised:
        look(templar, "lookup('first_found', names)", role, names=["vars/{{ foo }}.yml", "defaults.yml"])
    assert raised.value.undefined_name == "foo"


def test_fileglob_returns_matching_files_only(templar: Templar, role: Path) -> None:
    assert look(templar, "query('fileglob', '*.conf')", role) == [str(role / "files" / "a.conf"),
                                                                    str(role / "files" / "b.conf")]
    assert look(templar, "query('fileglob', files + '/*')", role, files=str(role / "files")) == [
        str(role / "files" / name) for name in ("a.conf", "b.conf", "motd")]
    assert look(templar, "query('fileglob', '*.none')", role) == []


@pytest.mark.parametrize(
    ("terms", "options", "expected"),
    [
        ("start=1 end=5", {}, ["1", "2", "3", "4", "5"]),
        ("start=0 end=10 stride=5", {}, ["0", "5", "10"]),
        ("count=3 format=node%02d", {}, ["node01", "node02", "node03"]),
        ("start=5 end=1 stride=-2", {}, ["5", "3", "1"]),
        ("4", {}, ["1", "2", "3", "4"]),
        ("2-8/3:web%d", {}, ["web2", "web5", "web8"]),
        ("0x0a-0x0c:%x", {}, ["a", "b", "c"]),
        ("count=0", {}, []),
        # Ansible's quirk: a count with a negative stride runs past the count (playbooks rely on it)
        ("count=5 start=0", {"stride": -1}, ["0", "-1", "-2", "-3", "-4", "-5", "-6"]),
        ("count=3 start=10 stride=-2", {}, ["10", "8", "6", "4"]),
        ([], {"start": 1, "end": 2}, ["1", "2"]),
        ([], {}, []),
    ],
)
def test_sequence(terms: Any, options: dict[str, Any], expected: list[str]) -> None:
    assert run_lookup("sequence", terms, {}, **options) == expected


@pytest.mark.parametrize(
    ("terms", "message"),
    [
        # Ansible's messages, which playbooks match on
        ("start=1", "must specify count or end in with_sequence"),
        ("start=1 end=3 count=2", "can't specify both count and end in with_sequence"),
        ("start=5 end=1", "to count backwards make stride negative"),
        ("start=1 end=4 stride=-2", "to count forward don't make stride negative"),
        ("end=3 format=%d%d", "bad formatting string: %d%d"),
        ("end=3 bogus=1", r"unrecognized arguments to with_sequence: \['bogus'\]"),
        ("end=x", "end='x' has an invalid value"),
    ],
)
def test_sequence_errors(terms: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        run_lookup("sequence", terms, {})


@pytest.mark.parametrize(("name", "message"), [("together", "with_together requires at least one element"),
                                                ("nested", "with_nested requires at least one element")])
def test_together_and_nested_need_lists(name: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        run_lookup(name, [], {})


def test_loop_sources_for_with_keywords() -> None:
    assert run_lookup("items", [[1, 2], 3], {}) == [1, 2, 3]
    assert run_lookup("list", [[1, 2], 3], {}) == [[1, 2], 3]
    assert run_lookup("dict", {"a": 1, "b": 2}, {}) == [{"key": "a", "value": 1}, {"key": "b", "value": 2}]
    assert run_lookup("together", [[1, 2], ["a"]], {}) == [[1, "a"], [2, None]]
    assert run_lookup("nested", [[1, 2], ["a"]], {}) == [[1, "a"], [2, "a"]]
    users = [{"name": "ann", "keys": ["k1", "k2"]}, {"name": "bob"}]
    assert run_lookup("subelements", [users, "keys", {"skip_missing": True}], {}) == [
        [users[0], "k1"], [users[0], "k2"]]
    assert run_lookup("indexed_items", ["a", "b"], {}) == [[0, "a"], [1, "b"]]


def test_run_lookup_resolves_files_in_the_subdir_the_task_needs(role: Path) -> None:
    (role / "vars").mkdir()
    (role / "vars" / "Debian.yml").write_text("x: 1")
    found = run_lookup("first_found", ["RedHat.yml", "Debian.yml"], {}, [role], subdir="vars")
    assert found == [str(role / "vars" / "Debian.yml")]
    assert run_lookup("first_found", ["RedHat.yml"], {}, [role], subdir="vars", skip=True) == []


def test_lookup_results_are_marked_unsafe() -> None:
    results = run_lookup("items", ["{{ 1 + 1 }}"], {})
    assert results == ["{{ 1 + 1 }}"]
    assert is_unsafe(results[0])


def test_an_unknown_lookup_is_an_error() -> None:
    with pytest.raises(TemplateError, match="The lookup plugin 'fiel' was not found") as caught:
        run_lookup("fiel", ["x"], {})
    assert caught.value.hint == "did you mean 'file'?"
    assert run_lookup("ansible.builtin.list", [1], {}) == [1]


def test_an_unknown_option_is_ignored_with_a_warning_as_ansible_ignores_it(caplog: pytest.LogCaptureFixture) -> None:
    assert run_lookup("vars", [], {"name": "x"}, name="test") == []
    assert run_lookup("vars", ["who"], {"who": "me"}, defualt="x") == ["me"]
    warnings = [record.getMessage() for record in caplog.records]
    assert "[WARNING]: lookup 'vars' has no option 'name'; it is ignored" in warnings
    assert "[WARNING]: lookup 'vars' has no option 'defualt'; it is ignored (did you mean 'default'?)" in warnings


def test_varnames_finds_variables_by_regular_expression(templar: Templar, role: Path) -> None:
    names = {"qz_1": "hello", "qz_2": "world", "qa_1": "no", "qz_": "no"}
    assert sorted(look(templar, "lookup('varnames', '^qz_.+', wantlist=True)", role, **names)) == ["qz_1", "qz_2"]
    found = look(templar, "query('varnames', '^qz_.+', '^qa.*')", role, **names)
    assert sorted(found) == ["qa_1", "qz_1", "qz_2"]
    assert look(templar, "query('varnames', '^nothing')", role, **names) == []


@pytest.mark.parametrize(("term", "message"), [("True", "Invalid setting identifier"),
                                                ("'*'", "Unable to use '\\*' as a search parameter")])
def test_varnames_rejects_what_is_not_a_pattern(templar: Templar, role: Path, term: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        look(templar, f"lookup('varnames', {term})", role)


def test_random_choice_picks_one_of_its_terms(templar: Templar, role: Path) -> None:
    assert look(templar, "lookup('random_choice', 'foo', 'bar')", role) in ("foo", "bar")
    assert run_lookup("random_choice", ["only"], {}) == ["only"]
    assert run_lookup("random_choice", [], {}) == []


def test_config_reads_settings_by_our_name_or_ansibles(templar: Templar, role: Path,
                                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no provisioning.cfg here: defaults and the environment only
    monkeypatch.delenv("ANSIBLE_CONFIG", raising=False)
    monkeypatch.delenv("PROVISIONING_CONFIG", raising=False)
    monkeypatch.setenv("ANSIBLE_FORKS", "7")
    assert look(templar, "lookup('config', 'forks')", role) == 7
    assert look(templar, "lookup('config', 'DEFAULT_FORKS')", role) == 7
    assert look(templar, "query('config', 'forks', show_origin=True)", role) == [[7, "env: ANSIBLE_FORKS"]]
    assert look(templar, "query('config', 'NO_SUCH_SETTING', on_missing='skip')", role) == []


@pytest.mark.parametrize(("expression", "message"), [
    ("lookup('config', 'NO_SUCH_SETTING')", "No config definition exists for 'NO_SUCH_SETTING'"),
    ("lookup('config', 'forks', on_missing='boo')", "Invalid value 'boo'"),
    ("lookup('config', 1337)", "Invalid setting identifier"),
    ("lookup('config', 'remote_tmp', plugin_type='shell')", "Both plugin_type and plugin_name"),
])
def test_config_errors_say_what_is_wrong(templar: Templar, role: Path, expression: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        look(templar, expression, role)


@pytest.mark.usefixtures("ansible_core")
def test_config_gives_plugin_settings_and_ansible_cores_own_through_ansible_core(templar: Templar, role: Path) -> None:
    ssh = "q('config', 'remote_user', 'port', plugin_type='connection', plugin_name='ssh'{})"
    variables = {"ansible_ssh_user": "lola", "ansible_ssh_port": 2022}
    assert look(templar, ssh.format(""), role, **variables) == ["lola", 2022]
    assert look(templar, ssh.format(", show_origin=True"), role, **variables) == [
        ["lola", "var: ansible_ssh_user"], [2022, "var: ansible_ssh_port"]]
    assert look(templar, "q('config', 'remote_tmp', plugin_type='shell', plugin_name='sh')", role,
                ansible_remote_tmp="/var/tmp/x") == ["/var/tmp/x"]
    assert "meow" in look(templar, "lookup('config', 'ANSIBLE_COW_ACCEPTLIST')", role)  # only ansible-core has it
    with pytest.raises(TemplateError, match="Unable to load lookup"):
        look(templar, "q('config', 'x', plugin_type='lookup', plugin_name='some.nonexistent.lookup')", role)


def test_a_lookup_option_may_be_called_name(templar: Templar, role: Path) -> None:
    # reaches the lookup, not lookup()'s own first parameter; vars has no such option and ignores it
    assert look(templar, "lookup('vars', name='test')", role) == []


GROUPS = {"all": ["test01", "test02", "test03", "test04", "nogroup01"], "ungrouped": ["nogroup01"],
          "group01": ["test01", "test02", "test03", "test04"], "group02": ["test03", "test04"]}


@pytest.mark.parametrize(("pattern", "expected"), [
    ("group01", ["test01", "test02", "test03", "test04"]),
    ("group01:!test03", ["test01", "test02", "test04"]),
    ("group01:&group02", ["test03", "test04"]),
    ("nogroup01", ["nogroup01"]),
    ("doesnotexist", []),
    ("t?s?03", ["test03"]),
])
def test_inventory_hostnames_selects_as_a_play_pattern_does(templar: Templar, role: Path, pattern: str,
                                                            expected: list[str]) -> None:
    found = look(templar, f"query('inventory_hostnames', '{pattern}')", role, groups=GROUPS)
    assert found == expected
    assert len(look(templar, "query('inventory_hostnames', 'all')", role, groups=GROUPS)) == 5


@pytest.mark.parametrize(("terms", "message"), [
    ([[{"k": [1]}]], "expects a list of two or three items"),
    (["text", "k"], "first a dict or a list, second a string"),
    ([[{"k": [1]}], 3], "second a string pointing to the subkey"),
    ([[{"k": [1]}], "k", {"bogus": 1}], "the optional third item must be a dict"),
    ([[{"k": 1}], "k"], "the key k should point to a list"),
    ([[{"k": 1}], "k.j"], "the key k should point to a dictionary"),
    ([[{"k": [1]}], "monkey"], "could not find 'monkey' key in iterated item"),
])
def test_subelements_errors_say_what_ansibles_do(terms: list[Any], message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        run_lookup("subelements", terms, {})


def test_subelements_skips_skipped_results() -> None:
    assert run_lookup("subelements", [{"skipped": True, "results": []}, "k"], {}) == []
    items = [{"skipped": True}, {"name": "a", "k": [1]}]
    assert run_lookup("subelements", [items, "k"], {}) == [[items[1], 1]]


def test_terms_rendered_omitting_undefined_leave_out_each_undefined_item_at_any_depth(templar: Templar) -> None:
    variables = {"files": ["{{ missing }}a", "b"], "defined": "c"}
    rendered = templar.template_omitting_undefined(
        ["{{ missing }}x", "{{ defined }}", {"files": "{{ files }}", "paths": "{{ missing }}"},
         '{{ [{"files": missing}] | zip([{"files": ["z"]}]) }}'], variables)
    assert rendered == ["c", {"files": ["b"]}, [[{}, {"files": ["z"]}]]]
    with pytest.raises(TemplateError, match="'missing' is undefined"):
        templar.template_omitting_undefined("{{ missing }}", variables)  # undefined as a whole still fails
    with pytest.raises(TemplateError, match="'missing' is undefined"):
        templar.template(["{{ missing }}x", "b"], variables)  # other renders fail as before
    with pytest.raises(TemplateError, match="division by zero"):
        templar.template_omitting_undefined(["{{ 1 / 0 }}", "b"], variables)  # only undefined is left out


def test_only_first_found_loops_leave_out_undefined_terms() -> None:
    from runner.templating.lookups import loop_takes_undefined_terms

    assert loop_takes_undefined_terms("first_found") and loop_takes_undefined_terms("ansible.builtin.first_found")
    assert not loop_takes_undefined_terms("items") and not loop_takes_undefined_terms("file")
