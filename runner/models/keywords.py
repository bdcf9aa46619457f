"""The keyword tables: each group of keywords is declared once here and shared by the mappings that accept it.

This mirrors how Ansible declares its playbook keywords (``Base``, ``Conditional``, ``Taggable``, ``Delegatable``,
``Notifiable``): a play, a block, a task and a role reference each combine the groups that apply to them, so a
keyword has one type and one meaning everywhere. ``Model.keywords()`` turns a combination into the table
keyword → field used for unknown-keyword checks and did-you-mean hints.

A group is only ever validated as part of the mappings that combine it, so it never builds a validator of its
own; the mappings every run reads are built by ``runner.util.model_cache``, a mapping that contains another
reusing the other's schema.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from runner.models.base import Model
from runner.models.types import Bool, CommaList, Conditions, Int, Layered, RunTimeBool, StringList, Text, Variables


class Described(Model):
    """What anything that runs can have, ``import_playbook`` included: a name, variables and tags."""

    name: Text | None = None
    vars: Variables = Field(default_factory=dict)
    tags: CommaList = Field(default_factory=list)


class CommonKeywords(Described):
    """Keywords every play, block, task and role reference accepts (Ansible's ``Base`` and ``Taggable``)."""

    environment: Layered = None
    module_defaults: Layered = None
    become: Bool | None = None
    become_user: Text | None = None
    become_method: Text | None = None
    become_flags: Text | None = None
    become_exe: Text | None = None
    remote_user: Text | None = None
    connection: Text | None = None
    port: Int | None = None
    check_mode: RunTimeBool | None = None
    diff: RunTimeBool | None = None
    ignore_errors: Bool | None = None
    ignore_unreachable: Bool | None = None
    any_errors_fatal: Bool | None = None
    run_once: Bool | None = None
    no_log: Bool | None = None
    throttle: Int | None = None
    timeout: Int | None = None
    collections: StringList = Field(default_factory=list, description=(
        "Collections (NS.COLL) where short module names are looked up first, before the native modules."))
    debugger: Text | None = Field(default=None, description=(
        "The task debugger, which is not supported: only 'never' (or null, ansible-core's default) is accepted."))

    @field_validator("debugger", mode="before")
    @classmethod
    def _debugger_off(cls, value: Any) -> Any:
        # A value that keeps the debugger off asks for nothing; any other would be silently ignored, so it is refused.
        if value is not None and value != "never":
            raise PydanticCustomError("debugger", "the task debugger is not supported (debugger: {value}); only "
                                      "'never' is accepted", {"value": value})
        return value


class Conditional(Model):
    when: Conditions = Field(default_factory=list)


class Delegatable(Model):
    delegate_to: Text | None = None
    delegate_facts: Bool | None = None


class Notifiable(Model):
    notify: StringList = Field(default_factory=list)
