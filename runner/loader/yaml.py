"""YAML with source positions, read the way Ansible's roles expect.

Parsing uses libyaml (PyYAML's C parser) for speed; the constructor keeps the line and column of every mapping
key, mapping value and sequence item, so any later stage can point at ``file:line:col``. The schema is YAML 1.1
as Ansible reads it with PyYAML: an integer with a leading zero such as ``mode: 0644`` or ``02770`` is octal
(``08`` stays a string), and an unquoted ``yes``/``no``/``on``/``off`` (lower, capitalised or upper case) is a
boolean like ``true``/``false``, while a quoted ``"yes"`` stays a string. A key written twice is an error, and so
is a document whose aliases would multiply it past a bound (``aliases.py``).

Secrets (``runner.secrets``): a whole file encrypted with Ansible Vault or age is decrypted before parsing; an
inline ``!vault |`` value becomes a ``VaultEncryptedValue`` that decrypts when first used; a SOPS-style document
(values encrypted under age, a ``sops`` metadata key) comes back with its values decrypted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from runner.errors import ParseError, SourcePosition
from runner.loader.aliases import check_alias_expansion
from runner.loader.reads import note_read, note_secret
from runner.positions import PositionedDict, PositionedList, Positions
from runner.util.unsafe import mark_unsafe

_BaseLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):
    source_path = "<string>"

    def construct_positioned_mapping(self, node: MappingNode) -> Any:
        mapping = PositionedDict()
        mapping.lc = Positions(node.start_mark.line, node.start_mark.column)
        mapping.source_path = self.source_path
        yield mapping
        # Keys a merge (``<<: *defaults``) brings in may be overridden by the mapping's own; only a key the
        # mapping itself writes twice is an error.
        own = {id(key_node) for key_node, _ in node.value}
        self.flatten_mapping(node)
        written: set[Any] = set()
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise ConstructorError("while constructing a mapping", node.start_mark,
                                       "found an unhashable key", key_node.start_mark) from None
            if id(key_node) in own:
                if key in written:
                    raise ConstructorError("while constructing a mapping", node.start_mark,
                                           f"found duplicate key '{key}'", key_node.start_mark)
                written.add(key)
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.lc.keys[key] = (key_node.start_mark.line, key_node.start_mark.column)
            mapping.lc.values[key] = (value_node.start_mark.line, value_node.start_mark.column)

    def construct_positioned_sequence(self, node: SequenceNode) -> Any:
        sequence = PositionedList()
        sequence.lc = Positions(node.start_mark.line, node.start_mark.column)
        sequence.source_path = self.source_path
        yield sequence
        for child in node.value:
            sequence.append(self.construct_object(child, deep=True))
            sequence.lc.items.append((child.start_mark.line, child.start_mark.column))

    def construct_vault(self, node: Node) -> Any:
        from runner.secrets.encrypted import VaultEncryptedValue

        where = f"{self.source_path}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"
        if not isinstance(node, ScalarNode):
            raise ConstructorError(None, None, "a !vault value must be a string (the vault text, as ansible-vault "
                                   "encrypt_string writes it)", node.start_mark)
        return VaultEncryptedValue(str(node.value), where)

    def construct_unsafe(self, node: Node) -> Any:
        """``!unsafe``: the value (a string, or every string of a list or mapping) is never rendered as a
        template, as in Ansible: ``'{{ x }}'`` stays that text."""
        if isinstance(node, ScalarNode):
            return mark_unsafe(self.construct_scalar(node))
        if isinstance(node, MappingNode):
            return mark_unsafe(self.construct_mapping(node, deep=True))
        return mark_unsafe(self.construct_sequence(node, deep=True))

    def construct_yaml_int(self, node: Node) -> Any:
        text = str(node.value)
        if _NOT_A_NUMBER.match(text):
            return text
        return super().construct_yaml_int(node)


_NOT_A_NUMBER = re.compile(r"^[-+]?0[0-9_]*[89][0-9_]*$")
# An anchor (``&name``) as YAML writes one: at the start of a line or after a space or a flow indicator. Text that
# only looks like one (``a &b`` in a string) costs a needless count, never a missed one.
_ANCHOR = re.compile(r"(?:^|[\s\[\]{},])&[^\s\[\]{},]", re.MULTILINE)

_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_positioned_mapping)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_positioned_sequence)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("!vault", _Loader.construct_vault)
_Loader.add_constructor("!vault-encrypted", _Loader.construct_vault)
_Loader.add_constructor("!unsafe", _Loader.construct_unsafe)

def load_yaml_text(text: str, path: str = "<string>") -> Any:
    """Parse YAML text; a syntax error becomes a ``ParseError`` at the line and column the parser stopped."""
    loader = _Loader(text)
    loader.source_path = path
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _ANCHOR.search(text):  # only a document with an anchor can have aliases; most have none, and skip this
            check_alias_expansion(node, path)
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        if mark is not None and _char_at(text, mark.line, mark.column) == "\t":
            problem += " (tabs are not allowed for indentation)"
        # Ansible's words (scripts grep its output for them)
        raise ParseError(f"YAML parsing failed: {problem[:1].upper()}{problem[1:]}",
                         SourcePosition(path, line, column)) from None
    except yaml.YAMLError as exc:
        raise ParseError(f"YAML parsing failed: {exc}", SourcePosition(path)) from None
    finally:
        loader.dispose()


def _char_at(text: str, line: int, column: int) -> str:
    lines = text.splitlines()
    return lines[line][column:column + 1] if 0 <= line < len(lines) else ""


def load_yaml_file(path: str | Path) -> Any:
    """A YAML file's data; a vault- or age-encrypted file is decrypted first, a SOPS document's values too."""
    try:
        text, encrypted = read_text_and_encryption(path)
    except FileNotFoundError:
        raise ParseError(f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ParseError(f"cannot read {path}: {exc}") from None
    return finish_document(load_yaml_text(text, str(path)), str(path), encrypted=encrypted)


def read_text_and_encryption(path: str | Path) -> tuple[str, bool]:
    """A text file's content, decrypted when it is a vault or an age file (errors name the file), and whether
    it was. ``OSError`` and ``UnicodeDecodeError`` are the caller's to word."""
    data = Path(path).read_bytes()
    encrypted = is_encrypted_start(data)
    note_read(path, data, secret=encrypted)
    if not encrypted:
        return data.decode("utf-8"), False
    from runner.secrets.files import decrypt_bytes

    return decrypt_bytes(data, str(path)).decode("utf-8"), True


