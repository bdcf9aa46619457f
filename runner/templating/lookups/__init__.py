"""Lookups: ``lookup(name, *terms)``/``query(...)`` in templates and the sources of ``with_<name>`` loops.

Each lookup is ``function(terms, context, **options) -> list``. Results are marked unsafe, as Ansible marks
them: the text of a file read by ``lookup('file', ...)`` is never rendered as a template afterwards.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from runner.errors import did_you_mean
from runner.templating.captured import LAZY_TYPES, made_plain
from runner.templating.errors import TemplateError
from runner.templating.lookups import commands, csvfile, data, files, ini, password
from runner.templating.lookups.base import LookupContext, listify, takes_undefined_terms
from runner.templating.lookups.plugin_lookups import plugin_lookup, routed_lookup
from runner.templating.state import Renderer
from runner.util.unsafe import mark_unsafe

LOOKUPS: dict[str, Callable[..., list[Any]]] = {**files.LOOKUPS, **commands.LOOKUPS, **data.LOOKUPS,
                                                **ini.LOOKUPS, **password.LOOKUPS, **csvfile.LOOKUPS}
_ERROR_MODES = ("strict", "warn", "ignore")
_log = logging.getLogger("provisioning.lookup")


class IgnoredFailure(list[Any]):
    """The result of a lookup that failed where ``errors='warn'`` or ``'ignore'`` let it: ``query`` gives it as an
    empty list, ``lookup`` as None, as Ansible's do."""


def register_lookups(lookups: Mapping[str, Callable[..., list[Any]]]) -> None:
    """Add lookups defined in a higher layer, which need what this one cannot import (the run's inventory and
    configuration: ``runner.executor.run_lookups``)."""
    LOOKUPS.update(lookups)


def lookup_function(name: str) -> Callable[..., list[Any]]:
    """A lookup by name: a ``lookup_plugins/`` folder's or a collection's (``NS.COLL.NAME``), else the builtin
    one (``ansible.legacy.`` names look in the folders first, ``ansible.builtin.`` ones never)."""
    short = name.removeprefix("ansible.builtin.")
    function = None if short != name else plugin_lookup(name)
    if function is None:
        function = LOOKUPS.get(short.removeprefix("ansible.legacy."))
    routed = None
    if function is None:  # a lookup that moved out of ansible-core: where its routing sends it (dig: community.general)
        routed = routed_lookup(name)
        function = plugin_lookup(routed) if routed is not None else None
    if function is None:
        if routed is not None:
            raise TemplateError(f"unknown lookup '{name}': it is routed to {routed}, which is not installed in the "
                                "collections path", hint=f"install the collection {routed.rsplit('.', 1)[0]}")
        # ansible-core 2.19's words, which playbooks match on
        raise TemplateError(f"The lookup plugin '{name}' was not found.", hint=did_you_mean(short, list(LOOKUPS)))
    return function


def loop_takes_undefined_terms(name: str) -> bool:
    """Whether a ``with_<name>`` loop leaves out its undefined terms (its templated value is rendered with
    ``Templar.template_omitting_undefined``) rather than failing on the first."""
    return takes_undefined_terms(lookup_function(name))


def loop_subdir(action: str) -> str:
    """The folder a ``with_<lookup>`` loop's relative file names are looked for in first, by the task's action, as
    ansible-core's task executor gives it to the lookup: ``templates`` for a template task, ``vars`` for
    include_vars, else ``files``."""
    return next((f"{kind}s" for kind in ("template", "var") if kind in action), "files")


def run_lookup(name: str, terms: Any, variables: Mapping[str, Any], search_paths: Sequence[str | Path] = (), /, *,
               templar: Renderer, subdir: str = "files", **options: Any) -> list[Any]:
    """Run lookup ``name`` on ``terms`` (a list, or one value) and return its list of results.

    The loop code calls it for ``with_<name>`` with the templated terms; ``search_paths`` (role folder, then
    playbook folder) resolve relative file names, in ``subdir`` first (files, templates or vars by the task's
    module). ``errors='ignore'`` or ``'warn'`` turns a failure into an empty list. ``templar`` renders what the
    lookup reads (``runner.templating.run_lookup`` makes one when the caller has none).
    """
    function = lookup_function(name)
    errors = options.pop("errors", "strict")
    if errors not in _ERROR_MODES:
        raise TemplateError(f"lookup '{name}': errors must be one of {', '.join(_ERROR_MODES)}, not '{errors}'")
    context = LookupContext(templar, variables, tuple(Path(path) for path in search_paths), subdir)
    arguments = [listify(terms), context]
    options = _known_options(name, function, options)
    try:
        inspect.signature(function).bind(*arguments, **options)
    except TypeError as exc:
        raise TemplateError(f"lookup '{name}': {exc}") from None
    try:
        results = function(*arguments, **options)
    except TemplateError as error:
        if errors == "strict":
            raise _failed(name, error) from error.__cause__
        if errors == "warn":
            _log.warning("lookup '%s' failed; continuing with no result", name, exc_info=True)
        return IgnoredFailure()
    # a variable's lazy view (``vars``) as data, failing here as reading the variable whole would
    return mark_unsafe([made_plain(result) if type(result) in LAZY_TYPES else result for result in results])


def _failed(name: str, error: TemplateError) -> TemplateError:
    """A lookup's failure in ansible-core 2.19's words (``The lookup plugin 'pipe' failed: ...``), which
    playbooks match on; an undefined term's error, and one that says so already, as they are."""
    prefix = f"The lookup plugin '{name}'"
    if error.undefined or error.message.startswith(prefix):
        return error
    detail = error.message.removeprefix(f"lookup '{name}': ")
    failed = TemplateError(f"{prefix} failed: {detail}", error.position, hint=error.hint, template=error.template,
                           summary=error.summary, unknown_plugin=error.unknown_plugin)
    return failed


def _known_options(name: str, function: Callable[..., list[Any]], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` less those ``function`` does not take: ansible-core's lookups read their documented options and
    pass over any other keyword (``lookup('vars', name='x')`` runs), so a playbook written for it may carry some.
    Each one dropped is a warning, so a misspelt option does not go unnoticed."""
    parameters = inspect.signature(function).parameters
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters.values()):
        return options
    known = {key: value for key, value in options.items()
             if key in parameters and parameters[key].kind is not inspect.Parameter.POSITIONAL_ONLY}
    for key in options.keys() - known.keys():
        hint = did_you_mean(key, [p for p in parameters if p not in ("terms", "context")])
        _log.warning("[WARNING]: lookup '%s' has no option '%s'; it is ignored%s", name, key,
                     f" ({hint})" if hint else "")
    return known


__all__ = ["LOOKUPS", "IgnoredFailure", "LookupContext", "lookup_function", "loop_takes_undefined_terms",
           "register_lookups", "run_lookup"]
