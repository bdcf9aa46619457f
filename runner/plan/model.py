"""The plan's types. Every value is JSON: templates stay strings, evaluated per host at run time."""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from runner.util.model_cache import complete

PLAN_VERSION = 1

# The key of a task's arguments that holds the templates yielding more of them, lowest priority first: the
# ``args:`` keyword given as a template, then free-form words the compiler could not read as ``k=v``
# (``add_host: '{{ data }}'``). The run templates them, each to a mapping, under the arguments written as such.
ARGUMENT_TEMPLATES = "_provisioning_argument_templates"


class ScopeKind(IntEnum):
    """Where a scope's variables sit in Ansible's precedence order (higher wins).

    Inventory, facts, registered results and extra vars are per-host or per-run and are not stored in the plan;
    they take the levels between these (see runner.vars).
    """

    ROLE_DEFAULTS = 10
    PLAY_VARS = 40
    PLAY_VARS_FILES = 41
    ROLE_VARS = 50
    BLOCK_VARS = 60
    TASK_VARS = 70
    INCLUDE_PARAMS = 80
    ROLE_PARAMS = 100


def _all_facts() -> list[str]:
    # A named function, not a lambda: the cached schema refers to it by name.
    return ["all"]


class _Strict(BaseModel):
    # Built together at the end of the module, from the user's cache when it holds them (runner.util.model_cache).
    # Bytes (YAML's !!binary in vars or arguments) are base64 in the plan's JSON: not every value is UTF-8
    model_config = ConfigDict(extra="forbid", defer_build=True, ser_json_bytes="base64")


class VarScope(_Strict):
    kind: ScopeKind
    name: str = Field(description="What the scope belongs to, for messages: play, role name, block position")
    vars: dict[str, Any] = Field(default_factory=dict)
    position: str | None = None


class PlanRole(_Strict):
    name: str
    path: str
    collection: str | None = None  # NS.COLL of a collection's role

    @property
    def display_name(self) -> str:
        """The role's name as ansible-core shows it before its tasks' names: with its collection's."""
        return f"{self.collection}.{self.name}" if self.collection else self.name
    defaults_scope: int | None = None
    vars_scope: int | None = None
    params_scope: int | None = None


def _role_prefixed(text: str, role: PlanRole) -> list[str]:
    """``ROLE : TEXT`` and, for a collection's role, ``NS.COLL.ROLE : TEXT``: how ``notify`` names what a role has."""
    return list(dict.fromkeys(f"{prefix} : {text}" for prefix in (role.name, role.display_name)))


def handler_topics(handler: PlanTask, roles: list[PlanRole]) -> list[str]:
    """The topics a handler listens to: each as written and, for a role's handler, also prefixed with its role's
    name (and its collection's role's full name), as ansible-core's ``Handler`` extends ``listen``."""
    if handler.role is None:
        return list(handler.listen)
    role = roles[handler.role]
    return [*handler.listen, *(name for topic in handler.listen for name in _role_prefixed(topic, role))]


def handler_names(handler: PlanTask, roles: list[PlanRole], name: str | None = None) -> list[str]:
    """The names ``notify`` reaches a handler by (its topics aside): its name (``name``, rendered, when given),
    then, for a role's handler, ``ROLE : NAME`` and, for a collection's role, ``NS.COLL.ROLE : NAME``, as
    ansible-core matches them."""
    name = handler.name if name is None else name
    if not name:
        return []
    return [name, *(_role_prefixed(name, roles[handler.role]) if handler.role is not None else [])]


