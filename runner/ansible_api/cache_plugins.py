"""Fact cache plugins written against Ansible's Python API (``CacheModule`` subclassing ansible-core's
``BaseCacheModule``), run as ansible-core runs them.

``fact_caching`` (``ANSIBLE_CACHE_PLUGIN``) naming another plugin than this runner's ``memory`` and ``jsonfile`` is
looked for by ansible-core's own cache loader: in its configured folders (``ANSIBLE_CACHE_PLUGINS``), a
``cache_plugins/`` folder beside the playbook and, for a ``NS.COLL.NAME``, the collections path. That loader wraps
a persistent plugin as ansible-core 2.19 does (keys ``s1_<host>``, values ``{"__payload__": JSON}``), and the
plugin reads its options from ansible-core's configuration (``ANSIBLE_CACHE_PLUGIN_CONNECTION``, ansible.cfg's
``fact_caching_*``), which warns, as ansible-core does, of the deprecated ones. ansible-core is the user's install:
without it such a setting is an error that says what to install.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from runner.ansible_api.core import INSTALL_HINT, installed
from runner.ansible_api.plugin_import import use_collections_paths
from runner.errors import UserError


class CachePluginError(UserError):
    """A cache plugin that cannot be loaded, or whose storage failed, in the words of ansible-core's error."""


def load_cache_plugin(name: str, plugin_dirs: Sequence[Path], collections_paths: Sequence[Path]) -> Any:
    """Cache plugin ``name``, instantiated by ansible-core's cache loader (interposed as ansible-core does)."""
    if not installed():
        raise UserError(
            f"fact_caching {name!r} is not built in (memory, jsonfile); a cache plugin written against "
            "Ansible's Python API needs ansible-core on the controller",
            hint=INSTALL_HINT,
        )
    from ansible.plugins.loader import add_all_plugin_dirs, cache_loader

    use_collections_paths(collections_paths)
    for directory in plugin_dirs:
        add_all_plugin_dirs(str(directory))  # its cache_plugins/ (and the other kinds' folders), as ansible-core
    try:
        return cache_loader.get(name)
    except Exception as exc:  # the plugin's own code: any error it raises is the user's to see
        raise CachePluginError(_message(exc)) from None


# What makes a key unsafe as a file name, as ansible-core 2.21's BaseFileCacheModule sees it
_PATH_CHARS = ("/", "..", "<", ">", "|")


def file_safe_key(key: str) -> str:
    """ansible-core 2.21's ``_sanitize_key``: a key that could leave the cache's folder (``..``, ``/my/chroot``)
    becomes the start of its sha256 (as long as the key, at least 12 characters); any other stays as it is."""
    if any(invalid in key for invalid in _PATH_CHARS):
        return hashlib.sha256(key.encode()).hexdigest()[: max(len(key), 12)]
    return key


class PluginStore:
    """An Ansible cache plugin's storage, by key; its errors are CachePluginErrors.

    ``persistent``: whether the plugin keeps entries between runs, and so wants ansible-core 2.19's schema (keys
    ``s1_<host>``, the entry's JSON as ``{"__payload__": ...}``), which the fact cache writes itself here. The
    plugin is used without ansible-core's interposer, which would read the payload into its own tagged types.
    """

    def __init__(self, plugin: Any):
        self.plugin = getattr(plugin, "__wrapped__", plugin)
        self.persistent = bool(getattr(self.plugin, "_persistent", True))
        # A file-based plugin on an ansible-core before 2.21, whose base class uses keys as file names as they
        # are: given them made safe as 2.21's makes them, so its files are named as under 2.21 (which ours follows)
        self._safe_keys = _file_based(self.plugin) and not hasattr(self.plugin, "_sanitize_key")

    def _key(self, key: str) -> str:
        return file_safe_key(key) if self._safe_keys else key

    def get(self, key: str) -> Any:
        """The stored entry, or None when there is none (or it expired: the plugin says so by a KeyError)."""
        try:
            return self.plugin.get(self._key(key))
        except KeyError:
            return None
        except Exception as exc:  # the plugin's own code
            raise CachePluginError(_message(exc)) from None

    def set(self, key: str, entry: Mapping[str, Any]) -> None:
        try:
            self.plugin.set(self._key(key), dict(entry))
        except Exception as exc:  # the plugin's own code
            raise CachePluginError(_message(exc)) from None

    def delete(self, key: str) -> None:
        try:
            self.plugin.delete(self._key(key))
        except KeyError:
            pass
        except Exception as exc:  # the plugin's own code
            raise CachePluginError(_message(exc)) from None


def _file_based(plugin: Any) -> bool:
    try:
        from ansible.plugins.cache import BaseFileCacheModule
    except ImportError:
        return False
    return isinstance(plugin, BaseFileCacheModule)


def _message(exc: BaseException) -> str:
    """ansible-core's error text (its ``message``, without the traceback's frames), or the exception's own."""
    text = getattr(exc, "message", None) or str(exc)
    return str(text) if text else type(exc).__name__
