"""Turning a setting's raw value (text from a file or the environment, or a typed command-line value) into its type.

Each converter raises ``ValueError`` with what was expected; the caller adds where the value came from.
Paths have ``~`` expanded and, when relative, are anchored at ``ValueContext.base_dir``: the config file's
directory for values from the file, the working directory for everything else.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modules._utils import BOOLEANS_FALSE, BOOLEANS_TRUE
from runner.config.settings import Setting

# Ansible's interpreter_python values that mean "discover it", in the configuration or ansible_python_interpreter:
# the agent starts with the interpreter discovery finds; the mode says only what the task is warned of.
DISCOVER_INTERPRETER = frozenset(["auto", "auto_silent", "auto_legacy", "auto_legacy_silent"])



@dataclass(frozen=True)
class ValueContext:
    base_dir: Path
    home: str


def _text(raw: Any) -> str:
    if isinstance(raw, (list, tuple, dict)):
        raise ValueError(f"expected a single value, got {raw!r}")
    return str(raw).strip()


def _optional_text(raw: Any, context: ValueContext) -> str | None:
    text = _text(raw)
    return text or None


def _to_int(raw: Any, context: ValueContext) -> int:
    if isinstance(raw, bool):
        raise ValueError(f"expected an integer, got {raw!r}")
    if isinstance(raw, int):
        return raw
    text = _text(raw)
    if not re.fullmatch(r"[-+]?\d+", text):
        raise ValueError(f"expected an integer, got {text!r}")
    return int(text)


def _to_float(raw: Any, context: ValueContext) -> float:
    if isinstance(raw, bool):
        raise ValueError(f"expected a number, got {raw!r}")
    text = raw if isinstance(raw, (int, float)) else _text(raw)
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a number, got {text!r}")
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {text!r}")
    return value


def _to_bool(raw: Any, context: ValueContext) -> bool:
    if isinstance(raw, bool):
        return raw
    text = _text(raw).lower()
    if text in BOOLEANS_TRUE:
        return True
    if text in BOOLEANS_FALSE:
        return False
    raise ValueError(f"expected a boolean (true/false, yes/no, on/off, 1/0), got {_text(raw)!r}")


def _split(raw: Any, separator: str) -> list[str]:
    """A list given as text is split on ``separator`` and on newlines (INI continuation lines)."""
    if isinstance(raw, (list, tuple)):
        return [str(item).strip() for item in raw if str(item).strip()]
    return [part.strip() for part in re.split(f"[{re.escape(separator)}\n]", _text(raw)) if part.strip()]


def _to_list(raw: Any, context: ValueContext) -> list[str]:
    return _split(raw, ",")


def _to_path(raw: Any, context: ValueContext) -> str | None:
    text = _text(raw)
    if not text:
        return None
    return _resolve(text, context)


def expand_home(text: str, home: str) -> str:
    """``~`` expanded with the given home (the one in the environment the config was loaded with)."""
    if text == "~" or text.startswith("~/"):
        return home + text[1:]
    return os.path.expanduser(text)  # ~otheruser


def _resolve(text: str, context: ValueContext) -> str:
    return os.path.normpath(context.base_dir / expand_home(text, context.home))


def _to_pathlist(raw: Any, context: ValueContext) -> list[str]:
    # An item with a comma can only come from a command-line list: it is a host list ("web1,web2,"), not a path.
    return [item if "," in item else _resolve(item, context) for item in _split(raw, ",")]


def _to_pathspec(raw: Any, context: ValueContext) -> list[str]:
    return [_resolve(item, context) for item in _split(raw, os.pathsep)]


def _to_interpreter(raw: Any, context: ValueContext) -> str | None:
    """A path, or a discovery mode (``DISCOVER_INTERPRETER``); None when unset, which is ``auto``."""
    return _text(raw) or None


_BUILTIN_STRATEGIES = ("linear", "free", "host_pinned")
_QUALIFIED_NAME = re.compile(r"^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$")


def _to_strategy(raw: Any, context: ValueContext) -> str | None:
    """A builtin strategy, or a collection's strategy plugin by its full name (resolved when a command runs)."""
    text = _optional_text(raw, context)
    if text is None or text in _BUILTIN_STRATEGIES or _QUALIFIED_NAME.match(text):
        return text
    raise ValueError(f"expected one of {', '.join(_BUILTIN_STRATEGIES)} or a collection's strategy plugin "
                     f"(NS.COLL.NAME), got {text!r}")


CONVERTERS: dict[str, Callable[[Any, ValueContext], Any]] = {
    "str": _optional_text,
    "int": _to_int,
    "float": _to_float,
    "bool": _to_bool,
    "list": _to_list,
    "path": _to_path,
    "pathlist": _to_pathlist,
    "pathspec": _to_pathspec,
    "interpreter": _to_interpreter,
    "strategy": _to_strategy,
}


def convert(setting: Setting, raw: Any, context: ValueContext) -> Any:
    """The typed value of ``raw`` for ``setting``; None stays None (a setting that is unset)."""
    if raw is None:
        return None
    value = CONVERTERS[setting.type](raw, context)
    if setting.choices and value not in setting.choices:
        raise ValueError(f"expected one of {', '.join(setting.choices)}, got {value!r}")
    if setting.minimum is not None and value is not None and value < setting.minimum:
        raise ValueError(f"expected a value of at least {setting.minimum}, got {value!r}")
    return value
