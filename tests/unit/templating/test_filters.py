"""Every filter the templating ships, by Ansible's name, with Ansible's results."""

from __future__ import annotations

import datetime
import os
import re
from typing import Any

import pytest

from runner.secrets.encrypted import VaultEncryptedValue
from runner.templating import Templar, TemplateError
from runner.util.unsafe import is_unsafe

USERS = [{"name": "ann", "keys": ["k1", "k2"], "admin": True}, {"name": "bob", "keys": ["k3"], "admin": False}]


@pytest.fixture(scope="module")
def templar() -> Templar:
    return Templar()


def render(templar: Templar, expression: str, **variables: Any) -> Any:
    return templar.template("{{ " + expression + " }}", variables)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        # defaults and types
        ("missing | default('x')", "x"),
        ("'' | default('x')", ""),
        ("'' | default('x', true)", "x"),
        ("missing | d(3)", 3),
        ("'yes' | bool", True),
        ("'No' | bool", False),
        ("1 | bool", True),
        ("'off' | bool", False),
        ("'42' | int", 42),
        ("'0x1F' | int(base=16)", 31),
        ("'oops' | int", 0),
        ("'1.5' | float", 1.5),
        ("12 | string", "12"),
        ("true | ternary('on', 'off')", "on"),
        ("none | ternary('on', 'off', 'unset')", "unset"),
        ("'abc' | type_debug", "str"),
        ("[1] | type_debug", "list"),
        # serialisation
        ("{'b': 1, 'a': [1, 2]} | to_json", '{"b": 1, "a": [1, 2]}'),
        ("{'b': 1, 'a': 2} | to_nice_json", '{\n    "a": 2,\n    "b": 1\n}'),
        ("'{\"a\": [1, true]}' | from_json", {"a": [1, True]}),
        ("{'a': [1, 2], 'b': 'yes'} | to_yaml", "a: [1, 2]\nb: 'yes'\n"),
        ("{'a': {'b': [1]}} | to_nice_yaml", "a:\n    b:\n    - 1\n"),
        ("'a: yes\nb: [1, 2]' | from_yaml", {"a": True, "b": [1, 2]}),
        ("'a: 1\n---\nb: 2' | from_yaml_all", [{"a": 1}, {"b": 2}]),
        # dictionaries
        ("{'a': 1, 'b': 2} | combine({'b': 3}, {'c': 4})", {"a": 1, "b": 3, "c": 4}),
        ("{'a': {'x': 1}} | combine({'a': {'y': 2}})", {"a": {"y": 2}}),
        ("{'a': {'x': 1}} | combine({'a': {'y': 2}}, recursive=true)", {"a": {"x": 1, "y": 2}}),
        ("{'l': [1, 2]} | combine({'l': [2, 3]}, list_merge='append')", {"l": [1, 2, 2, 3]}),
        ("{'l': [1, 2]} | combine({'l': [2, 3]}, list_merge='prepend')", {"l": [2, 3, 1, 2]}),
        ("{'l': [1, 2]} | combine({'l': [2, 3]}, list_merge='append_rp')", {"l": [1, 2, 3]}),
        ("{'l': [1, 2]} | combine({'l': [2, 3]}, list_merge='prepend_rp')", {"l": [2, 3, 1]}),
        ("{'l': [1, 2]} | combine({'l': [3]}, list_merge='keep')", {"l": [1, 2]}),
        ("[{'a': 1}, {'b': 2}] | combine", {"a": 1, "b": 2}),
        ("{'a': 1} | dict2items", [{"key": "a", "value": 1}]),
        ("{'a': 1} | dict2items(key_name='k', value_name='v')", [{"k": "a", "v": 1}]),
        ("[{'key': 'a', 'value': 1}] | items2dict", {"a": 1}),
        ("[{'n': 'a', 'v': 1}] | items2dict(key_name='n', value_name='v')", {"a": 1}),
        ("[['a', 1], ['b', 2]] | dict", {"a": 1, "b": 2}),
        ("{'a': 1} | items | list", [("a", 1)]),
        # lists
        ("[1, [2, [3, [4]]], none] | flatten", [1, 2, 3, 4]),
        ("[1, [2, [3, [4]]]] | flatten(levels=1)", [1, 2, [3, [4]]]),
        ("[1, none] | flatten(skip_nulls=false)", [1, None]),
        ("['a', 'A', 'b', 'a'] | unique", ["a", "b"]),
        ("['a', 'A', 'b'] | unique(case_sensitive=true)", ["a", "A", "b"]),
        ("[{'a': 1}, {'a': 1}] | unique", [{"a": 1}]),
        ("[1, 2, 2] | union([2, 3])", [1, 2, 3]),
        ("[1, 2, 3, 3] | intersect([3, 2, 5])", [2, 3]),
        ("[1, 2, 3] | difference([2])", [1, 3]),
        ("[1, 2, 3] | symmetric_difference([2, 4])", [1, 3, 4]),
        ("[1, 2] | zip(['a', 'b', 'c']) | list", [[1, "a"], [2, "b"]]),
        ("[1, 2, 3] | zip_longest(['a'], fillvalue='-') | list", [[1, "a"], [2, "-"], [3, "-"]]),
        ("[1, 2] | product(['a']) | list", [[1, "a"], [2, "a"]]),
        ("[1, 2, 3] | permutations(2) | list | length", 6),
        ("[1, 2, 3] | combinations(2) | list", [[1, 2], [1, 3], [2, 3]]),
        ("['x', 'y'] | map('extract', {'x': 1, 'y': 2}) | list", [1, 2]),
        ("['web'] | map('extract', hosts, ['net', 'ip']) | list", ["10.0.0.1"]),
        ("users | subelements('keys') | map(attribute='1') | list", ["k1", "k2", "k3"]),
        ("[{'n': 1}] | subelements('keys', skip_missing=true)", []),
        ("[{'a': {'b': none}}] | subelements('a.b.c', skip_missing=true)", []),  # the path ends early: missing
        ("[3, 1, 2] | first", 3),
        ("[3, 1, 2] | last", 2),
        ("[3, 1, 2] | min", 1),
        ("[3, 1, 2] | max", 3),
        ("users | max(attribute='name') | attr('name')", None),
        ("[3, 1, 2] | length", 3),
        ("[3, 1, 2] | sum", 6),
        ("[3, 1, 2] | join('-')", "3-1-2"),
        ("'abc' | list", ["a", "b", "c"]),
        ("users | map(attribute='name') | list", ["ann", "bob"]),
        ("users | selectattr('admin') | map(attribute='name') | list", ["ann"]),
        ("users | rejectattr('admin') | map(attribute='name') | list", ["bob"]),
        ("[1, 2, 3, 4] | select('even') | list", [2, 4]),
        # text
        ("'hello world' | title", "Hello World"),
        ("'a\nb' | indent(2)", "a\n  b"),
        ("'a,b,,c' | split(',')", ["a", "b", "", "c"]),
        ("'a b' | split", ["a", "b"]),
        ("\"it's here\" | quote", "'it'\"'\"'s here'"),
        ("'ip: 10.0.0.1' | regex_search('[0-9.]+')", "10.0.0.1"),
        ("'ip: 10.0.0.1' | regex_search('(?P<a>\\d+)\\.(\\d+)', '\\g<a>', '\\2')", ["10", "0"]),
        ("'abc' | regex_search('x')", None),
        ("'ABC' | regex_search('b', ignorecase=true)", "B"),
        ("'foo.bar' | regex_replace('\\.', '-')", "foo-bar"),
        ("'a1b22' | regex_replace('(\\d+)', '<\\1>')", "a<1>b<22>"),
        ("'a1b2' | regex_findall('\\d')", ["1", "2"]),
        ("'1.2*3' | regex_escape", re.escape("1.2*3")),
        ("'a.b*' | regex_escape('posix_basic')", "a\\.b\\*"),
        ("'Managed' | comment", "#\n# Managed\n#"),
        ("'x\ny' | comment('c')", "//\n// x\n// y\n//"),
        ("'x' | comment('cblock')", "/*\n *\n * x\n *\n */"),
        ("'x' | comment('xml')", "<!--\n -\n - x\n -\n-->"),
        ("'x' | comment(decoration='; ')", ";\n; x\n;"),
        # paths
        ("'/etc/app/x.conf' | basename", "x.conf"),
        ("'/etc/app/x.conf' | dirname", "/etc/app"),
        ("'/etc/app/x.conf' | splitext", ["/etc/app/x", ".conf"]),
        ("['/etc', 'app', 'x.conf'] | path_join", "/etc/app/x.conf"),
        ("'/etc/../etc/hosts' | realpath", os.path.realpath("/etc/hosts")),
        # encodings and hashes
        ("'hello' | b64encode", "aGVsbG8="),
        ("'aGVsbG8=' | b64decode", "hello"),
        ("'6Q==' | b64decode", "\udce9"),  # latin-1's é, not UTF-8: kept as the byte it was, as Ansible keeps it
        ("'6Q==' | b64decode(encoding='latin-1')", "é"),
        ("'hello' | hash", "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"),
        ("'hello' | hash('md5')", "5d41402abc4b2a76b9719d911017c592"),
        ("'hello' | hash('sha256')", "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
        ("'hello' | checksum", "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"),
        ("'Hello world!' | password_hash('sha512', 'saltstring')",
         "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"),
        ("'Hello world!' | password_hash('sha256', 'saltstring')",
         "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"),
        # sizes and time
        ("1048576 | human_readable", "1.00 MB"),
        ("10 | human_readable", "10.00 Bytes"),
        ("1024 | human_readable(isbits=true)", "1.00 Kb"),
        ("1048576 | human_readable(unit='K')", "1024.00 KB"),
        ("'10M' | human_to_bytes", 10485760),
        ("'1 KB' | human_to_bytes", 1024),
        ("'%Y-%m-%d' | strftime(86400, utc=true)", "1970-01-02"),
        ("('2024-03-01 12:00:00' | to_datetime).year", 2024),
        ("('01/02/2024' | to_datetime('%d/%m/%Y')).month", 2),
    ],
)
def test_filter(templar: Templar, expression: str, expected: Any) -> None:
    variables = {"users": USERS, "hosts": {"web": {"net": {"ip": "10.0.0.1"}}}}
    if expression.startswith("users | max"):
        assert render(templar, "users | max(attribute='name')", **variables) == USERS[1]
        return
    assert render(templar, expression, **variables) == expected


