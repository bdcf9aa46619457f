"""Typed models of the playbook language: plays, blocks, tasks, handlers, role references and role metadata.

``runner.models.validation.validate`` reads YAML data (from ``runner.loader.yaml``) into them, reporting every
problem at its file:line:col; ``runner.loader`` does this for playbook and role files.
"""

from runner.models.action import BUILTIN_PREFIXES, SPECIAL_ACTIONS, canonical_action
from runner.models.block import Block, HandlerBlock, HandlerEntry, HandlerList, TaskEntry, TaskList
from runner.models.play import InfraImport, Play, Playbook, PlaybookImport, PlayEntry, PlayList
from runner.models.role import ArgumentOption, ArgumentSpecs, EntryPoint, RoleMeta, RoleReference
from runner.models.task import Handler, LoopControl, RoleInclude, Task, TasksInclude
from runner.models.validation import ParseErrors, deferred_adapter, validate
from runner.util.model_cache import complete

# Every run reads these; inner models first, so that each outer one reuses the schemas of those it contains. The
# lists are what playbook, task and handler files are read as.
complete((RoleReference, LoopControl, TasksInclude, RoleInclude, Task, Handler, Block, HandlerBlock,
          PlaybookImport, InfraImport, Play), sources=("runner/models",),
         adapters={"PlayList": deferred_adapter(PlayList), "TaskList": deferred_adapter(TaskList),
                   "HandlerList": deferred_adapter(HandlerList)})

__all__ = [
    "BUILTIN_PREFIXES",
    "SPECIAL_ACTIONS",
    "ArgumentOption",
    "ArgumentSpecs",
    "Block",
    "EntryPoint",
    "Handler",
    "HandlerBlock",
    "HandlerEntry",
    "HandlerList",
    "InfraImport",
    "LoopControl",
    "ParseErrors",
    "Play",
    "PlayEntry",
    "PlayList",
    "Playbook",
    "PlaybookImport",
    "RoleInclude",
    "RoleMeta",
    "RoleReference",
    "Task",
    "TaskEntry",
    "TaskList",
    "TasksInclude",
    "canonical_action",
    "validate",
]
