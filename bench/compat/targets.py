"""Integration targets as ansible-test sees them: kind, aliases, and the other targets each one needs beside it."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from bench.compat.sdist import ANSIBLE_CORE_VERSION

# ansible-test treats these as support roles, never run on their own (target.py: hidden role targets)
SUPPORT_PREFIXES = ("setup_", "prepare_")
# Folders whose files are written against Ansible's Python API: modules, module_utils, and plugins of any kind
# (filter_plugins, lookup_plugins, action_plugins ...), anywhere in a target (its roles' too).
API_PLUGIN_FOLDERS = ("library", "module_utils")
API_PLUGIN_SUFFIX = "_plugins"


@dataclass(frozen=True)
class Target:
    name: str
    path: Path

    @property
    def is_script(self) -> bool:
        """A ``runme.sh`` target; otherwise a role target (``tasks/main.yml``)."""
        return (self.path / "runme.sh").exists()

    @property
    def is_role(self) -> bool:
        return not self.is_script and (self.path / "tasks" / "main.yml").exists()

    @cached_property
    def aliases(self) -> tuple[str, ...]:
        """The ``aliases`` lines without comments; each also with a trailing ``/`` as ansible-test matches them."""
        path = self.path / "aliases"
        if not path.exists():
            return ()
        lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
        return tuple(line for line in lines if line)

    def has_alias(self, prefix: str) -> bool:
        """True when an alias is ``prefix`` or starts with ``prefix/`` (``skip/macos`` matches ``skip``)."""
        return any(alias == prefix or alias.startswith(prefix.rstrip("/") + "/") for alias in self.aliases)

    def alias_values(self, prefix: str) -> list[str]:
        """The third part of ``prefix/x/...`` aliases: ``needs/target/setup_foo`` gives ``setup_foo``."""
        head = prefix.rstrip("/") + "/"
        return [alias[len(head):].split("/")[0] for alias in self.aliases if alias.startswith(head)]

    @property
    def is_support(self) -> bool:
        return self.name.startswith(SUPPORT_PREFIXES) or self.has_alias("hidden")

    @property
    def gather_facts(self) -> bool:
        """ansible-test gathers facts for a role target unless its aliases say ``gather_facts/no``."""
        return not self.has_alias("gather_facts/no")

    @property
    def setup_targets(self) -> list[str]:
        """Targets ansible-test runs before this one (``setup/once/X``, ``setup/always/X``)."""
        return self.alias_values("setup/once") + self.alias_values("setup/always")

    @property
    def env_set(self) -> dict[str, str]:
        """``env/set/NAME/VALUE`` aliases: variables ansible-test sets for this target."""
        found = {}
        for alias in self.aliases:
            if alias.startswith("env/set/"):
                name, _, value = alias[len("env/set/"):].partition("/")
                found[name] = value
        return found

    @cached_property
    def ships_api_plugins(self) -> bool:
        """Whether the target brings code written against Ansible's Python API: a ``library/``, ``module_utils/``
        or ``*_plugins/`` folder anywhere under it, or a collection (under an ``ansible_collections`` folder)
        with ``plugins/``."""
        for root, dirs, _ in os.walk(self.path):
            in_collection = "ansible_collections" in Path(root).relative_to(self.path).parts
            for name in dirs:
                if name in API_PLUGIN_FOLDERS or name.endswith(API_PLUGIN_SUFFIX):
                    return True
                if in_collection and name == "plugins":
                    return True
        return False

    def text_files(self, folder: str) -> list[str]:
        """The text of every readable file under ``folder`` of the target (for dependency scanning)."""
        texts = []
        for root, _, files in os.walk(self.path / folder):
            for name in files:
                try:
                    texts.append((Path(root) / name).read_text())
                except (UnicodeDecodeError, OSError):
                    continue
        return texts


class TargetSet:
    """Every target under ``test/integration/targets`` of the sdist of ansible-core ``version``."""

    def __init__(self, root: Path, version: str = ANSIBLE_CORE_VERSION):
        self.root = root
        self.version = version
        self.targets = {path.name: Target(path.name, path) for path in sorted(root.iterdir()) if path.is_dir()}

    def __getitem__(self, name: str) -> Target:
        return self.targets[name]

    def __contains__(self, name: str) -> bool:
        return name in self.targets

    def __iter__(self):
        return iter(self.targets.values())

    def direct_needs(self, target: Target) -> set[str]:
        """What ansible-test copies beside a target: ``needs/target``, setup targets, support roles its meta
        files name (it scans their lines, not the YAML), and targets its symlinks point into."""
        needed = set(target.alias_values("needs/target")) | set(target.setup_targets)
        support = [name for name, other in self.targets.items() if other.is_support]
        for text in target.text_files("meta"):
            lines = [line for line in text.splitlines() if line.strip() and not re.match(r"^ *#", line)]
            needed.update(name for name in support for line in lines if name in line)
        real_root = str(self.root.resolve()) + "/"
        for root, dirs, files in os.walk(target.path):
            for name in dirs + files:
                path = Path(root) / name
                if path.is_symlink():
                    real = str(path.resolve())
                    if real.startswith(real_root):
                        needed.add(real[len(real_root):].split("/")[0])
        needed.discard(target.name)
        return {name for name in needed if name in self.targets}

    def dependencies(self, target: Target) -> list[str]:
        """The transitive closure of ``direct_needs``, sorted."""
        found: set[str] = set()
        pending = [target.name]
        while pending:
            for name in self.direct_needs(self.targets[pending.pop()]):
                if name not in found and name != target.name:
                    found.add(name)
                    pending.append(name)
        return sorted(found)
