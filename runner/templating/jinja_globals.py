"""Functions every template can call: ``lookup``, ``query``/``q`` and ``now``."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import jinja2

from runner.templating.errors import TemplateError
from runner.templating.lookups import IgnoredFailure, run_lookup
from runner.templating.markers import is_template
from runner.templating.state import RenderState, current_state, taint
from runner.util.unsafe import UNSAFE_TYPES, UnsafeText


def query(name: str, /, *terms: Any, **options: Any) -> list[Any]:
    """``query('fileglob', '*.conf')``: the lookup's results as a list, always. ``name`` is positional only,
    so a lookup may have an option called ``name``."""
    state = current_state()
    if state is None:
        raise TemplateError("lookup() and query() can only be called while rendering a template")
    if not state.tainted:  # a term built from a host's text could hold its template: never rendered then
        terms = tuple(_rendered_term(term, state) for term in terms)
    results = run_lookup(name, list(terms), state.variables.raw, state.search_paths, templar=state.templar, **options)
    taint()
    return results


def _rendered_term(term: Any, state: RenderState) -> Any:
    """A lookup's term written with a template in it (``lookup('pipe', 'echo {{ x }}')``) rendered first, as
    Ansible 2.19 renders the trusted text given to a lookup (the lookup's name is never rendered), also inside a
    list or mapping written in the template (``lookup('list', ['{{ 1 }}'])``)."""
    if not _holds_trusted_template(term, state):
        return term
    try:
        # an undefined item of a list or mapping it makes is kept, for the lookup to see (2.19's markers)
        return state.templar.template_keeping_undefined(term, state.variables.raw, search_paths=state.search_paths)
    except TemplateError as error:
        if not error.undefined:
            raise
        # as 2.19's markers: a lookup that uses it fails with the error, one that only passes it on does not
        return jinja2.StrictUndefined(hint=error.message)


def _holds_trusted_template(term: Any, state: RenderState) -> bool:
    if isinstance(term, str):
        return not isinstance(term, UnsafeText) and is_template(term)
    return (isinstance(term, (list, tuple, dict)) and not isinstance(term, UNSAFE_TYPES)
            and state.templar.holds_template(term))


def lookup(name: str, /, *terms: Any, wantlist: bool = False, **options: Any) -> Any:
    """``lookup('file', 'motd')``: one result as itself, several strings joined with commas (as Ansible does),
    or the list with ``wantlist=True``; no result is an empty list, and a failure that ``errors`` let pass is
    None, as in ansible-core 2.19."""
    results = query(name, *terms, **options)
    if wantlist:
        return results
    if isinstance(results, IgnoredFailure):
        return None
    if not results:
        return results
    if len(results) == 1:  # as it is: text keeps what it says of its origin (env's)
        return results[0]
    if all(isinstance(result, str) for result in results):
        return UnsafeText(",".join(results))
    return results


def now(utc: bool = False, fmt: str | None = None) -> Any:
    moment = datetime.datetime.now(datetime.UTC) if utc else datetime.datetime.now()
    if utc:
        moment = moment.replace(tzinfo=None)
    return moment.strftime(fmt) if fmt else moment


def jinja_globals() -> dict[str, Callable[..., Any]]:
    return {"lookup": lookup, "query": query, "q": query, "now": now}