def is_encrypted_start(data: bytes) -> bool:
    """Whether ``data`` starts as a vault or an age file does: a cheap test, so that runner.secrets (and
    cryptography) load only for an encrypted file."""
    return _ENCRYPTED_START.match(data) is not None


def read_text_decrypted(path: str | Path) -> str:
    return read_text_and_encryption(path)[0]


def finish_document(data: Any, path: str, *, encrypted: bool) -> Any:
    """Data parsed from ``path``: a SOPS document's values decrypted; the values of a file that was encrypted
    as a whole remembered as secrets, so output hides them."""
    if encrypted:
        from runner.secrets.censor import remember_leaves

        remember_leaves(data)
    return decrypt_document(data, path)


def decrypt_document(data: Any, path: str) -> Any:
    """A SOPS-style document with its values decrypted (and its metadata gone); any other data as it is."""
    if isinstance(data, dict) and "sops" in data:
        from runner.secrets.sops import decrypt_sops_document, is_sops_document

        if is_sops_document(data):
            note_secret(path)
            return decrypt_sops_document(data, path)
    return data


# Cheap test before importing runner.secrets: the vault header, age's binary header or its armor.
_ENCRYPTED_START = re.compile(rb"^(?:\$ANSIBLE_VAULT|age-encryption\.org/v1|\s*-----BEGIN AGE ENCRYPTED FILE-----)")