def test_type_debug_names_the_native_type_of_a_marked_value(templar: Templar) -> None:
    from runner.util.unsafe import mark_unsafe

    assert render(templar, "[text | type_debug, data | type_debug]", text=mark_unsafe("x"),
                  data=mark_unsafe({"a": 1})) == ["str", "dict"]


def test_to_datetime_gives_a_datetime(templar: Templar) -> None:
    assert render(templar, "'2024-03-01 12:00:00' | to_datetime") == datetime.datetime(2024, 3, 1, 12)


def test_expanduser_uses_the_controller_home(templar: Templar) -> None:
    assert render(templar, "'~/x' | expanduser") == os.path.expanduser("~/x")


def test_strftime_without_seconds_is_now(templar: Templar) -> None:
    assert render(templar, "'%Y' | strftime") == datetime.datetime.now().strftime("%Y")


def test_mandatory_passes_a_defined_value_and_names_an_undefined_one(templar: Templar) -> None:
    assert render(templar, "x | mandatory", x=0) == 0
    with pytest.raises(TemplateError, match="Mandatory variable 'db_password' not defined"):
        render(templar, "db_password | mandatory")
    with pytest.raises(TemplateError, match="set db_password in group_vars"):
        render(templar, "db_password | mandatory('set db_password in group_vars')")


