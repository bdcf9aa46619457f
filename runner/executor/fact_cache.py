"""The fact cache: what hosts' facts and ``set_fact: cacheable: true`` values were, kept between runs.

``memory`` (the default) keeps them for the run only, which is what ``gathering = smart`` needs to gather a host
once per run. ``jsonfile`` also writes one file per host to the ``fact_caching_connection`` directory, named and
laid out as ansible-core 2.19's jsonfile cache writes it, so either runner reads what the other wrote:
``<prefix>s1_<host>`` holding ``{"__payload__": "<JSON of the facts>"}``, gathered facts under their
``ansible_`` names, cacheable set_fact values under their own, and ``_ansible_facts_gathered`` once the host's
facts were gathered. A file older than ``fact_caching_timeout`` seconds (0: never) is not read.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.errors import OptionError

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
    """The run's fact cache; ``directory`` None keeps it in memory only (the ``memory`` plugin)."""

    def __init__(self, directory: Path | None = None, *, prefix: str = "", timeout: int = 86400,
                 warn: Callable[[str], None] = lambda message: None):
        self.directory = directory
        self.prefix = prefix
        self.timeout = timeout
        self.warn = warn
        self.hosts: dict[str, CachedHost] = {}

    def path(self, host: str) -> Path:
        assert self.directory is not None
        return self.directory / f"{self.prefix}{SCHEMA_PREFIX}{host}"

    # -- reading -----------------------------------------------------------------------------------------
    def load(self, hosts: Iterable[str]) -> dict[str, CachedHost]:
        """Read the cache entries of ``hosts`` that exist and have not expired; a file that cannot be read is
        warned about and left out (the host's facts are gathered again and the file rewritten)."""
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
        if self.directory is not None:
            try:
                self.path(host).unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                self.warn(f"fact cache file {self.path(host)} cannot be removed: {exc}")

    def _write(self, host: str, cached: CachedHost) -> None:
        """Written whole to a temporary file that then replaces the entry, so a reader never sees half a file."""
        if self.directory is None:
            return
        text = json.dumps({PAYLOAD_KEY: json.dumps(cached.payload(), default=str)})
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
                    warn: Callable[[str], None]) -> FactCache:
    """The cache the settings name; jsonfile's directory is made when missing, and must be usable."""
    if plugin == "memory":
        return FactCache(warn=warn)
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


def _decode(entry: Any) -> Any:
    """ansible-core's entry: the payload JSON inside; its tagged values (``{"__ansible_type": ..., "value":
    ...}``, as 2.19 keeps a value's origin) become their plain value. An entry without a payload is read as it
    is (the layout of ansible-core before 2.19)."""
    if isinstance(entry, dict) and PAYLOAD_KEY in entry:
        entry = json.loads(entry[PAYLOAD_KEY])
    return _untag(entry)


def _untag(value: Any) -> Any:
    if isinstance(value, dict):
        if "__ansible_type" in value and "value" in value:
            return _untag(value["value"])
        return {key: _untag(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_untag(item) for item in value]
    return value
