"""Free-form module arguments: ``name={{ pkgs }} state=present`` and ``echo "hello world" chdir=/tmp``.

Splitting follows Ansible's ``split_args``/``parse_kv``: words are separated by spaces and newlines, except inside
'single' or "double" quotes and inside Jinja2 ``{{ }}``, ``{% %}`` and ``{# #}`` blocks, which are never split.
Quotes stay in the words; a value that is quoted as a whole loses its outer quotes. Backslash escapes (``\\n``,
``\\"``, ``\\=``...) are decoded in ``k=v`` words, not in free-form text (a shell command keeps its own escapes).

Splitting happens before templating, so ``name={{ pkgs }}`` yields the string ``"{{ pkgs }}"``, which the
templar later turns into the list ``pkgs`` holds.
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import dataclass
from typing import Any

from runner.errors import UserError

RAW_PARAMS = "_raw_params"

# With check_raw (command, shell...), these keys are options; any other k=v word belongs to the command line.
COMMAND_OPTION_KEYS = frozenset(
    ["creates", "removes", "chdir", "executable", "warn", "stdin", "stdin_add_newline", "strip_empty_ends"]
)

_JINJA_BLOCKS = {"{{": "}}", "{%": "%}", "{#": "#}"}
_JINJA_CLOSERS = {closer: opener for opener, closer in _JINJA_BLOCKS.items()}

_ESCAPE_SEQUENCE = re.compile(
    r"""( \\U[0-9a-fA-F]{8}
        | \\u[0-9a-fA-F]{4}
        | \\x[0-9a-fA-F]{2}
        | \\N\{[^}]+\}
        | \\[\\'"abfnrtv]
        )""",
    re.VERBOSE,
)


class ArgumentSyntaxError(UserError):
    """Free-form arguments that cannot be split: unbalanced quotes or Jinja2 blocks, or a word without '='."""


@dataclass
class _Word:
    text: str
    newline_after: bool = False
    gap: str = ""  # the spaces and newlines after it, as written (a line continuation adds none)


def _scan(text: str) -> list[_Word]:
    """Split ``text`` into words, keeping quoted parts and Jinja2 blocks whole."""
    words: list[_Word] = []
    current: list[str] = []
    quote: str | None = None
    depth = dict.fromkeys(_JINJA_BLOCKS, 0)
    i, length = 0, len(text)

    def end_word(newline: bool, space: str = "") -> None:
        if current:
            words.append(_Word("".join(current)))
            current.clear()
        if newline and words:
            words[-1].newline_after = True
        if space and words:
            words[-1].gap += space

    while i < length:
        char = text[i]
        pair = text[i:i + 2]
        inside_block = any(depth.values())
        if char == "\\" and i + 1 < length:
            if text[i + 1] == "\n" and quote is None and not inside_block:
                end_word(newline=False)  # a line continuation joins the lines with a plain space
            else:
                current.append(pair)
            i += 2
            continue
        if quote is not None:
            current.append(char)
            if char == quote:
                quote = None
            i += 1
            continue
        if char in "\"'":
            quote = char
        elif pair in _JINJA_BLOCKS:
            depth[pair] += 1
            current.append(pair)
            i += 2
            continue
        elif pair in _JINJA_CLOSERS:
            opener = _JINJA_CLOSERS[pair]
            depth[opener] = max(0, depth[opener] - 1)
            current.append(pair)
            i += 2
            continue
        elif char in " \n" and not inside_block:
            end_word(newline=char == "\n", space=char)
            i += 1
            continue
        current.append(char)
        i += 1

    if quote is not None:
        raise ArgumentSyntaxError(f"unbalanced {quote} quote in arguments: {text}",
                                  hint="close the quote, or quote the entire line")
    for opener, count in depth.items():
        if count:
            raise ArgumentSyntaxError(f"unclosed Jinja2 block '{opener}' (no matching '{_JINJA_BLOCKS[opener]}') "
                                      f"in arguments: {text}")
    end_word(newline=False)
    return words


def split_args(text: str) -> list[str]:
    """The words of a free-form argument string, quotes and Jinja2 blocks kept as written."""
    return [word.text for word in _scan(text.strip())]


def decode_escapes(text: str) -> str:
    """Decode Python-style backslash escapes (``\\n``, ``\\"``, ``\\x41``, ``\\u00e9``), leaving others alone."""
    return _ESCAPE_SEQUENCE.sub(lambda match: codecs.decode(match.group(0), "unicode-escape"), text)


def unquote(text: str) -> str:
    """Drop one pair of matching outer quotes, unless the closing one is escaped."""
    if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'" and text[-2] != "\\":
        return text[1:-1]
    return text


def _unescaped_equals(word: str) -> int | None:
    """Index of the first '=' that is not escaped and does not start the word, or None."""
    position = word.find("=", 1)
    while position != -1:
        if word[position - 1] != "\\":
            return position
        position = word.find("=", position + 1)
    return None


def parse_kv(text: str, check_raw: bool = False, keep_raw: bool = False) -> dict[str, Any]:
    """Ansible's ``k=v`` parsing: ``"src=a dest='b c'"`` -> ``{"src": "a", "dest": "b c"}``.

    With ``check_raw`` (modules that take free text, such as command and shell) the words that are not one of the
    module's own options (``creates``, ``chdir``...) are joined into ``_raw_params``; newlines between them are
    kept, so a multi-line script stays multi-line. With ``keep_raw`` the words without '=' are joined into
    ``_raw_params`` too (a task's arguments given as one template, ``add_host: '{{ data }}'``, which only the run
    can judge). Without either, a word without '=' is an error.
    """
    options: dict[str, Any] = {}
    raw_words: list[_Word] = []
    # Only leading whitespace goes: the spacing between words and a final newline stay in free-form text, as
    # Ansible keeps them (an indented Python script given to shell with executable: python3 must stay indented).
    for word in _scan(text.lstrip() if check_raw else text.strip()):
        decoded = decode_escapes(word.text)
        equals = _unescaped_equals(decoded) if "=" in decoded else None
        if equals is None:
            if not (check_raw or keep_raw):
                raise ArgumentSyntaxError(f"expected key=value arguments, got {word.text!r} in: {text}")
            raw_words.append(_Word(decoded.replace("\\=", "="), word.newline_after, word.gap) if "=" in decoded
                             else word)
            continue
        key = decoded[:equals].strip()
        if check_raw and key not in COMMAND_OPTION_KEYS:
            raw_words.append(word)
        else:
            options[key] = unquote(decoded[equals + 1:].strip())
    if raw_words:
        options[RAW_PARAMS] = _join(raw_words)
    return options


def _join(words: list[_Word]) -> str:
    """The free-form words with the spacing written between them (one space where a line continuation or a
    removed option word was), and a final newline when the text ended with one."""
    parts: list[str] = []
    for index, word in enumerate(words):
        parts.append(word.text)
        if index < len(words) - 1:
            parts.append(word.gap or " ")
        elif "\n" in word.gap:
            parts.append("\n")
    return "".join(parts)


def parse_adhoc_args(text: str, check_raw: bool = False) -> dict[str, Any]:
    """``-a`` of an ad-hoc command: a JSON object (``{"a": 1}``) or ``k=v`` words (see ``parse_kv``)."""
    stripped = text.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        try:
            data = json.loads(stripped)
        except ValueError as exc:
            raise ArgumentSyntaxError(f"arguments look like JSON but do not parse: {exc}") from None
        if not isinstance(data, dict):
            raise ArgumentSyntaxError("JSON arguments must be an object")
        return data
    return parse_kv(stripped, check_raw=check_raw) if stripped else {}
