"""A bound on how far YAML aliases may multiply a document (the "billion laughs" alias bomb).

An alias is a reference: ``&a [x, x]`` used ten times is one list, shared, once loaded. Whatever later walks the
data as a tree instead (JSON for ``--plan``, a module's arguments, a report, a rendered template) meets it ten
times, so nine nested levels of ten aliases each turn 100 bytes of YAML into 10^9 values. The document is
measured before it is built, on its node graph: the number of values it would hold if every alias were a copy.
The aliases may add at most ``MAX_ALIAS_VALUES`` to what the document writes itself, so a document without
aliases is never limited, and whatever copies the data stays within its size plus that bound. A value that
contains an alias to itself is refused too: anything that copies it never ends (Ansible loads it, and hangs
or fails only once something copies it).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

from runner.errors import ParseError, SourcePosition

MAX_ALIAS_VALUES = 1_000_000

def _children(node: Node) -> list[Node]:
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return node.value


def check_alias_expansion(root: Node, path: str) -> None:
    """Raise ``ParseError`` when the aliases of the document ``root`` expand it beyond the bound, or make it
    contain itself.

    Only collections can multiply a document, so only they are tracked; a scalar counts as one value wherever it
    is written or aliased.
    """
    if isinstance(root, ScalarNode):
        return
    sizes: dict[int, int] = {}  # collection id -> values it holds, aliases counted as copies (set once done)
    uses: dict[int, int] = {}  # collection id -> how many places refer to it
    nodes: dict[int, Node] = {}  # collection id -> node, for every collection entered so far
    written = 1  # values as the text writes them (the root, then each collection's entries): an alias is one
    stack = [root]
    # Depth first without recursion: a document may nest deeper than Python's stack allows.
    while stack:
        node = stack[-1]
        key = id(node)
        if key not in nodes:
            nodes[key] = node
            children = _children(node)
            written += len(children)
            for child in children:
                if isinstance(child, ScalarNode):
                    continue
                child_key = id(child)
                uses[child_key] = uses.get(child_key, 0) + 1
                if child_key not in nodes:
                    stack.append(child)
                elif child_key not in sizes:
                    raise ParseError("a YAML alias here refers to a value that contains it (a recursive "
                                     "structure): such a value has no end", _position(path, child))
            continue
        stack.pop()
        if key not in sizes:
            sizes[key] = 1 + sum(1 if isinstance(child, ScalarNode) else sizes[id(child)]
                                 for child in _children(node))
    added = sizes[id(root)] - written
    if added <= MAX_ALIAS_VALUES:
        return
    # Point at the anchored value whose repetition costs the most: the alias that makes the bomb.
    worst = max((key for key, count in uses.items() if count > 1), key=lambda key: sizes[key] * (uses[key] - 1))
    raise ParseError(f"YAML aliases expand this document to {sizes[id(root)]:,} values from the {written:,} it "
                     f"writes, more than the {MAX_ALIAS_VALUES:,} that aliases may add (an alias bomb?); the value "
                     f"anchored here is used {uses[worst]:,} times", _position(path, nodes[worst]))


def _position(path: str, node: Node) -> SourcePosition:
    return SourcePosition(path, node.start_mark.line + 1, node.start_mark.column + 1)


def bounded_safe_load(text: str, source: str, *, all_documents: bool = False) -> Any:
    """``yaml.safe_load`` (or ``safe_load_all`` as a list) of text that is not a file, such as a ``from_yaml``
    filter's input, with each document measured as files are; ``source`` names it in the error."""
    loader = yaml.SafeLoader(text)
    try:
        if not all_documents:
            node = loader.get_single_node()
            if node is None:
                return None
            check_alias_expansion(node, source)
            return loader.construct_document(node)
        documents = []
        while loader.check_node():
            node = loader.get_node()
            assert node is not None  # check_node() said a document follows
            check_alias_expansion(node, source)
            documents.append(loader.construct_document(node))
        return documents
    finally:
        loader.dispose()
