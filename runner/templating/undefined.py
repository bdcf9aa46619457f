"""The undefined values of templates: strict (any use fails with its hint), but chainable as in Ansible, and
``undef()`` that makes one. Apart from the environment, so that lookups can make and recognise them."""

from __future__ import annotations

from typing import Any

from jinja2 import StrictUndefined


class Undefined(StrictUndefined):
    """Strict, but chainable: ``foo.bar`` of an undefined ``foo`` is still "'foo' is undefined", and
    ``foo.bar | default(1)`` is 1, as in Ansible."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name[:2] == "__":
            raise AttributeError(name)
        return self

    def __getitem__(self, key: Any) -> Any:
        return self


# ``undef()`` without a hint: one value, so that a lookup given it as a default (env's) can say what is missing
DEFAULT_UNDEF = Undefined(hint="Mandatory variable has not been overridden")


def undef(hint: str | None = None) -> Undefined:
    """``undef(hint='give the admin password')``: a value that fails with ``hint`` wherever it is used (role
    defaults that the user must override), as Ansible's ``undef``."""
    if hint is not None and not isinstance(hint, str):
        # ansible-core 2.19's words
        raise TypeError(f"The 'hint' argument must be of type 'str' or 'NoneType', not '{type(hint).__name__}'.")
    return Undefined(hint=hint) if hint else DEFAULT_UNDEF


__all__ = ["DEFAULT_UNDEF", "Undefined", "undef"]
