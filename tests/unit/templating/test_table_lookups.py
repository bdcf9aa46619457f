"""The ``ini`` and ``csvfile`` lookups: INI, properties and delimited files, keyword and inline options, regular
expressions, key columns and defaults, Ansible's errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.templating import Templar, TemplateError

SETTINGS = """\
[global]
greeting = hello world
home: /srv
data: %(home)s/data

[pool]
size1 = 4
size2 = 8
other = 1
"""


@pytest.fixture(scope="module")
def templar() -> Templar:
    return Templar()


@pytest.fixture
def playbook_dir(tmp_path: Path) -> Path:
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "app.ini").write_text(SETTINGS)
    (tmp_path / "app.properties").write_text("# a comment\nlisten.port = 8080\n")
    (tmp_path / "cased.properties").write_text("Name = upper\nname = lower\n")
    (tmp_path / "flags.ini").write_text("[flags]\nverbose\n")
    (tmp_path / "twice.ini").write_text("[global]\nkey = a\nkey = b\n")
    (tmp_path / "latin1.ini").write_bytes("[global]\ncity = Zürich\n".encode("iso8859-1"))
    (tmp_path / "files" / "people.csv").write_text("Smith,Jane,1\nvon Lastname,Demo,2\n\"Doe, Sr\",John,3\n")
    (tmp_path / "tabs.csv").write_text("fruit\tbananas\nelectronics\ttvs\n")
    (tmp_path / "crlf.csv").write_bytes(b"this file,has,crlf\r\nansible,parses,it\r\n")
    (tmp_path / "cool list.csv").write_text("maybe,spaces,do,work\n")
    return tmp_path


def look(templar: Templar, playbook_dir: Path, expression: str) -> Any:
    return templar.template("{{ " + expression + " }}", {}, search_paths=[playbook_dir])


@pytest.mark.parametrize(("expression", "expected"), [
    ("lookup('ini', 'greeting', file='app.ini')", "hello world"),
    ("lookup('ini', 'greeting section=global file=app.ini')", "hello world"),
    ("lookup('ini', 'data', file='app.ini')", "/srv/data"),
    ("lookup('ini', 'data', file='app.ini', interpolation=false)", "%(home)s/data"),
    ("lookup('ini', 'size[12] section=pool file=app.ini re=true')", "4,8"),
    ("query('ini', 'size.', section='pool', file='app.ini', re=True)", ["4", "8"]),
    ("lookup('ini', 'missing', file='app.ini', default='none')", "none"),
    ("lookup('ini', 'listen.port', type='properties', file='app.properties')", "8080"),
    ("lookup('ini', 'Name', type='properties', file='cased.properties', case_sensitive=True)", "upper"),
    ("lookup('ini', 'city section=global encoding=iso8859-1 file=latin1.ini')", "Zürich"),
    ("lookup('ini', 'verbose', section='flags', file='flags.ini', allow_no_value=True)", []),
    ("lookup('csvfile', 'Smith', file='people.csv', delimiter=',', col=1)", "Jane"),
    ("lookup('csvfile', 'Jane', file='people.csv', delimiter=',', col=0, keycol=1)", "Smith"),
    ("lookup('csvfile', 'von Lastname file=people.csv delimiter=, col=1')", "Demo"),
    ("lookup('csvfile', 'Doe, Sr', file='people.csv', delimiter=',', col=2)", "3"),
    ("lookup('csvfile', 'fruit', file='tabs.csv', col=1)", "bananas"),
    ("lookup('csvfile', 'fruit file=tabs.csv delimiter=\"\\t\" col=1')", "bananas"),
    ("lookup('csvfile', 'electronics', 'fruit', file='tabs.csv', delimiter='TAB', col=1)", "tvs,bananas"),
    ("query('csvfile', 'electronics', 'fruit', file='tabs.csv', col=1)", ["tvs", "bananas"]),
    ("lookup('csvfile', 'ansible file=crlf.csv delimiter=, col=2')", "it"),
    ("lookup('csvfile', 'maybe file=\"cool list.csv\" delimiter=, col=3')", "work"),
    ("query('csvfile', 'notfound file=people.csv delimiter=, col=2')", []),
    ("lookup('csvfile', 'notfound file=people.csv delimiter=, col=2 default=what?')", "what?"),
    ("lookup('csvfile', 'notfound', file='people.csv', delimiter=',', default=['a', 'b'])", "a,b"),
])
def test_values(templar: Templar, playbook_dir: Path, expression: str, expected: Any) -> None:
    assert look(templar, playbook_dir, expression) == expected


@pytest.mark.parametrize(("expression", "message"), [
    ("lookup('ini', 'key', file='twice.ini')", "Duplicate option in 'twice.ini'"),
    ("lookup('ini', 'name', type='properties', file='cased.properties')", "Duplicate option in"),
    ("lookup('ini', 'x', section='nope', file='app.ini')", "No section 'nope' in 'app.ini'"),
    ("lookup('ini', 'file=app.ini', 'size1', section='pool')", "No key to look up was provided as first term"),
    ("lookup('ini', 'invalid=option')", "'invalid' is not a valid option"),
    ("lookup('ini', 'x', bogus=1)", "'bogus' is not a valid option"),
    ("lookup('ini', 'verbose', section='flags', file='flags.ini')", "flags.ini"),
    ("lookup('csvfile', 'file=people.csv, delimiter=, col=1')", "Search key is required but was not found"),
    ("lookup('csvfile', file='people.csv', col=1)", "Search key is required but was not found"),
    ("lookup('csvfile', 'Smith file=people.csv thisarg=x')", "'thisarg' is not a valid option"),
    ("lookup('csvfile', 'Smith', file='people.csv', thisarg='x')", "'thisarg' is not a valid option"),
    ("lookup('csvfile', 'Smith', file='nowhere.csv')", "No such file or directory"),
    ("lookup('csvfile', 'Smith', file='people.csv', delimiter=',', col='x')", "'col' .* has an invalid value"),
    ("lookup('csvfile', 'notfound file=people.csv delimiter=, col=2, default=what?')", "has an invalid value"),
])
def test_errors(templar: Templar, playbook_dir: Path, expression: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        look(templar, playbook_dir, expression)
