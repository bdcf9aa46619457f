"""Roles: Ansible's layout (main files, main/ directories, *_from files), meta, argument specs and role search."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import NotFoundError, ParseError, SourcePosition
from runner.loader.role import find_role, load_role
from runner.models import Block, ParseErrors, Task

MODULES = {"apt", "command", "copy", "debug", "service", "template"}


def is_module(name: str) -> bool:
    return name in MODULES


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def web(tmp_path: Path) -> Path:
    return write(tmp_path / "roles" / "web", {
        "tasks/main.yml": "- apt: name=nginx\n- import_tasks: config.yml\n",
        "tasks/config.yaml": "- block:\n    - template: src=site.j2 dest=/etc/nginx/site\n  notify: reload\n",
        "handlers/main.yml": "- name: reload\n  service: name=nginx state=reloaded\n  listen: web config\n",
        "defaults/main/10-base.yml": "port: 80\nworkers: 1\n",
        "defaults/main/20-tuning.yaml": "workers: 4\n",
        "defaults/main/.hidden.yml": "ignored: true\n",
        "vars/main.json": '{"package": "nginx"}',
        "vars/debian.yml": "package: nginx-full\n",
        "meta/main.yml": (
            "galaxy_info: {author: ops, license: MIT}\n"
            "allow_duplicates: yes\n"
            "dependencies:\n"
            "  - common\n"
            "  - role: firewall\n"
            "    open_port: 80\n"
            "    when: firewall_enabled\n"
            "argument_specs:\n"
            "  main: {options: {ignored_when_argument_specs_yml_exists: {type: str}}}\n"
            "taskserv:\n"
            "  provides: web\n"
        ),
        "meta/argument_specs.yml": (
            "argument_specs:\n"
            "  main:\n"
            "    short_description: The web server\n"
            "    options:\n"
            "      port: {type: int, default: 80, description: Port to listen on}\n"
            "      sites:\n"
            "        type: list\n"
            "        elements: dict\n"
            "        required: true\n"
            "        options:\n"
            "          name: {type: str, required: true}\n"
            "          tls: {type: bool, default: no}\n"
            "    mutually_exclusive: [[port, sites]]\n"
        ),
        "files/index.html": "<h1>hi</h1>\n",
        "templates/site.j2": "listen {{ port }};\n",
    })


def test_a_role_is_read_from_its_main_files(web: Path) -> None:
    role = load_role(web, is_module)
    assert (role.name, role.path) == ("web", web)
    first, imported = role.tasks
    assert isinstance(first, Task) and (first.module, first.module_args) == ("apt", "name=nginx")
    assert imported.module == "import_tasks"
    (handler,) = role.handlers
    assert (handler.name, handler.listen) == ("reload", ["web config"])
    assert role.vars == {"package": "nginx"}  # main.json: .yml, .yaml, .json are all read
    assert role.files_dir == web / "files" and role.templates_dir == web / "templates"


def test_a_main_directory_is_merged_in_name_order_without_hidden_files(web: Path) -> None:
    assert load_role(web, is_module).defaults == {"port": 80, "workers": 4}


def test_meta_dependencies_and_the_taskserv_section(web: Path) -> None:
    meta = load_role(web, is_module).meta
    assert meta.allow_duplicates is True
    assert meta.galaxy_info == {"author": "ops", "license": "MIT"}
    common, firewall = meta.dependencies
    assert (common.role, common.position) == ("common", SourcePosition(str(web / "meta/main.yml"), 4, 5))
    assert (firewall.role, firewall.params, firewall.when) == ("firewall", {"open_port": 80}, ["firewall_enabled"])
    assert meta.taskserv is not None and meta.taskserv.provides == ["web"]


def test_argument_specs_yml_wins_over_meta_main(web: Path) -> None:
    specs = load_role(web, is_module).argument_specs
    main = specs["main"]
    assert main.short_description == "The web server"
    assert set(main.options) == {"port", "sites"}
    port, sites = main.options["port"], main.options["sites"]
    assert (port.type, port.default, port.required, port.description) == ("int", 80, False, ["Port to listen on"])
    assert (sites.type, sites.elements, sites.required) == ("list", "dict", True)
    assert sites.options is not None and sites.options["tls"].default is False
    assert main.mutually_exclusive == [["port", "sites"]]


def test_argument_specs_from_meta_main_when_there_is_no_argument_specs_file(web: Path) -> None:
    (web / "meta" / "argument_specs.yml").unlink()
    assert list(load_role(web, is_module).argument_specs["main"].options) == ["ignored_when_argument_specs_yml_exists"]


def test_argument_specs_keys_ansible_core_ignores_are_ignored(web: Path) -> None:
    # ansible-core reads the keys it knows of an entry point and an option and ignores the rest
    (web / "meta" / "argument_specs.yml").write_text(
        "argument_specs:\n"
        "  main:\n"
        "    authors_note: kept out of the spec\n"
        "    options:\n"
        "      port: {type: int, required: true, removed_in: 2.10, deprecated_aliases: []}\n")
    port = load_role(web, is_module).argument_specs["main"].options["port"]
    assert (port.type, port.required) == ("int", True)


def test_other_files_by_name_for_include_role(web: Path) -> None:
    role = load_role(web, is_module, tasks_from="config", vars_from="debian.yml")
    (block,) = role.tasks
    assert isinstance(block, Block) and block.notify == ["reload"]
    assert role.vars == {"package": "nginx-full"}


def test_a_named_file_that_does_not_exist_is_an_error(web: Path) -> None:
    with pytest.raises(ParseError, match=r"could not find tasks/missing in role 'web' \(looked for missing with no "
                                         r"extension and with \.yml, \.yaml, \.json\)"):
        load_role(web, is_module, tasks_from="missing")


def test_a_named_file_outside_the_role_is_refused(web: Path) -> None:
    write(web.parent, {"secrets.yml": "- debug: msg=x\n"})
    with pytest.raises(ParseError, match=r"'\.\./\.\./secrets\.yml' is outside the role's tasks/ directory"):
        load_role(web, is_module, tasks_from="../../secrets.yml")


def test_a_role_without_files_is_empty(tmp_path: Path) -> None:
    role = load_role(write(tmp_path / "empty", {"README.md": "nothing\n"}), is_module)
    assert (role.tasks, role.handlers, role.defaults, role.vars, role.argument_specs) == ([], [], {}, {}, {})
    assert role.meta.dependencies == []


def test_every_problem_in_a_role_is_reported_together(tmp_path: Path) -> None:
    role_dir = write(tmp_path / "broken", {
        "tasks/main.yml": "- debug: msg=x\n  becom: true\n",
        "handlers/main.yml": "- name: h\n  service: name=x\n  listen: [a\n",
        "defaults/main.yml": "- not\n- a mapping\n",
        "meta/argument_specs.yml": "argument_specs:\n  main:\n    options:\n      port: {type: integer}\n",
    })
    with pytest.raises(ParseErrors) as caught:
        load_role(role_dir, is_module)
    found = [(Path(e.position.path).relative_to(role_dir).as_posix(), e.position.line, e.position.column, e.message)
             for e in caught.value.errors]
    assert found == [
        ("defaults/main.yml", 1, 1, "expected a mapping of variables, got a list"),
        ("handlers/main.yml", 4, 1, "YAML parsing failed: Did not find expected ',' or ']'"),
        ("meta/argument_specs.yml", 4, 20, "expected 'str', 'list', 'dict', 'bool', 'int', 'float', 'path', 'raw', "
                                           "'jsonarg', 'json', 'bytes' or 'bits', got 'integer'"),
        ("tasks/main.yml", 2, 3, "'becom' is not a valid task keyword"),
    ]


def test_find_role_searches_as_ansible_does(tmp_path: Path) -> None:
    playbook_dir = tmp_path / "project"
    shared = tmp_path / "shared"
    write(shared, {"common/tasks/main.yml": "", "web/tasks/main.yml": ""})
    write(playbook_dir, {"roles/web/tasks/main.yml": "", "local/tasks/main.yml": ""})
    write(tmp_path / "deps", {"dep/tasks/main.yml": ""})
    assert find_role("web", [shared], playbook_dir) == (playbook_dir / "roles" / "web").resolve()  # roles/ first
    assert find_role("common", [shared], playbook_dir) == (shared / "common").resolve()  # then roles_path
    assert find_role("dep", [shared], playbook_dir, role_basedir=tmp_path / "deps") == (tmp_path / "deps/dep").resolve()
    assert find_role("local", [shared], playbook_dir) == (playbook_dir / "local").resolve()  # the playbook's dir
    assert find_role(str(shared / "web"), [], playbook_dir) == (shared / "web").resolve()  # a path


def test_a_missing_role_names_every_configured_place_present_or_not(tmp_path: Path) -> None:
    # ansible-core's message: the playbook's roles/, each roles_path entry as configured, then the playbook's dir
    absent = tmp_path / "nowhere" / "roles"
    with pytest.raises(NotFoundError) as caught:
        find_role("gone", [absent], tmp_path)
    assert caught.value.message == f"The role 'gone' was not found in: {tmp_path / 'roles'}:{absent}:{tmp_path}"