def test_random_picks_within_range_or_from_the_list_and_a_seed_repeats(templar: Templar) -> None:
    assert render(templar, "10 | random(start=5)") in range(5, 10)
    assert render(templar, "['a', 'b'] | random") in ("a", "b")
    assert render(templar, "100 | random(seed='h1')") == render(templar, "100 | random(seed='h1')")


def test_shuffle_keeps_the_items_and_a_seed_repeats(templar: Templar) -> None:
    shuffled = render(templar, "[1, 2, 3, 4, 5] | shuffle(seed='x')")
    assert sorted(shuffled) == [1, 2, 3, 4, 5]
    assert render(templar, "[1, 2, 3, 4, 5] | shuffle(seed='x')") == shuffled


def test_password_hash_without_salt_is_random_and_well_formed(templar: Templar) -> None:
    first = render(templar, "'pw' | password_hash('sha512')")
    second = render(templar, "'pw' | password_hash('sha512')")
    assert re.fullmatch(r"\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}", first)
    assert first != second


def test_password_hash_with_rounds_writes_them(templar: Templar) -> None:
    assert render(templar, "'Hello world!' | password_hash('sha512', 'saltstringsaltstring', rounds=10000)") == (
        "$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/"
        "YTBmSK6H9qs/y3RnOaw5v.")


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("'pw' | password_hash('md5')", "not supported"),
        ("'pw' | password_hash('sha512', 'bad salt!')", "salt may only hold"),
        ("'x' | hash('nohash')", "unknown hash type"),
        ("{'a': 1} | combine({'a': 2}, list_merge='merge')", "list_merge must be one of"),
        ("[1] | dict2items", "dict2items requires a dictionary"),
        ("[{'a': 1}] | items2dict", "'key' and 'value'"),
        ("'x' | regex_search('(')", "invalid regular expression"),
        ("'aaa' | regex_replace('a', 'b', mandatory_count=2)", "should match 2 times, but matches 3"),
        ("'x' | from_json", "not valid JSON"),
        ("[{'k': 1}] | subelements('keys')", "could not find 'keys'"),
        ("'x' | comment('nostyle')", "unknown style"),
        ("'x' | human_readable", "not a number"),
    ],
)
def test_filter_misuse_is_a_template_error(templar: Templar, expression: str, message: str) -> None:
    with pytest.raises(TemplateError, match=re.escape(message)):
        render(templar, expression)


