"""Blocks, and the task lists that hold tasks and blocks.

An item of a task list is a block when it has ``block``, ``rescue`` or ``always`` (as Ansible decides), else a
task. In ``handlers:`` the same holds with handlers in place of tasks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, Discriminator, Field, Tag, ValidationInfo
from pydantic_core import PydanticCustomError

from runner.models.keywords import CommonKeywords, Conditional, Delegatable, Notifiable
from runner.models.task import Handler, Task
from runner.models.types import describe

BLOCK_KEYS = ("block", "rescue", "always")


def _is_block(value: Any) -> str:
    return "<block>" if isinstance(value, Mapping) and any(key in value for key in BLOCK_KEYS) else "<task>"


def _task_list(value: Any, info: ValidationInfo) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        # Ansible's words, naming the section (playbooks and its tests match on them)
        raise PydanticCustomError("expected", "A malformed block was encountered while loading {field}: {got} should "
                                  "be a list or None", {"field": info.field_name or "tasks", "got": describe(value)})
    return value


class Block(CommonKeywords, Conditional, Delegatable, Notifiable):
    """Tasks run together; when one fails, ``rescue`` runs, and ``always`` runs in every case."""

    KIND = "block"
    ANSIBLE_CLASS = "Block"

    block: TaskList = Field(default_factory=list)
    rescue: TaskList = Field(default_factory=list)
    always: TaskList = Field(default_factory=list)


class HandlerBlock(Block):
    """A block in ``handlers:``; its items are handlers."""

    # Narrowed from Block's task lists: a type checker sees lists as invariant, but these are only read through
    # Block (never appended to), and pydantic needs the narrower type to read handlers.
    block: HandlerList = Field(default_factory=list)  # type: ignore[assignment]
    rescue: HandlerList = Field(default_factory=list)  # type: ignore[assignment]
    always: HandlerList = Field(default_factory=list)  # type: ignore[assignment]


TaskEntry = Annotated[
    Annotated[Task, Tag("<task>")] | Annotated[Block, Tag("<block>")],
    Discriminator(_is_block),
]
HandlerEntry = Annotated[
    Annotated[Handler, Tag("<task>")] | Annotated[HandlerBlock, Tag("<block>")],
    Discriminator(_is_block),
]
TaskList = Annotated[list[TaskEntry], BeforeValidator(_task_list)]
HandlerList = Annotated[list[HandlerEntry], BeforeValidator(_task_list)]
