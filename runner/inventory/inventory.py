"""The inventory: hosts and groups from every source, host selection by pattern and merged host variables."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from runner.ansible_api.vars_plugins import VarsPluginSetup
from runner.errors import ParseError, SourcePosition, UserError, did_you_mean
from runner.inventory import merge, patterns
from runner.inventory.adjacent_vars import GROUP_VARS, HOST_VARS, AdjacentVars
from runner.inventory.ansible_plugin_setup import AnsiblePluginSetup
from runner.inventory.model import LOCALHOST_NAMES, Group, Host
from runner.util.hash_merge import merge_into

# What may not be in a group name that is also a variable name: Ansible's INVALID_VARIABLE_NAMES
_INVALID_GROUP_CHARS = re.compile(r"^[\d\W]|[^\w]")


class Inventory:
    """Hosts and groups, with ``all`` and ``ungrouped`` always present.

    Every change (``add_host``, ``add_group``, ``add_child``) keeps the graph whole: a group without a parent is
    a child of ``all``, a host in no other group is in ``ungrouped``. Inside ``with inventory.batch():`` that
    bookkeeping waits until the block ends, which is how sources are read. Results of ``get_hosts``,
    ``host_vars`` and ``groups_dict`` are cached until the next change; after editing ``Host.vars`` or
    ``Group.vars`` directly, call ``refresh()``.
    """

    # Caches, emptied by every change (_clear_caches)
    _selections: dict[tuple[tuple[str, ...], str | None], list[Host]]
    _group_hosts: dict[str, list[Host]]
    _order: dict[Host, int]
    _host_vars: dict[Host, dict[str, Any]]
    _group_vars: dict[tuple[Group, ...], dict[str, Any]]
    _groups: dict[str, list[str]] | None

    def __init__(self, playbook_dir: Path | None = None, invalid_group_chars: str = "never", *,
                 hash_merge: bool = False) -> None:
        self.invalid_group_chars = invalid_group_chars  # the transform_invalid_group_chars setting
        self.hash_merge = hash_merge  # hash_behaviour = merge: mappings from several sources or levels merge
        self.hosts: dict[str, Host] = {}
        self.groups: dict[str, Group] = {}
        self.sources: list[Path] = []
        self.warnings: list[str] = []
        self.parsed: list[str] = []  # the files and host lists read
        self.unparsed: list[str] = []  # those that could not be read, when that is a warning
        self.notes: list[str] = []  # what Ansible shows at -vvv while reading
        self.extra_vars: dict[str, Any] = {}  # -e, for inventory plugins that set use_extra_vars
        # Where inventory plugins written against Ansible's API are found (runner.inventory.ansible_plugin_source)
        self.ansible_plugins = AnsiblePluginSetup()
        # The inventory file being read: hosts first named while it is set remember it (inventory_file).
        self.current_source: Path | None = None
        self._adjacent = AdjacentVars()
        self._adjacent.playbook_dir = playbook_dir
        self._batch_depth = 0
        self._implicit_localhost: Host | None = None
        # Hosts a re-read of the sources dropped while a play still runs on them (see ``keep_dropped``)
        self.dropped: dict[str, Host] = {}
        self._clear_caches()
        with self.batch():
            self.add_group("all")
            self.add_group("ungrouped")

    # -- sources and adjacent variables ------------------------------------------------------------------------

    @property
    def playbook_dir(self) -> Path | None:
        return self._adjacent.playbook_dir

    @playbook_dir.setter
    def playbook_dir(self, path: Path | None) -> None:
        self._adjacent.playbook_dir = path
        self._clear_caches()

    def use_vars_plugins(self, setup: VarsPluginSetup | None) -> None:
        """Vars plugins written against Ansible's API, asked beside the group_vars/host_vars files."""
        self._adjacent.vars_plugins = setup
        self._clear_caches()

    def register_source(self, path: Path) -> None:
        """Remember a source path; its group_vars/ and host_vars/ (inside a directory, beside a file) now apply."""
        self.sources.append(path)
        self._adjacent.inventory_dirs.append(path if path.is_dir() else path.parent)
        self._clear_caches()

    def validate_vars_files(self) -> None:
        """Read every group_vars/host_vars file that applies to a known group or host, so that a broken one is
        reported now rather than when a task first needs the variables."""
        self._adjacent.preload(GROUP_VARS, self.groups)
        self._adjacent.preload(HOST_VARS, self.hosts)

    # -- reading ---------------------------------------------------------------------------------------------------

    def get_host(self, name: str) -> Host | None:
        """The host called ``name``; a localhost-like name the inventory lacks gives the implicit localhost."""
        return self.hosts.get(name) or self.dropped.get(name) or self.localhost(name)

    def keep_dropped(self, before: Inventory) -> None:
        """The hosts of ``before`` (the inventory this one was re-read to replace) that it no longer has, kept
        findable by name with the groups and variables they had: a play that started on them goes on with them, as
        ansible-core's host objects outlive its refresh_inventory. No pattern selects them and no group has them."""
        for name, host in {**before.dropped, **before.hosts}.items():
            if name not in self.hosts:
                self.dropped[name] = host

    def localhost(self, name: str) -> Host | None:
        """What a localhost-like ``name`` (localhost, 127.0.0.1, ::1) stands for when no host has that name: the
        first localhost-like host of the inventory, else an implicit local host that is in no group, not even all."""
        if name not in LOCALHOST_NAMES:
            return None
        if name in self.hosts:
            return self.hosts[name]
        defined = next((host for host_name, host in self.hosts.items() if host_name in LOCALHOST_NAMES), None)
        if defined is not None:
            return defined
        if self._implicit_localhost is None:
            self._implicit_localhost = Host(name, implicit=True, vars={
                "ansible_host": "127.0.0.1",
                "ansible_connection": "local",
                "ansible_python_interpreter": sys.executable or "/usr/bin/python3",
            })
        return self._implicit_localhost

    def get_hosts(self, pattern: str | list[str] = "all", limit: str | None = None) -> list[Host]:
        """The hosts a pattern selects (see ``runner.inventory.patterns``), narrowed by a ``--limit`` value.

        A pattern without terms (``''``, ``',,'``) selects every host, as Ansible's does."""
        terms = patterns.split_pattern(pattern)
        key = (tuple(terms), limit)
        if key not in self._selections:
            hosts = patterns.select(self, terms)
            if limit:
                allowed = set(patterns.select(self, patterns.limit_terms(limit)))
                hosts = [host for host in hosts if host in allowed]
            self._selections[key] = hosts
        return list(self._selections[key])

    def check_limit(self, limit: str | None, pattern: str = "all") -> None:
        """Refuse a ``--limit`` that leaves none of the hosts ``pattern`` selects, as Ansible does before running
        anything (an empty inventory is not refused: the implicit localhost may still be named)."""
        if limit and self.hosts and not self.get_hosts(pattern, limit=limit):
            raise UserError(f"Specified inventory, host pattern and/or --limit leaves us with no hosts to target "
                            f"(--limit {limit!r} matches none of the inventory's hosts).")

    def unmatched_terms(self, pattern: str | list[str]) -> list[str]:
        """The terms of ``pattern`` that name no group and match no host (see ``host_pattern_mismatch``)."""
        return patterns.unmatched_terms(self, patterns.split_pattern(pattern))

    def hosts_in(self, group: Group) -> list[Host]:
        """The hosts of a group and of all groups below it, in inventory order."""
        if group.name not in self._group_hosts:
            if group is self.groups["all"]:
                members: list[Host] = list(self.hosts.values())
            else:
                members = self.in_order(host for member in group.descendants() for host in member.hosts)
            self._group_hosts[group.name] = members
        return self._group_hosts[group.name]

    def in_order(self, hosts: Iterable[Host]) -> list[Host]:
        """``hosts`` without repeats, in the order the inventory first named them (an implicit host last)."""
        if not self._order:
            self._order = {host: index for index, host in enumerate(self.hosts.values())}
        unique = dict.fromkeys(hosts)
        return sorted(unique, key=lambda host: self._order.get(host, len(self._order)))

    def host_vars(self, name: str) -> dict[str, Any]:
        """The host's inventory variables merged in Ansible's order (see ``runner.inventory.merge``), with
        inventory_hostname, inventory_hostname_short, group_names, inventory_dir and inventory_file."""
        host = self.get_host(name)
        if host is None:
            raise UserError(f"unknown host '{name}'", hint=did_you_mean(name, list(self.hosts)))
        if host not in self._host_vars:
            groups = tuple(merge.sort_groups(group for group in host.all_groups() if group.name != "all"))
            if groups not in self._group_vars:
                self._group_vars[groups] = merge.merged_group_vars(self.groups["all"], list(groups), self._adjacent,
                                                                   self.hash_merge)
            merged = dict(self._group_vars[groups])
            merge_into(merged, merge.merged_host_vars(host, self._adjacent, self.hash_merge), self.hash_merge)
            self._host_vars[host] = merged
        return dict(self._host_vars[host])

    def own_vars(self, entity: Host | Group) -> dict[str, Any]:
        """A host's or group's own variables (inventory source and its host_vars/group_vars files), unmerged."""
        if isinstance(entity, Group):
            return merge.own_group_vars(entity, self._adjacent, self.hash_merge)
        return merge.own_host_vars(entity, self._adjacent, self.hash_merge)

    def groups_dict(self) -> dict[str, list[str]]:
        """The ``groups`` variable: every group's host names (child groups' hosts included). Shared: do not modify."""
        if self._groups is None:
            self._groups = {name: [host.name for host in self.hosts_in(group)] for name, group in self.groups.items()}
        return self._groups

    # -- changing ----------------------------------------------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator[Inventory]:
        """Make many changes and tidy the graph once, at the end."""
        self._batch_depth += 1
        try:
            yield self
        finally:
            self._batch_depth -= 1
            if not self._batch_depth:
                self.refresh()

    def add_group(self, name: str) -> Group:
        """The group called ``name``, created (as a child of ``all``) if it does not exist; a name that is not a
        valid variable name is kept or made one as ``invalid_group_chars`` says."""
        name = self._group_name(name)
        group = self.groups.get(name)
        if group is None:
            group = self.groups[name] = Group(name, merge_vars=self.hash_merge)
            self._changed()
        return group

    def add_host(self, name: str, groups: Sequence[str] = (), variables: dict[str, Any] | None = None) -> Host:
        """The host called ``name``, created if needed, put in ``groups`` (created if needed) and given
        ``variables`` over its own."""
        host = self.hosts.get(name)
        if host is None:
            host = self.hosts[name] = Host(name, source=self.current_source)
        for group_name in groups:
            self._put(host, self.add_group(group_name))
        if variables:
            merge_into(host.vars, variables, self.hash_merge)
        self._changed()
        return host

    def add_child(self, parent: str, child: str, *, position: SourcePosition | None = None) -> None:
        """Make group ``child`` a child of group ``parent`` (created if needed), or put host ``child`` in it."""
        parent_group = self.add_group(parent)
        if child == "all":
            raise ParseError(f"group 'all' cannot be a child of '{parent}': every group is already below it", position)
        if child in self.groups:
            child_group = self.groups[child]
            if child_group in parent_group.ancestors() or child_group is parent_group:
                raise ParseError(f"making group '{child}' a child of '{parent}' would make a loop", position)
            if child_group not in parent_group.children:
                parent_group.children.append(child_group)
                child_group.parents.append(parent_group)
        elif child in self.hosts:
            self._put(self.hosts[child], parent_group)
        else:
            raise UserError(f"'{child}' is neither a group nor a host of the inventory", position)
        self._changed()

    def refresh(self) -> None:
        """Tidy the graph after changes and forget every cached result."""
        all_group, ungrouped = self.groups["all"], self.groups["ungrouped"]
        for group in self.groups.values():
            if group is not all_group and not group.parents:
                all_group.children.append(group)
                group.parents.append(all_group)
        for host in self.hosts.values():
            grouped = any(group is not all_group and group is not ungrouped for group in host.groups)
            if grouped and ungrouped in host.groups:
                host.groups.remove(ungrouped)
                ungrouped.hosts.remove(host)
            elif not grouped and ungrouped not in host.groups:
                self._put(host, ungrouped)
            if host.name in LOCALHOST_NAMES:
                self._implicit_localhost = None
        for name in self.groups.keys() & self.hosts.keys():
            self._warn(f"found both a group and a host called '{name}'")
        self._clear_caches()

    def _put(self, host: Host, group: Group) -> None:
        if group not in host.groups:
            host.groups.append(group)
            group.hosts.append(host)

    def _changed(self) -> None:
        self._clear_caches()
        if not self._batch_depth:
            self.refresh()

    def _clear_caches(self) -> None:
        self._selections = {}
        self._group_hosts = {}
        self._order = {}
        self._host_vars = {}
        self._group_vars = {}
        self._groups = None

    def _group_name(self, name: str) -> str:
        if name in self.groups or not _INVALID_GROUP_CHARS.search(name):
            return name
        # Ansible's words, which its users know and grep for
        if self.invalid_group_chars in ("always", "silently"):
            if self.invalid_group_chars == "always":
                self._warn("Invalid characters were found in group names and automatically replaced, "
                           "use -vvvv to see details")
            return _INVALID_GROUP_CHARS.sub("_", name)
        if self.invalid_group_chars == "never":
            self._warn("Invalid characters were found in group names but not replaced, use -vvvv to see details")
        return name

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
