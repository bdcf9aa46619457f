"""A template whose whole result is a view of variables (``{{ hostvars[inventory_hostname] }}``, ``{{ hostvars }}``,
``{{ ansible_facts }}``) made into plain data, as Ansible gives it: a task's result must be printable and sent to
the controller, and a view is neither (it renders on access and reaches every host's variables)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from runner.templating.undefined import Undefined


class VariableResolver(Protocol):
    """What copying a view uses of ``runner.templating.templar.Templar``, which calls this module: the protocol
    keeps the dependency one way."""

    def resolve_variable_or_undefined(self, variables: Mapping[str, Any], name: str) -> Any: ...

# Names whose values are views of everything again: left out of the views a copied view holds, as Ansible's
# hostvars[host] leaves them out, and what keeps the copy finite (hostvars[h].hostvars[h]...). The view copied
# template's own ``vars`` keeps ``hostvars`` (``{{ vars }}`` holds every host's variables, as in ansible-core 2.19):
# such a view says so with ``copied_with_hostvars``.
SELF_REFERENCES = frozenset({"hostvars", "vars"})


def is_view(value: Any) -> bool:
    """A mapping that is not plain data: rendered on access rather than held."""
    return isinstance(value, Mapping) and not isinstance(value, dict)


def without_views(templar: VariableResolver, value: Any) -> Any:
    """``value`` (a template's result) with every view in it, at any depth of its dicts and lists, made a dict;
    the same object when it holds none (the common case: one walk, no copy)."""
    return _copied(templar, value) if _holds_view(value) else value


def _holds_view(value: Any) -> bool:
    if is_view(value):
        return True
    if isinstance(value, dict):
        return any(_holds_view(item) for item in value.values())
    if isinstance(value, list):
        return any(_holds_view(item) for item in value)
    return False


def _copied(templar: VariableResolver, value: Any) -> Any:
    if is_view(value):
        return plain_view(templar, value)
    if isinstance(value, dict):
        return type(value)({key: _copied(templar, item) for key, item in value.items()})
    if isinstance(value, list):
        return type(value)(_copied(templar, item) for item in value)
    return value


def plain_view(templar: VariableResolver, view: Mapping[str, Any]) -> dict[str, Any]:
    """``view`` as a dict, each value rendered in the view's own scope (another host's variables with that
    host's values); a value that cannot be rendered shows why, as ``debug: var=`` shows an undefined one."""
    copied: dict[str, Any] = {}
    with_hostvars = getattr(view, "copied_with_hostvars", False)
    for key in view:
        if key in SELF_REFERENCES and not (with_hostvars and key == "hostvars"):
            continue
        value = templar.resolve_variable_or_undefined(view, key)
        if isinstance(value, Undefined):
            # Ansible 2.19's text for it: the reason without the template it came from
            value = f"<< error 1 - {value._undefined_message.split(' (templating ')[0]} >>"
        copied[key] = plain_view(templar, value) if is_view(value) else value
    return copied