class PlanTask(_Strict):
    """One node: a task, a block, a dynamic include, or a meta action. Inherited keywords are already applied."""

    id: int
    kind: Literal["task", "block", "include_tasks", "include_role", "meta", "facts"] = "task"
    name: str | None = None
    module: str | None = None
    module_written: str | None = Field(
        default=None, description="The module's name as the task wrote it, when that is not 'module' (a fully "
                                  "qualified builtin, a short name found through collections: or routed): what "
                                  "the header of an unnamed task shows, as in Ansible")
    args: dict[str, Any] = Field(default_factory=dict)
    written_args: dict[str, Any] | None = Field(
        default=None, description="For a module named by a template only the run can render: its arguments as "
                                  "written ('module_args', 'args'), read for the module the template names then")
    chosen_defaults: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="For a module whose work one of several modules does, chosen per host "
                                          "(service: systemd or sysvinit): each one's module_defaults in force, "
                                          "merged under the arguments for the one chosen where the task runs")
    position: str = ""
    role: int | None = Field(default=None, description="Index into plan.roles of the role the task came from")
    scopes: list[int] = Field(default_factory=list, description="Variable scopes, indexes into plan.scopes")
    when: list[Any] = Field(default_factory=list, description="Conditions, ANDed, outermost first")
    loop: Any = None
    loop_with: str | None = Field(default=None, description="The lookup of a with_<name> loop; None for loop:")
    loop_control: dict[str, Any] = Field(default_factory=dict)
    register_var: str | None = Field(default=None, description="The register: keyword")
    register_projections: dict[str, Any] | None = Field(
        default=None, description="register: as a mapping: each variable and the expression it gets after the task")
    changed_when: list[Any] | None = None
    failed_when: list[Any] | None = None
    until: list[Any] | None = None
    retries: Any = None
    delay: Any = None
    async_seconds: Any = Field(default=None, description="The async: keyword (seconds); None: run in the foreground")
    poll: Any = Field(default=None, description="The poll: keyword (seconds between checks; 0: do not wait)")
    ignore_errors: Any = False
    ignore_unreachable: Any = False
    notify: list[str] = Field(default_factory=list)
    listen: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    become: Any = None
    become_user: Any = None
    become_method: Any = None
    become_flags: Any = None
    remote_user: Any = None
    connection: Any = None
    delegate_to: Any = None
    delegate_facts: Any = False
    run_once: Any = False
    no_log: Any = False
    environment: list[Any] = Field(default_factory=list, description="Environment mappings, outermost first")
    check_mode: Any = None
    diff: Any = None
    throttle: Any = None
    timeout: Any = None
    any_errors_fatal: Any = None
    keyword_fallbacks: dict[str, list[Any]] = Field(
        default_factory=dict, description="For a keyword whose value is a template: the values of the enclosing "
                                          "play, role and blocks (innermost first) it takes when it renders to omit")
    block: list[int] = Field(default_factory=list)
    rescue: list[int] = Field(default_factory=list)
    always: list[int] = Field(default_factory=list)
    include: dict[str, Any] | None = Field(
        default=None, description="For include_tasks/include_role: file or role name (templated), apply, vars")
    search_paths: list[str] = Field(default_factory=list, description="Where relative files are looked up")
    collections: list[str] = Field(default_factory=list, description=(
        "The task's collection search list, as ansible-core computes it (what an action plugin's "
        "self._task.collections reads)"))


class PlanPlay(_Strict):
    name: str
    hosts: Any
    position: str = ""
    scopes: list[int] = Field(default_factory=list)
    # vars_files entries named with a host's variables, each a list of candidate names (the first found is
    # read), found from search_paths[0] (the playbook's directory) per host when its tasks run
    vars_files: list[list[str]] = Field(default_factory=list)
    gather_facts: Any = True
    # gathering = smart and the play does not say gather_facts: a host whose facts are gathered is not again
    gather_smart: bool = False
    gather_subset: list[str] = Field(default_factory=_all_facts)
    serial: list[Any] = Field(default_factory=list)
    strategy: str = "linear"
    max_fail_percentage: Any = None
    any_errors_fatal: Any = False
    force_handlers: Any = None  # the play's keyword; unset, the command's --force-handlers (or setting) decides
    ignore_unreachable: Any = False
    order: str = "inventory"
    tags: list[str] = Field(default_factory=list)
    check_mode: Any = None
    diff: Any = None
    sections: list[list[int]] = Field(default_factory=list,
                                      description="pre_tasks, roles+tasks, post_tasks: handlers flush after each")
    implicit_flush: bool = Field(True, description="Whether the handlers flush after each section: ansible-core's "
                                                   "implicit flush_handlers is tagged always and the play's tags, so "
                                                   "--tags/--skip-tags can leave it out")
    handlers: list[int] = Field(default_factory=list)
    search_paths: list[str] = Field(default_factory=list)


class Plan(_Strict):
    version: int = PLAN_VERSION
    playbook: str
    playbook_dir: str
    plays: list[PlanPlay] = Field(default_factory=list)
    tasks: list[PlanTask] = Field(default_factory=list)
    scopes: list[VarScope] = Field(default_factory=list)
    roles: list[PlanRole] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list,
                                description="What compiling found to warn of (each with its Origin), shown as the run "
                                            "starts")

    def task(self, task_id: int) -> PlanTask:
        return self.tasks[task_id]


class PlanFragment(_Strict):
    """What a dynamic include adds to the plan at run time for one target (a tasks file or a role).

    Ids and indexes continue the plan's own tables, so the controller and every worker extend their copies of
    the plan with it in the same order.
    """

    tasks: list[PlanTask] = Field(default_factory=list)
    scopes: list[VarScope] = Field(default_factory=list)
    roles: list[PlanRole] = Field(default_factory=list)
    handlers: list[int] = Field(default_factory=list, description="Handlers of an included role, for the play")


complete((VarScope, PlanRole, PlanTask, PlanPlay, Plan, PlanFragment), sources=("runner/plan",))
