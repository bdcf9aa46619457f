"""The fact cache: what hosts' facts and ``set_fact: cacheable: true`` values were, kept between runs.

``memory`` (the default) keeps them for the run only, which is what ``gathering = smart`` needs to gather a host
once per run. ``jsonfile`` also writes one file per host to the ``fact_caching_connection`` directory, named and
laid out as ansible-core 2.19's jsonfile cache writes it, so either runner reads what the other wrote:
``<prefix>s1_<host>`` holding ``{"__payload__": "<JSON of the facts>"}``, gathered facts under their
``ansible_`` names, cacheable set_fact values under their own, and ``_ansible_facts_gathered`` once the host's
facts were gathered. A file older than ``fact_caching_timeout`` seconds (0: never) is not read. Any other name is
a cache plugin written against Ansible's Python API (``runner.ansible_api.cache_plugins``), given the same
entries under the same keys; it keeps them (and lets them expire) as it will.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.ansible_api.cache_plugins import PluginStore, file_safe_key
from runner.errors import OptionError, SourcePosition
from runner.util.unsafe import DescribedText

ORIGIN_TAG = "Origin"
# ansible-core's cache schema (its PluginInterposer): the key prefix and the key wrapping the serialized facts
SCHEMA_PREFIX = "s1_"
PAYLOAD_KEY = "__payload__"
GATHERED_FLAG = "_ansible_facts_gathered"
FACT_PREFIX = "ansible_"


@dataclass
class CachedHost:
    """One host's cached state: gathered facts (without the ``ansible_`` prefix, as the run keeps them) and the
    values cacheable set_facts gave it."""

    facts: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    gathered: bool = False

    def payload(self) -> dict[str, Any]:
        """The cache entry as ansible-core writes it: facts under their ``ansible_`` names."""
        entry = {name if name.startswith(FACT_PREFIX) else FACT_PREFIX + name: value
                 for name, value in self.facts.items()}
        entry.update(self.values)
        if self.gathered:
            entry[GATHERED_FLAG] = True
        return entry

    @classmethod
    def from_payload(cls, entry: Mapping[str, Any]) -> CachedHost:
        facts = {name[len(FACT_PREFIX):]: value for name, value in entry.items() if name.startswith(FACT_PREFIX)}
        values = {name: value for name, value in entry.items()
                  if not name.startswith(FACT_PREFIX) and name != GATHERED_FLAG}
        return cls(facts, values, gathered=bool(entry.get(GATHERED_FLAG)))


class FactCache:
    """The run's fact cache; ``directory`` None keeps it in memory only (the ``memory`` plugin), unless ``store``
    (an Ansible cache plugin) keeps it."""

    def __init__(self, directory: Path | None = None, *, prefix: str = "", timeout: int = 86400,
                 warn: Callable[[str], None] = lambda message: None, store: PluginStore | None = None):
        self.directory = directory
        self.store = store
        self.prefix = prefix
        self.timeout = timeout
        self.warn = warn
        self.hosts: dict[str, CachedHost] = {}

    def path(self, host: str) -> Path:
        assert self.directory is not None
        # a host name that could leave the folder (``..``, ``/my/chroot``) is hashed, as ansible-core 2.21 does
        return self.directory / f"{self.prefix}{file_safe_key(SCHEMA_PREFIX + host)}"

    # -- reading -----------------------------------------------------------------------------------------
    def load(self, hosts: Iterable[str]) -> dict[str, CachedHost]:
        """Read the cache entries of ``hosts`` that exist and have not expired; a file that cannot be read is
        warned about and left out (the host's facts are gathered again and the file rewritten)."""
        if self.store is not None:
            return self._load_from_store(hosts)
        if self.directory is None:
            return {}
        for host in hosts:
            path = self.path(host)
            try:
                if self.timeout and time.time() - path.stat().st_mtime > self.timeout:
                    continue
                entry = _decode(json.loads(path.read_text(encoding="utf-8")))
            except FileNotFoundError:
                continue
            except (OSError, ValueError, TypeError, KeyError) as exc:
                self.warn(f"fact cache file {path} cannot be read, ignored: {exc}")
                continue
            if isinstance(entry, dict):
                self.hosts[host] = CachedHost.from_payload(entry)
        return dict(self.hosts)

    def _load_from_store(self, hosts: Iterable[str]) -> dict[str, CachedHost]:
        assert self.store is not None
        for host in hosts:
            try:
                entry = _decode(self.store.get(self._key(host)))
            except (ValueError, TypeError, KeyError) as exc:  # not an entry ours or ansible-core wrote
                self.warn(f"fact cache entry {self._key(host)!r} cannot be read, ignored: {exc}")
                continue
            if isinstance(entry, dict):
                self.hosts[host] = CachedHost.from_payload(entry)
        return dict(self.hosts)

    def _key(self, host: str) -> str:
        """A plugin's key: ansible-core 2.19's schema prefix for one that persists."""
        return f"{SCHEMA_PREFIX}{host}" if self.store is not None and self.store.persistent else host

    def gathered(self, host: str) -> bool:
        cached = self.hosts.get(host)
        return cached is not None and cached.gathered

    # -- writing -----------------------------------------------------------------------------------------
    def update(self, host: str, *, facts: Mapping[str, Any] | None = None, values: Mapping[str, Any] | None = None,
               gathered: bool = False) -> None:
        cached = self.hosts.setdefault(host, CachedHost())
        cached.facts.update(facts or {})
        cached.values.update(values or {})
        cached.gathered = cached.gathered or gathered
        self._write(host, cached)

    def clear(self, host: str) -> None:
        """``meta: clear_facts`` and ``--flush-cache``: the host's entry goes, from memory and from disk."""
        self.hosts.pop(host, None)
        if self.store is not None:
            self.store.delete(self._key(host))
        elif self.directory is not None:
            try:
                self.path(host).unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                self.warn(f"fact cache file {self.path(host)} cannot be removed: {exc}")

    def _write(self, host: str, cached: CachedHost) -> None:
        """Written whole to a temporary file that then replaces the entry, so a reader never sees half a file."""
        payload = json.dumps(_tagged(cached.payload()), default=str)
        if self.store is not None:
            self.store.set(self._key(host), {PAYLOAD_KEY: payload} if self.store.persistent else json.loads(payload))
            return
        if self.directory is None:
            return
        text = json.dumps({PAYLOAD_KEY: payload})
        try:
            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    stream.write(text)
                os.chmod(temporary, 0o644)
                os.replace(temporary, self.path(host))
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError as exc:
            self.warn(f"fact cache file {self.path(host)} cannot be written: {exc}")


def make_fact_cache(plugin: str, connection: Path | None, *, prefix: str, timeout: int,
                    warn: Callable[[str], None], plugin_dirs: Sequence[Path] = (),
                    collections_paths: Sequence[Path] = ()) -> FactCache:
    """The cache the settings name; jsonfile's directory is made when missing, and must be usable. Another name is
    an Ansible cache plugin, looked for beside the playbook (``plugin_dirs``) and in the collections; one that
    cannot be loaded is warned about and the run keeps its facts in memory, as ansible-core does."""
    plugin = BUILTIN_NAMES.get(plugin, plugin)
    if plugin == "memory":
        return FactCache(warn=warn)
    if plugin != "jsonfile":
        from runner.ansible_api.cache_plugins import CachePluginError, load_cache_plugin

        try:
            store = PluginStore(load_cache_plugin(plugin, plugin_dirs, collections_paths))
        except CachePluginError as exc:
            warn(exc.message)
            return FactCache(warn=warn)
        return FactCache(warn=warn, store=store)
    if connection is None:
        raise OptionError("the 'jsonfile' fact cache needs fact_caching_connection "
                          "(ANSIBLE_CACHE_PLUGIN_CONNECTION): a writable directory")
    directory = Path(connection).expanduser()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"fact_caching_connection {str(directory)!r} cannot be made a directory: {exc}") from exc
    if not os.access(directory, os.R_OK | os.W_OK | os.X_OK):
        raise OptionError(f"fact_caching_connection {str(directory)!r} is not a readable and writable directory")
    return FactCache(directory, prefix=prefix, timeout=timeout, warn=warn)


