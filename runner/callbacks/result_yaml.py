"""Results as YAML, the way ansible-core's default callback prints them with ``callback_result_format = yaml``:
sorted keys, block style, multi-line strings as ``|`` blocks, indented by 4 under the ``=>`` line.

``lossy`` (``callback_format_pretty`` unset or true, as Ansible's default for YAML) trades exactness for
reading: a multi-line string loses its trailing whitespace, tabs and characters YAML cannot put in a block, and
``stdout_lines``/``stderr_lines`` are ``<omitted>`` beside their ``stdout``/``stderr``.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from typing import Any

import yaml

_BREAKS = "\n\x85\u2028\u2029"  # what libyaml counts as line breaks
_SPACES_BEFORE_BREAK = re.compile(f" +([{_BREAKS}])")
# Characters libyaml allows in a block scalar (its analyze_scalar): the rest only in double quotes.
_PRINTABLE = re.compile("[^\n\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010fffe]|\ufeff")


def yaml_result(result: Mapping[str, Any], *, lossy: bool = True, indent: int | None = 4,
                width: int | None = None) -> str:
    """What follows ``=> `` on a result line: a line break, then the YAML document indented by ``indent`` (4 when
    None, PyYAML's 2 within it then), its lines broken at ``width`` (None: PyYAML's default, about 80)."""
    shown = dict(result)
    if lossy:
        for key in ("stdout", "stderr"):
            if key in shown and f"{key}_lines" in shown:
                shown[f"{key}_lines"] = "<omitted>"
    dumper = _LossyDumper if lossy else _Dumper
    text = yaml.dump(shown, Dumper=dumper, allow_unicode=True, default_flow_style=False, indent=indent,
                     width=width, sort_keys=True)
    return "\n" + textwrap.indent(text, " " * (indent or 4)).rstrip("\n")


class _Dumper(yaml.SafeDumper):
    lossy = False

    def represent_str(self, data: str) -> yaml.ScalarNode:
        text = str(data)
        style = None
        if any(character in text for character in _BREAKS):
            style = "|"
            if self.lossy:
                text = _SPACES_BEFORE_BREAK.sub(r"\1", _PRINTABLE.sub("", text.rstrip().expandtabs()))
        return self.represent_scalar("tag:yaml.org,2002:str", text, style=style)

    def represent_other(self, data: Any) -> yaml.Node:
        """Values that are not YAML's own (paths, tuples, sets, encrypted values) as lists or their text."""
        if isinstance(data, (tuple, set, frozenset)):
            return self.represent_list(list(data))
        if isinstance(data, Mapping):
            return self.represent_dict(dict(data))
        return self.represent_str(str(data))


class _LossyDumper(_Dumper):
    lossy = True


for _dumper in (_Dumper, _LossyDumper):
    _dumper.add_representer(str, _Dumper.represent_str)
    _dumper.add_multi_representer(str, _Dumper.represent_str)
    _dumper.add_multi_representer(object, _Dumper.represent_other)
