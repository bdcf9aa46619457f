"""Plays, ``import_playbook`` and ``import_infra`` entries, and the playbook that lists them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Discriminator, Field, Tag, WithJsonSchema
from pydantic_core import PydanticCustomError

from runner.errors import SourcePosition
from runner.models.action import BUILTIN_PREFIXES, IMPORT_PLAYBOOK, REMOVED_ACTIONS, canonical_action
from runner.models.base import Source
from runner.models.block import HandlerList, TaskList
from runner.models.keywords import CommonKeywords, Conditional, Described
from runner.models.role import RoleList
from runner.models.types import Bool, CommaList, Hosts, Int, Percent, Serial, Text, choice, choice_schema, expected

# Play keywords Ansible templates with the play's variables and the extra vars (runner.compiler renders them).
STRATEGIES = ("linear", "free", "host_pinned")
HOST_ORDERS = ("inventory", "reverse_inventory", "sorted", "reverse_sorted", "shuffle")
Strategy = Annotated[str, BeforeValidator(choice(*STRATEGIES)), WithJsonSchema(choice_schema(*STRATEGIES))]
HostOrder = Annotated[str, BeforeValidator(choice(*HOST_ORDERS)), WithJsonSchema(choice_schema(*HOST_ORDERS))]

IMPORT_INFRA = "import_infra"


def _vars_files(value: Any) -> list[str | list[str]]:
    """Each item is a file, or a list of candidates of which the first that exists is read."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    files: list[str | list[str]] = []
    for item in items:
        if isinstance(item, list) and all(isinstance(name, str) for name in item):
            files.append(list(item))
        elif isinstance(item, str):
            files.append(item)
        else:
            raise expected("a file name or a list of candidate file names", item)
    return files


VarsFiles = Annotated[
    list[str | list[str]],
    BeforeValidator(_vars_files),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "array", "items": {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}}]}),
]


class Play(CommonKeywords):
    """A mapping of hosts to the roles and tasks they run."""

    KIND = "play"
    ANSIBLE_CLASS = "Play"

    hosts: Hosts
    gather_facts: Bool | None = None
    gather_subset: CommaList | None = None
    gather_timeout: Int | None = None
    fact_path: Text | None = None
    vars_files: VarsFiles = Field(default_factory=list)
    roles: RoleList = Field(default_factory=list)
    pre_tasks: TaskList = Field(default_factory=list)
    tasks: TaskList = Field(default_factory=list)
    post_tasks: TaskList = Field(default_factory=list)
    handlers: HandlerList = Field(default_factory=list)
    serial: Serial | None = None
    strategy: Strategy | None = None
    max_fail_percentage: Percent | None = None
    force_handlers: Bool | None = None
    order: HostOrder | None = None
    # ansible-core 2.20: true (the play's name) or the name of an argument spec in the playbook's meta file, or a
    # template of either; read by runner.compiler.play_argspec
    validate_argspec: Annotated[Any, WithJsonSchema({"anyOf": [{"type": "boolean"}, {"type": "string"}]})] = None

    @classmethod
    def known_words(cls) -> set[str]:
        return super().known_words() | {"user", "vars_prompt"}

    @classmethod
    def _read_other_keys(cls, data: dict[Any, Any], unknown: list[Any], source: Source) -> dict[Any, Any]:
        if "user" in unknown:  # Ansible's older name of remote_user, on plays
            unknown.remove("user")
            if "remote_user" in data:
                source.error("both 'user' and 'remote_user' are set for this play. The use of 'user' is deprecated, "
                             "and should be removed", "user")
            data["remote_user"] = data.pop("user")
        if "vars_prompt" in unknown:
            unknown.remove("vars_prompt")
            _refuse_vars_prompt(data.pop("vars_prompt"), source)
        return super()._read_other_keys(data, unknown, source)