# ansible-core's own cache plugins, which this runner has built in
BUILTIN_NAMES = {f"{collection}.{name}": name for collection in ("ansible.builtin", "ansible.legacy")
                 for name in ("memory", "jsonfile")}


def _decode(entry: Any) -> Any:
    """ansible-core's entry: the payload JSON inside; its tagged values (``{"__ansible_type": ..., "value":
    ...}``, as 2.19 keeps a value's origin) become their plain value. An entry without a payload is read as it
    is (the layout of ansible-core before 2.19)."""
    if isinstance(entry, dict) and PAYLOAD_KEY in entry:
        entry = json.loads(entry[PAYLOAD_KEY])
    return _untag(entry)


def _untag(value: Any) -> Any:
    """A tagged value as its plain value; text whose tags say where it came from (``Origin``) keeps that, as
    ``DescribedText`` (``ansible._protomatter.tagged_with "Origin"`` holds for it, as in ansible-core)."""
    if isinstance(value, dict):
        if "__ansible_type" in value and "value" in value:
            plain = _untag(value["value"])
            origin = _origin_text(value.get("tags"))
            return DescribedText(plain, origin) if isinstance(plain, str) and origin else plain
        return {key: _untag(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_untag(item) for item in value]
    return value


def _origin_text(tags: Any) -> str | None:
    for tag in tags if isinstance(tags, list) else ():
        if isinstance(tag, dict) and tag.get("__ansible_type") == ORIGIN_TAG:
            if tag.get("path"):
                return ":".join(str(part) for part in (tag["path"], tag.get("line_num"), tag.get("col_num"))
                                if part is not None)
            if tag.get("description"):
                return str(tag["description"])
    return None


def _tagged(value: Any) -> Any:
    """``value`` for the cache's JSON: text that says where it came from is written with its ``Origin`` tag, in
    ansible-core 2.19's form, so that either runner reading it back knows."""
    if isinstance(value, Mapping):
        return {key: _tagged(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_tagged(item) for item in value]
    if isinstance(value, DescribedText) and value.origin:
        return {"value": str(value), "tags": [_origin_tag(value.origin)], "__ansible_type": "_AnsibleTaggedStr"}
    return value


def _origin_tag(origin: str) -> dict[str, Any]:
    position = SourcePosition.parse(origin)
    if position is None or position.line is None or origin.startswith("<"):
        return {"description": origin, "__ansible_type": ORIGIN_TAG}
    tag: dict[str, Any] = {"path": position.path, "line_num": position.line}
    if position.column is not None:
        tag["col_num"] = position.column
    return {**tag, "__ansible_type": ORIGIN_TAG}


def with_origin(values: Mapping[str, Any], position: str) -> dict[str, Any]:
    """A cacheable set_fact's ``values``, each text without an origin of its own said to come from the task at
    ``position``: ansible-core tags each with where it was written, which a plan keeps for the task only."""
    return {name: DescribedText(value, position) if type(value) is str and position else value
            for name, value in values.items()}
