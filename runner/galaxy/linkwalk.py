"""Where a path inside an archive really leads, once the symlinks the archive holds are followed.

A symlink's target cannot be judged by its text alone: with ``sub/lnk -> .`` in the archive,
``x -> sub/lnk/../../outside`` normalises to ``outside`` as text, yet the filesystem resolves ``sub/lnk/..`` to
the role itself and the next ``..`` to its parent. ``LinkTable`` resolves a path the way the kernel would, one
component at a time through the links recorded so far, and bounds the number of links followed so that a loop
(``a -> b``, ``b -> a``) ends with an answer instead of running forever.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

MAX_LINK_HOPS = 40  # the kernel's own bound (MAXSYMLINKS) for one path lookup


class LinkEscape(Exception):
    """The path leaves the root once its links are followed; ``target`` is the absolute or ``..`` path it reached."""

    def __init__(self, target: str):
        super().__init__(target)
        self.target = target


class LinkLoop(Exception):
    """Following the path's links took more than ``MAX_LINK_HOPS`` steps: a loop of symlinks."""


@dataclass
class LinkTable:
    """The symlinks of an archive, by normalised member name, and the resolution of paths through them."""

    links: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, target: str) -> None:
        self.links[name] = target

    def resolve(self, path: str) -> str:
        """``path`` (relative to the root) with every symlink followed; ``""`` is the root itself.

        Raises ``LinkEscape`` when an absolute target or a ``..`` takes it out of the root, ``LinkLoop`` when the
        links do not end.
        """
        resolved: list[str] = []
        pending = _components(path)
        hops = 0
        while pending:
            part = pending.pop(0)
            if part == "..":
                if not resolved:
                    raise LinkEscape(posixpath.join("..", *pending))
                resolved.pop()
                continue
            candidate = "/".join([*resolved, part])
            target = self.links.get(candidate)
            if target is None:
                resolved.append(part)
                continue
            hops += 1
            if hops > MAX_LINK_HOPS:
                raise LinkLoop(path)
            if posixpath.isabs(target):
                raise LinkEscape(target)
            # A link's target is relative to the directory holding the link: what is resolved so far.
            pending = _components(target) + pending
        return "/".join(resolved)


def _components(path: str) -> list[str]:
    return [part for part in path.split("/") if part not in ("", ".")]