def _refuse_vars_prompt(prompts: Any, source: Source) -> None:
    """Nothing to ask (``vars_prompt: null`` or ``[]``) is fine; a malformed one gets Ansible's message; anything
    else is refused: a run never stops to ask (pass the values with -e)."""
    if not prompts:
        return
    for prompt in prompts if isinstance(prompts, list) else [prompts]:
        if not isinstance(prompt, Mapping) or "name" not in prompt:
            source.error("Invalid vars_prompt data structure, missing 'name' key", "vars_prompt")
            return
    source.error("'vars_prompt' is not supported; pass the values with --extra-vars (-e) or vars_files", "vars_prompt")


def _import_schema(schema: dict[str, Any]) -> None:
    """As written, the key may carry a builtin prefix (``ansible.builtin.import_playbook``)."""
    spellings = [IMPORT_PLAYBOOK, *(prefix + IMPORT_PLAYBOOK for prefix in BUILTIN_PREFIXES)]
    for spelling in spellings[1:]:
        schema["properties"][spelling] = schema["properties"][IMPORT_PLAYBOOK]
    schema.pop("required", None)
    schema["oneOf"] = [{"required": [spelling]} for spelling in spellings]


class PlaybookImport(Described, Conditional):
    """``- import_playbook: other.yml``: the compiler reads it in place, relative to this playbook."""

    model_config = ConfigDict(json_schema_extra=_import_schema)

    KIND = "import_playbook"

    import_playbook: Text

    @classmethod
    def _read_other_keys(cls, data: dict[Any, Any], unknown: list[Any], source: Source) -> dict[Any, Any]:
        for key in list(unknown):
            name = canonical_action(str(key))
            if name == IMPORT_PLAYBOOK:
                data[IMPORT_PLAYBOOK] = data.pop(key)
                unknown.remove(key)
            elif name in REMOVED_ACTIONS:
                source.error(f"'{key}' was removed from the language; use 'import_playbook'", key)
                data[IMPORT_PLAYBOOK] = data.pop(key)
                unknown.remove(key)
        return super()._read_other_keys(data, unknown, source)


class InfraImport(Described):
    """``- import_infra: ../infra/local.yml``: the plays that create the infra's servers, install their taskservs
    and set up its clusters, expanded by the compiler (``runner.compiler.infra``); its ``vars`` and ``tags`` go
    to each of those plays."""

    KIND = "import_infra"

    import_infra: Text = Field(description="The infra file, relative to this playbook")


def _is_import(value: Any) -> str:
    if isinstance(value, Mapping) and IMPORT_INFRA in value:
        return "<infra>"
    if isinstance(value, Mapping) and any(
        canonical_action(str(key)) in (IMPORT_PLAYBOOK, *REMOVED_ACTIONS) for key in value
    ):
        return "<import>"
    return "<play>"


def _play_list(value: Any) -> list[Any]:
    if isinstance(value, list) and not value:
        raise PydanticCustomError("expected", "A playbook must contain at least one play")
    if not isinstance(value, list):
        raise expected("a list of plays", value)
    return value


PlayEntry = Annotated[
    Annotated[Play, Tag("<play>")] | Annotated[PlaybookImport, Tag("<import>")]
    | Annotated[InfraImport, Tag("<infra>")],
    Discriminator(_is_import),
]
PlayList = Annotated[list[PlayEntry], BeforeValidator(_play_list)]


@dataclass
class Playbook:
    """A playbook file: its plays, ``import_playbook`` and ``import_infra`` entries, in order, imports not yet
    resolved. A plain container of models already validated: no validator is built for it."""

    path: str
    entries: list[Play | PlaybookImport | InfraImport]

    @property
    def position(self) -> SourcePosition:
        return SourcePosition(self.path)

    @property
    def directory(self) -> Path:
        """Where the playbook's relative paths (roles/, vars_files, imports) start."""
        return Path(self.path).resolve().parent

    @property
    def plays(self) -> list[Play]:
        return [entry for entry in self.entries if isinstance(entry, Play)]
