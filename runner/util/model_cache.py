"""Validators of the pydantic models every run reads, built once per version and kept in the user's cache directory.

Generating a pydantic model's core schema (walking its fields, annotations, validators and nested models in
Python) is most of the cost of building it: ~70 ms of every command's start for the playbook language and the
plan. The core schema itself is plain data with references to classes and functions by name, and turning it into
a validator is fast (pydantic-core, a few ms for all of them). So the schemas are pickled once into
``~/.cache/provisioning/models/`` (``$XDG_CACHE_HOME`` is honoured) under a name that hashes everything they
depend on: the Python, pydantic and pydantic-core versions, the models' names and the source of the modules
that declare them. A file from another version is never read; it is simply not found. A cache that cannot be
read, written or trusted (not the user's own, writable by others) is passed over and the models are built as
they would be without it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import pickle
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FunctionType
from typing import Any

import pydantic
import pydantic_core
from pydantic import BaseModel, GetJsonSchemaHandler, TypeAdapter

from runner.util.user_cache import add_sources, cache_directory, read_own_file, write_own_file

# Source files every model's schema may depend on: the position and error types (``SourcePosition``).
_COMMON_SOURCES = ("runner/errors.py", "runner/positions.py")


# What is cached: a model class, or a type adapter (a list of models, say) made with ``defer_build``.
Target = type[BaseModel] | TypeAdapter[Any]


def complete(models: Sequence[type[BaseModel]], sources: Sequence[str],
             adapters: Mapping[str, TypeAdapter[Any]] | None = None) -> None:
    """Make ``models`` and ``adapters`` (all declared with pydantic's ``defer_build``) ready to validate: from the
    cache when it holds them, else built in their order, models first (inner models first, so an outer one reuses
    their schemas) and then cached for the next command. ``sources`` are the files and directories, relative to
    the package's parent, whose code decides their schemas."""
    targets: dict[str, Target] = {model.__qualname__: model for model in models} | dict(adapters or {})
    path = _cache_file(targets, sources)
    if path is not None and _install(targets, _read(path)):
        return
    for target in targets.values():
        if isinstance(target, TypeAdapter):
            target.rebuild()
        else:
            target.model_rebuild()
    if path is not None:
        _write(path, targets)


def _cache_file(targets: Mapping[str, Target], sources: Sequence[str]) -> Path | None:
    digest = hashlib.sha256()
    for part in (sys.version, pydantic.VERSION, pydantic_core.__version__, *targets):
        digest.update(part.encode() + b"\0")
    try:
        add_sources(digest, (*sources, *_COMMON_SOURCES))
        directory = cache_directory("models")
    except (OSError, RuntimeError):  # a source not readable, no home directory: no cache
        return None
    return directory / f"{digest.hexdigest()[:32]}.pickle"


def _read(path: Path) -> dict[str, Any] | None:
    """The cached schemas, or None when there are none, or the file is not the user's own alone to write."""
    data = read_own_file(path)
    if data is None:
        return None
    try:
        cached = pickle.loads(data)  # the user's own file, named by the hash of what made it
    except Exception:  # a truncated or stale file (a name pickled that no longer exists): build instead
        return None
    return cached if isinstance(cached, dict) else None


def _install(targets: Mapping[str, Target], cached: dict[str, Any] | None) -> bool:
    """Give each target its validator and serializer from the cached schemas; False when they do not fit."""
    if cached is None or set(cached) != set(targets):
        return False
    try:
        built = {name: _validators(*cached[name]) for name in targets}
    except Exception:  # a schema pydantic-core no longer accepts: build instead
        return False
    for name, (schema, validator, serializer) in built.items():
        target = targets[name]
        # What pydantic's own completion of a model or an adapter sets (these models have no computed fields).
        if isinstance(target, TypeAdapter):
            target.core_schema, target.validator, target.serializer = schema, validator, serializer
            target.pydantic_complete = True
        else:
            target.__pydantic_core_schema__ = schema
            target.__pydantic_validator__ = validator
            target.__pydantic_serializer__ = serializer
            target.__pydantic_computed_fields__ = {}
            target.__pydantic_complete__ = True
    return True


def _validators(schema: Any, config: Any) -> tuple[Any, pydantic_core.SchemaValidator, pydantic_core.SchemaSerializer]:
    return schema, pydantic_core.SchemaValidator(schema, config), pydantic_core.SchemaSerializer(schema, config)


def _write(path: Path, targets: Mapping[str, Target]) -> None:
    try:
        buffer = io.BytesIO()
        _SchemaPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(
            {name: _schema_and_config(target) for name, target in targets.items()})
        write_own_file(path, buffer.getvalue())
    except Exception:  # a cache that cannot be written costs the next command the build, nothing more
        return


def _schema_and_config(target: Target) -> tuple[Any, Any]:
    """The core schema and the core config pydantic built ``target``'s validator with."""
    from pydantic._internal._config import ConfigWrapper

    if isinstance(target, TypeAdapter):
        return target.core_schema, ConfigWrapper(target._config, check=False).core_config(None)
    return target.__pydantic_core_schema__, ConfigWrapper(target.model_config, check=False).core_config(
        target.__name__)


class _SchemaPickler(pickle.Pickler):
    """Pickles a core schema, whose functions are named ones, but for the one pydantic makes inside a function:
    an enum's JSON-schema update (its title and description), pickled as the same update by a named function."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, FunctionType) and obj.__qualname__.endswith("._enum_schema.<locals>.get_json_schema"):
            captured = dict(zip(obj.__code__.co_freevars, (cell.cell_contents for cell in obj.__closure__ or ()),
                                strict=True))
            return functools.partial, (_update_enum_json_schema, captured["js_updates"])
        return NotImplemented


def _update_enum_json_schema(updates: dict[str, Any], schema: Any, handler: GetJsonSchemaHandler) -> Any:
    # What pydantic's own function does (pydantic._internal._generate_schema, GenerateSchema._enum_schema).
    json_schema = handler(schema)
    handler.resolve_ref_schema(json_schema).update(updates)
    return json_schema
