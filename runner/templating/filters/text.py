"""Text filters: regular expressions, shell quoting, ``comment`` blocks, ``split``."""

from __future__ import annotations

import re
import shlex
from typing import Any

from runner.templating.errors import TemplateError


def _flags(ignorecase: bool, multiline: bool) -> int:
    return (re.IGNORECASE if ignorecase else 0) | (re.MULTILINE if multiline else 0)


def _compile(pattern: str, flags: int, name: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, flags)
    except re.error as exc:
        raise TemplateError(f"{name}: invalid regular expression {pattern!r}: {exc}") from None


def regex_search(value: Any, pattern: str, *groups: str, ignorecase: bool = False, multiline: bool = False) -> Any:
    """The first match (or None); with ``'\\\\1'``/``'\\\\g<name>'`` arguments, the list of those groups."""
    wanted: list[int | str] = []
    for group in groups:
        named = re.match(r"\\g<(\S+)>", group)
        numbered = re.match(r"\\(\d+)", group)
        if named:
            wanted.append(named.group(1))
        elif numbered:
            wanted.append(int(numbered.group(1)))
        else:
            raise TemplateError(f"regex_search: unknown argument {group!r}; expected '\\\\N' or '\\\\g<name>'")
    match = _compile(pattern, _flags(ignorecase, multiline), "regex_search").search(str(value))
    if not match:
        return None
    return [match.group(group) for group in wanted] if wanted else match.group()


def regex_replace(value: Any = "", pattern: str = "", replacement: str = "", ignorecase: bool = False,
                  multiline: bool = False, count: int = 0, mandatory_count: int = 0) -> str:
    compiled = _compile(pattern, _flags(ignorecase, multiline), "regex_replace")
    output, substitutions = compiled.subn(replacement, str(value), count=count)
    if mandatory_count and mandatory_count != substitutions:
        raise TemplateError(f"regex_replace: '{pattern}' should match {mandatory_count} times, "
                            f"but matches {substitutions} times")
    return output


def regex_findall(value: Any, pattern: str, multiline: bool = False, ignorecase: bool = False) -> list[Any]:
    return _compile(pattern, _flags(ignorecase, multiline), "regex_findall").findall(str(value))


def regex_escape(value: Any, re_type: str = "python") -> str:
    if re_type == "python":
        return re.escape(str(value))
    if re_type == "posix_basic":
        return re.sub(r"([\[\].^$*\\])", r"\\\1", str(value))
    raise TemplateError(f"regex_escape: re_type must be 'python' or 'posix_basic', not '{re_type}'")


def quote(value: Any) -> str:
    return shlex.quote("" if value is None else str(value))


def split(value: Any, separator: str | None = None, maxsplit: int = -1) -> list[str]:
    return str(value).split(separator, maxsplit)


_COMMENT_STYLES: dict[str, dict[str, str]] = {
    "plain": {"decoration": "# "},
    "erlang": {"decoration": "% "},
    "c": {"decoration": "// "},
    "cblock": {"beginning": "/*", "decoration": " * ", "end": " */"},
    "xml": {"beginning": "<!--", "decoration": " - ", "end": "-->"},
}


def comment(text: Any, style: str = "plain", **options: Any) -> str:
    """``ansible_managed | comment`` gives "#\\n# Managed by provisioning\\n#"; styles plain, erlang, c, cblock,
    xml; ``decoration``, ``prefix``, ``prefix_count``, ``postfix``, ``postfix_count``, ``beginning``, ``end``
    and ``newline`` change the frame."""
    if style not in _COMMENT_STYLES:
        raise TemplateError(f"comment: unknown style '{style}'; expected one of {', '.join(_COMMENT_STYLES)}")
    style_options = _COMMENT_STYLES[style]
    frame = str(options.get("decoration", style_options["decoration"])).rstrip()
    params: dict[str, Any] = {"newline": "\n", "beginning": "", "prefix": frame, "prefix_count": 1,
                              "decoration": "", "postfix": frame, "postfix_count": 1, "end": ""}
    params.update(style_options)
    params.update(options)
    newline = params["newline"]
    beginning = f"{params['beginning']}{newline}" if params["beginning"] else ""
    prefix = ""
    if params["prefix"]:
        line = newline if params["prefix"] == newline else f"{params['prefix']}{newline}"
        prefix = line * int(params["prefix_count"])
    body = newline.join(f"{params['decoration']}{line}".rstrip() for line in str(text).split(newline))
    postfix = "".join(f"{newline}{params['postfix']}" for _ in range(int(params["postfix_count"])))
    end = f"{newline}{params['end']}" if params["end"] else ""
    return f"{beginning}{prefix}{body}{postfix}{end}"


FILTERS = {
    "regex_search": regex_search,
    "regex_replace": regex_replace,
    "regex_findall": regex_findall,
    "regex_escape": regex_escape,
    "quote": quote,
    "split": split,
    "comment": comment,
}