URL = "http://mary:MySecret@www.acme.com:9000/dir/index.html?query=term#fragment"


def test_urldecode_inverts_urlencode(templar: Templar) -> None:
    text = "key=\"@{}é&%£ foo bar '(;\\<>\"\"°)"
    assert render(templar, "text | urlencode | urldecode", text=text) == text
    assert render(templar, "'a%20b+c' | urldecode") == "a b c"


def test_urlsplit_gives_every_component_or_the_one_asked_for(templar: Templar) -> None:
    assert render(templar, "url | urlsplit", url=URL) == {
        "fragment": "fragment", "hostname": "www.acme.com", "netloc": "mary:MySecret@www.acme.com:9000",
        "password": "MySecret", "path": "/dir/index.html", "port": 9000, "query": "query=term", "scheme": "http",
        "username": "mary"}
    assert render(templar, "url | urlsplit('port')", url=URL) == 9000
    assert render(templar, "url | urlsplit('hostname')", url=URL) == "www.acme.com"


def test_urlsplit_names_an_unknown_component(templar: Templar) -> None:
    with pytest.raises(TemplateError, match="unknown URL component: bad"):
        render(templar, "url | urlsplit('bad')", url=URL)


def test_rekey_on_member_keys_dictionaries_on_a_member(templar: Templar) -> None:
    routes = [{"proto": "eigrp", "state": "enabled"}, {"proto": "ospf", "state": "disabled"}]
    assert render(templar, "routes | rekey_on_member('proto')", routes=routes) == {
        "eigrp": routes[0], "ospf": routes[1]}
    twice = [routes[0], dict(routes[0], state="disabled")]
    assert render(templar, "twice | rekey_on_member('proto', duplicates='overwrite')", twice=twice) == {
        "eigrp": twice[1]}


