"""What a task inherits from its play, role, block and import: conditions, tags, scopes and keywords."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from runner.templating import is_template

# Keywords whose innermost value wins (a task's over its block's over its role's over its play's).
SCALAR_KEYWORDS = (
    "become", "become_user", "become_method", "become_flags", "remote_user", "connection", "check_mode", "diff",
    "ignore_errors", "ignore_unreachable", "any_errors_fatal", "no_log", "run_once", "delegate_to",
    "delegate_facts", "throttle", "timeout",
)


@dataclass(frozen=True)
class Inherited:
    when: tuple[Any, ...] = ()
    tags: tuple[str, ...] = ()
    environment: tuple[Any, ...] = ()
    scopes: tuple[int, ...] = ()
    role: int | None = None
    search_paths: tuple[str, ...] = ()
    keywords: tuple[tuple[str, Any], ...] = ()
    # For a keyword whose innermost value is a template: the values of the enclosing levels, innermost first, which
    # apply when it renders to omit (as Ansible treats an omitted keyword as one not set at that level).
    fallbacks: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    module_defaults: tuple[tuple[str, Any], ...] = ()
    notify: tuple[str, ...] = ()
    apply: dict[str, Any] = field(default_factory=dict)
    # The collection search list in force, as ansible-core computes it from the ``collections:`` keyword
    # (``search_list``): where a short module or role name is looked up.
    collections: tuple[str, ...] = ()
    # The collection of the playbook being compiled (one in a collection's ``playbooks/``), which ansible-core
    # puts first in the search list of every play, block and task outside a role.
    default_collection: str | None = None
    playbook_dir: str | None = None  # the folder of the playbook the play is in (for an include at run time)
    # What is compiled here may never run, or its failure is handled (a handler, a block with a rescue, a rescue
    # section): a mistake Ansible finds only when the task runs is left for the task's run, not a compile error.
    may_not_run: bool = False
    # Told of every play, role, block, import and task whose keywords are read here (the compiler warns of
    # reserved tag names in them, as ansible-core does where it loads them).
    on_model: Callable[[Any], None] | None = field(default=None, compare=False, repr=False)

    def keyword(self, name: str) -> Any:
        return dict(self.keywords).get(name)

    def under(self, model: Any, *, scope: int | None = None, role: int | None = None,
              search_paths: tuple[str, ...] | None = None) -> Inherited:
        """The context for what ``model`` (a play, role reference, block or import) contains."""
        if self.on_model is not None:
            self.on_model(model)
        keywords, fallbacks = _override_keywords(dict(self.keywords), dict(self.fallbacks), model)
        defaults = dict(self.module_defaults)
        for entry in _as_list(getattr(model, "module_defaults", None)):
            if isinstance(entry, dict):
                # an inner level's defaults for an action replace the outer ones whole, as in ansible-core
                # (``debug: {}`` removes them); a template of the mapping is rendered where the task runs
                defaults.update((module, values if isinstance(values, str) else values or {})
                                for module, values in entry.items())
        return replace(
            self,
            when=self.when + tuple(getattr(model, "when", None) or ()),
            tags=self.tags + tuple(t for t in (getattr(model, "tags", None) or ()) if t not in self.tags),
            environment=self.environment + tuple(_as_list(getattr(model, "environment", None))),
            scopes=self.scopes + ((scope,) if scope is not None else ()),
            role=role if role is not None else self.role,
            search_paths=search_paths if search_paths is not None else self.search_paths,
            keywords=tuple(keywords.items()),
            fallbacks=tuple(fallbacks.items()),
            module_defaults=tuple(defaults.items()),
            notify=self.notify + tuple(getattr(model, "notify", None) or ()),
            collections=self._collections(getattr(model, "collections", None), in_role=self.role is not None
                                          or role is not None),
        )

    def _collections(self, given: Any, *, in_role: bool) -> tuple[str, ...]:
        if not given:
            return self.collections
        return search_list(given, None if in_role else self.default_collection)


def search_list(given: Any, default_collection: str | None, fallback: str = "ansible.legacy") -> tuple[str, ...]:
    """The collection search list of a play, block or task whose ``collections:`` says ``given``, as ansible-core
    makes it: the playbook's own collection first (outside roles), then those given, then ``fallback``
    (``ansible.legacy``: the library and builtin modules) unless ``ansible.builtin`` or ``ansible.legacy`` is
    already listed. Empty when nothing is given and there is no default collection."""
    listed = list(dict.fromkeys(_as_list(given)))
    if default_collection and default_collection not in listed:
        listed.insert(0, default_collection)
    if listed and "ansible.builtin" not in listed and "ansible.legacy" not in listed:
        listed.append(fallback)
    return tuple(listed)


def _override_keywords(keywords: dict[str, Any], fallbacks: dict[str, tuple[Any, ...]],
                       model: Any) -> tuple[dict[str, Any], dict[str, tuple[Any, ...]]]:
    """The keywords ``model`` sets over the enclosing ones, and what each falls back to when its value is a
    template that renders to omit."""
    for name in SCALAR_KEYWORDS:
        value = getattr(model, name, None)
        if value is None:
            continue
        if isinstance(value, str) and is_template(value) and name in keywords:
            fallbacks[name] = (keywords[name], *fallbacks.get(name, ()))
        else:
            fallbacks.pop(name, None)
        keywords[name] = value
    return keywords, fallbacks


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]