@pytest.mark.parametrize(("expression", "message"), [
    ("'monkeys' | human_readable", "human_readable\\(\\) failed on bad input"),
    ("'monkeys' | human_to_bytes", "human_to_bytes\\(\\) can't interpret the input"),
    ("'10 parsecs' | human_to_bytes", "human_to_bytes\\(\\) can't interpret the input"),
])
def test_size_filters_fail_in_ansibles_words(templar: Templar, expression: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        render(templar, expression)


def test_unique_of_unhashable_items_with_options_says_it_cannot_fall_back(templar: Templar) -> None:
    with pytest.raises(TemplateError, match="cannot fall back to Ansible's version"):
        render(templar, "[{'a': 1}] | unique(case_sensitive=false)")


@pytest.mark.parametrize(("expression", "message"), [
    ("[] | rekey_on_member('a', duplicates='boo')", "unknown value 'boo'"),
    ("'text' | rekey_on_member('a')", "not a valid list, set, or dict"),
    ("[true] | rekey_on_member('a')", "List item is not a valid dict"),
    ("[{'a': 1}, {'a': 1}] | rekey_on_member('a')", "Key 1 is not unique"),
    ("[{'b': 1}] | rekey_on_member('a')", "Key 'a' was not found"),
])
def test_rekey_on_member_says_what_is_wrong(templar: Templar, expression: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        render(templar, expression)


@pytest.mark.parametrize(("expression", "expected"), [
    ("1 | log", 0.0),
    ("100 | log(10)", 2.0),
    ("21 | log(21)", 1.0),
    ("2 | pow(4)", 16.0),
    ("9 | root", 3.0),
    ("27 | root(3)", 3.0),
    ("'/a/b/../c' | normpath", "/a/c"),
    ("['/a/b/c', '/a/b/d'] | commonpath", "/a/b"),
    ("'C:\\dir\\f.txt' | win_basename", "f.txt"),
    ("'C:\\dir\\f.txt' | win_dirname", "C:\\dir"),
    ("'C:\\dir\\f.txt' | win_splitdrive", ["C:", "\\dir\\f.txt"]),
])
def test_math_and_path_filters_as_ansibles(templar: Templar, expression: str, expected: Any) -> None:
    assert render(templar, expression) == expected


@pytest.mark.parametrize("expression", ["'yo' | log", "'yo' | pow(4)", "'yo' | root"])
def test_math_filters_refuse_what_is_not_a_number(templar: Templar, expression: str) -> None:
    with pytest.raises(TemplateError, match="can only be used on numbers"):
        render(templar, expression)


def test_fileglob_lists_the_controllers_matching_files(templar: Templar, tmp_path: Any) -> None:
    (tmp_path / "a.conf").write_text("")
    (tmp_path / "b.conf").write_text("")
    (tmp_path / "sub.conf").mkdir()
    found = render(templar, "pattern | fileglob", pattern=str(tmp_path / "*.conf"))
    assert found == [str(tmp_path / "a.conf"), str(tmp_path / "b.conf")]


@pytest.mark.parametrize(("expression", "expected"), [
    ("'a' | ansible.builtin.upper", "A"),  # Jinja2's own too, as in Ansible
    ("'x' | ansible.builtin.to_json", '"x"'),
    ("'x' | ansible.legacy.to_json", '"x"'),
    ("[1] | ansible.builtin.map('string') | list", ["1"]),
    ("1 is ansible.builtin.truthy", True),
    ("none is ansible.builtin.none", True),
])
def test_filters_and_tests_answer_to_their_full_names(templar: Templar, expression: str, expected: Any) -> None:
    assert render(templar, expression) == expected


def test_from_json_takes_ansible_profiles_and_reads_the_legacy_markers(templar: Templar) -> None:
    text = '{"a": {"__ansible_unsafe": "from a host"}, "b": {"__ansible_vault": "$ANSIBLE_VAULT;1.1;AES256\\n00"}}'
    plain = render(templar, "payload | from_json", payload=text)
    assert plain["a"] == {"__ansible_unsafe": "from a host"}
    legacy = render(templar, "payload | from_json(profile='inventory_legacy')", payload=text)
    assert legacy["a"] == "from a host" and is_unsafe(legacy["a"])
    assert isinstance(legacy["b"], VaultEncryptedValue)
    assert render(templar, "[1] | to_json(profile='legacy')") == "[1]"
    with pytest.raises(TemplateError, match="unknown JSON profile 'nope'"):
        render(templar, "'1' | from_json(profile='nope')")
