"""``Templar``: renders task arguments, conditions and files against one host's variables.

Variables are rendered when they are read, not before: ``url: "http://{{ host }}:{{ port }}"`` in the play's vars
is rendered at the moment a task uses ``url``. Values marked unsafe (see ``unsafe.py``) are never rendered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import jinja2.nodes

from runner.errors import did_you_mean
from runner.secrets.encrypted import VaultedText, VaultEncryptedValue
from runner.templating import lookups
from runner.templating.backslashes import escaping_backslashes
from runner.templating.captured import CapturedError
from runner.templating.deprecations import CONDITIONAL_AS_TEMPLATE, deprecate
from runner.templating.environment import TemplateEnvironment, fail_if_undefined, get_environment, is_whole_template
from runner.templating.errors import LOOP_MESSAGE, TemplateError, loop_error
from runner.templating.lazy import LazyList, LazyMapping, plain
from runner.templating.markers import TEMPLATE_MARKERS, is_template
from runner.templating.omit import OMIT
from runner.templating.state import RenderState, active, current_state
from runner.templating.vault_values import check_result, reveal, reveal_or_marker
from runner.templating.views import without_views
from runner.util.unsafe import UNSAFE_TYPES, UnsafeText, mark_unsafe

_BOOLEAN_STRINGS = {"true": True, "yes": True, "false": False, "no": False}
_UNDEFINED_NAME = re.compile(r"^'([^']+)' is undefined")
_UNKNOWN_PLUGIN = re.compile(r"^No (filter|test) named '([^']+)'")
_SINGLE_EXPRESSION = re.compile(r"^\{\{(?:(?!\{\{|\}\}).)*\}\}$", re.DOTALL)
# "{{ name }}", "{{ a.b['c'][0] }}": a template that only reads a variable
_VARIABLE_REFERENCE = re.compile(r"""^\{\{\s*[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[(?:'[^']*'|"[^"]*"|\d+)\])*\s*\}\}$""")
_EMPTY: Mapping[str, Any] = {}
_OMITTED = object()  # an undefined item left out of its list or mapping


def _shorten(source: str, limit: int = 200) -> str:
    return source if len(source) <= limit else source[:limit] + "..."


class TemplateVariables(Mapping[str, Any]):
    """What a template sees: the raw variables, each rendered when read; then Jinja2's globals (lookup, range...).

    ``vars`` is this view itself, so ``vars[name]`` works as in Ansible.
    """

    copied_with_hostvars = True  # ``{{ vars }}`` as data holds ``hostvars`` (views.plain_view)

    def __init__(self, templar: Templar, variables: Mapping[str, Any]):
        self.templar = templar
        self.raw = variables
        self._globals = templar.environment.globals

    def __getitem__(self, key: str) -> Any:
        if key in self.raw:
            return self.templar.resolve_variable_or_undefined(self.raw, key)
        if key == "vars":
            return self
        return self._globals[key]

    def __contains__(self, key: object) -> bool:
        return key in self.raw or key == "vars" or key in self._globals

    def __iter__(self) -> Iterator[str]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)


UNTRUSTED_TEMPLATE_MESSAGE = "Encountered untrusted template or expression."


@dataclass
class UntrustedTemplates:
    """The run's settings of 2.19's templating (untrusted_template_behavior, allow_broken_conditionals), set once
    by the command before its workers start."""

    behavior: str = "ignore"
    allow_broken_conditionals: bool = False


UNTRUSTED_TEMPLATES = UntrustedTemplates()


class Templar:
    """Renders values with Jinja2. One per worker is enough; variables are given per call.

    ``Templar(variables)`` sets default variables for calls that pass none.
    """

    def __init__(self, variables: Mapping[str, Any] | None = None, *, environment: TemplateEnvironment | None = None,
                 search_paths: Sequence[str | Path] = ()):
        self.environment = environment or get_environment()
        self.variables = variables if variables is not None else _EMPTY
        self.search_paths = tuple(path if isinstance(path, Path) else Path(path) for path in search_paths)
        self.untrusted_templates: list[str] = []  # untrusted text holding a template, met with behavior warning

    # -- public API -------------------------------------------------------------------------------------------

    def template(self, value: Any, variables: Mapping[str, Any] | None = None, *,
                 search_paths: Sequence[str | Path] | None = None) -> Any:
        """``value`` with every template string in it rendered; dicts and lists are rendered item by item.

        Strings without ``{{``, ``{%`` or ``{#`` and unsafe values are returned as they are.
        """
        if not self._needs_rendering(value):
            return value
        with self._render_state(variables, search_paths) as state:
            return without_views(self, self._template_any(value, state))

    def evaluate_conditional(self, condition: Any, variables: Mapping[str, Any] | None = None, *,
                             search_paths: Sequence[str | Path] | None = None) -> bool:
        """A ``when``/``changed_when``/``failed_when``/``until`` condition: True or False, strictly.

        ``condition`` is a bare expression (``x is defined``), a ``{{ }}``-wrapped one, a boolean, or a list of
        these (all must hold). The result must be a boolean or one of the strings true/false/yes/no in any case
        (``-e x=yes`` or an INI inventory's ``x=yes`` is such a string); anything else is an error, not a guess.
        """
        if condition is None or isinstance(condition, bool):
            return condition is not False
        if isinstance(condition, (list, tuple)):
            return all(self.evaluate_conditional(item, variables, search_paths=search_paths) for item in condition)
        if not isinstance(condition, str):
            raise TemplateError(f"conditional {condition!r} is of type '{type(condition).__name__}'; expected a "
                                "boolean or an expression such as 'x is defined'")
        if isinstance(condition, UnsafeText):
            raise untrusted_error(condition)
        expression = condition.strip()
        if not expression:
            return True
        # A condition is read as Jinja2 reads it, backslash escapes and all (as ansible-core keeps it, from when
        # conditions were {% if %} statements).
        with self._render_state(variables, search_paths) as state:
            if not is_template(expression):
                value = self._render_string("{{ " + expression + " }}", state, shown=expression,
                                            escape_backslashes=False, kind="expression")
            elif (rendered_constants := self._constants_rendered(expression, state)) is not None:
                value = self._render_string(rendered_constants, state, shown=expression, escape_backslashes=False,
                                            kind="expression")
            elif not is_whole_template(expression):
                # "{{ a }} == 1": Ansible 2.19 reads it as an expression, in which "{{" is not a template
                self._check_expression_syntax(expression)
                value = self._render_string("{{ " + expression + " }}", state, shown=expression,
                                            escape_backslashes=False, kind="expression")
            else:
                value = self._render_string(expression, state, escape_backslashes=False, kind="expression")
                if not isinstance(value, str) or value.strip().lower() in _BOOLEAN_STRINGS or value == OMIT:
                    # a template as a whole that gives the value (an indirection, below, is no deprecation)
                    deprecate(CONDITIONAL_AS_TEMPLATE, "2.23")
                if (isinstance(value, str) and value.strip().lower() not in _BOOLEAN_STRINGS
                        and not _SINGLE_EXPRESSION.match(expression)):
                    # "{{ a }} == {{ b }}" renders to "5 == 6": text a template made, never an expression (2.19)
                    raise untrusted_error(value)
                if isinstance(value, str) and value.strip().lower() not in _BOOLEAN_STRINGS and value != OMIT:
                    # "{{ check }}" whose value is an expression: evaluated when it is a variable's own text (the
                    # indirection Ansible 2.19 allows), refused when the template made it or a host sent it
                    if isinstance(value, UnsafeText) or not is_variable_reference(expression):
                        raise untrusted_error(value)
                    value = self._render_string("{{ " + value + " }}", state, shown=expression,
                                                escape_backslashes=False, kind="expression")
        return _as_boolean(value, condition)

    def _check_expression_syntax(self, expression: str) -> None:
        """A conditional expression with template delimiters outside its string constants is a syntax error,
        in Ansible 2.19's words, unless Jinja2 reads it as an expression all the same."""
        try:
            self.environment.compiled("{{ " + expression + " }}", escape_backslashes=False)
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"Syntax error in expression. Template delimiters are not supported in expressions: "
                                f"{exc.message} (conditional: {_shorten(expression, 120)!r})",
                                template=expression, summary="Syntax error in expression") from None

    def template_container(self, source: str, variables: Mapping[str, Any] | None = None) -> Any:
        """A whole template rendered to the list or mapping it names, whose items are left as written (Ansible
        2.19's ``resolve_to_container``): ``assert``'s ``that: "{{ checks }}"`` gets the conditions as written,
        each judged as its own text."""
        with self._render_state(variables, None) as state:
            state.shallow = True
            return self._render_string(source, state)

    def template_omitting_undefined(self, value: Any, variables: Mapping[str, Any] | None = None) -> Any:
        """``value`` rendered, each item of its lists and mappings (and of the variables they read) that is
        undefined left out rather than failing the render: the terms ansible-core 2.19 gives a lookup that takes
        undefined terms (``with_first_found: ["{{ missing }}a", b]`` looks for ``b``). A value undefined as a
        whole still fails."""
        with self._render_state(variables, None) as state:
            state.omit_undefined = True
            return without_views(self, self._template_any(value, state))

    def template_keeping_undefined(self, value: Any, variables: Mapping[str, Any] | None = None, *,
                                   search_paths: Sequence[str | Path] | None = None) -> Any:
        """``value`` rendered, a list or mapping a template makes keeping the undefined items in it (``{{ [x, 1]
        }}`` with ``x`` undefined), as 2.19 gives a lookup its embedded-template terms; a value undefined as a
        whole still fails."""
        if not self._needs_rendering(value):
            return value
        with self._render_state(variables, search_paths) as state:
            state.keep_undefined = True
            return without_views(self, self._template_any(value, state))

    def template_untrusting_results(self, value: Any) -> Any:
        """``value`` rendered, each string that a template of it made marked untrusted (``UnsafeText``): Ansible
        2.19 trusts as an expression only text written in playbooks and roles, so a loop item
        ``"'a' == '{{ x }}'"`` is data once rendered, while an item written without a template stays trusted."""
        return _untrusting_results(value, self.template(value))

    def _constants_rendered(self, expression: str, state: RenderState) -> str | None:
        """``expression`` as one ``{{ }}`` expression in which each string constant holding a template is replaced
        by the constant it renders to, as Ansible 2.19 evaluates a condition such as ``'"{{ home }}/x" in paths'``:
        the rendered text is data in a constant, never more of the expression, even when it came from a host.
        None when a template stands outside string constants (``{{ a }} == 1``, the older reading) or the
        expression is a template as a whole."""
        if _SINGLE_EXPRESSION.match(expression):
            return None
        try:
            tokens = list(self.environment.lex("{{ " + expression + " }}"))
        except jinja2.TemplateSyntaxError:
            return None
        parts: list[str] = []
        for _, kind, raw in tokens:
            if kind == "string" and is_template(raw):
                # decoded as Jinja2 decodes a string constant; rendered back into one, escaped as JSON escapes
                constant = raw[1:-1].encode("ascii", "backslashreplace").decode("unicode-escape")
                try:
                    rendered = str(self._render_string(constant, state, text=True))
                except TemplateError as error:
                    if not error.undefined:
                        raise
                    parts.append(raw)  # left to what reads it: a lookup given it renders it (an undefined marker)
                    continue
                if any(ord(char) > 0xFFFF for char in rendered):
                    return None  # \U escapes are not Jinja2's: leave such text to the older reading
                raw = json.dumps(rendered)
            parts.append(raw)
        rebuilt = "".join(parts)
        return rebuilt if not is_template(rebuilt[2:-2]) else None

    def template_text(self, source: str, variables: Mapping[str, Any] | None = None, *,
                      search_paths: Sequence[str | Path] | None = None) -> str:
        """``source`` rendered to text, whatever its expressions return (for file content)."""
        if isinstance(source, UnsafeText) or not is_template(source):
            return source
        with self._render_state(variables, search_paths) as state:
            return self._render_string(source, state, text=True)

    def template_file(self, path: str | Path, variables: Mapping[str, Any] | None = None, *,
                      search_paths: Sequence[str | Path] | None = None, **jinja_options: Any) -> str:
        """A template file rendered to text; ``{% include %}`` finds files beside it, then in the search paths'
        ``templates/`` folders. ``jinja_options`` are Jinja2's (``trim_blocks``, ``lstrip_blocks``...)."""
        # As Ansible: an included file's last newline goes (Jinja2's default), and the rendered file ends with as
        # many newlines as its source does, so "Hello {% include 'world.txt' %}!" gives "Hello world!\n".
        environment = self.environment.with_options(**{"keep_trailing_newline": False, **jinja_options})
        absolute = str(Path(path).resolve())
        with self._render_state(variables, search_paths) as state:
            try:
                template = environment.get_template(absolute)
                rendered = self._guarded(lambda: environment.render(template, state.variables, text=True), absolute)
                return _with_trailing_newlines(rendered, Path(absolute).read_text(errors="replace"),
                                               environment.newline_sequence)
            except jinja2.TemplateNotFound:
                raise TemplateError(f"template file not found: {path}") from None
            except jinja2.TemplateSyntaxError as exc:
                raise self._translate(exc, absolute) from None
            except SyntaxError as exc:  # from Python's compiler, through Jinja2: its line is of generated code
                raise self._translate(jinja2.TemplateSyntaxError(exc.msg, 1), absolute) from None

    def precompile(self, source: str, *, condition: bool = False) -> None:
        """Compile ``source`` now (it is cached for later renders); a syntax error raises ``TemplateError``.
        ``condition``: it is a conditional, whose backslashes Jinja2 reads as escapes."""
        if is_template(source):
            self._compile(source, source, escape_backslashes=not condition)

    def check(self, source: str, *, condition: bool = False) -> None:
        """Check ``source`` without compiling it to code: its syntax, and that every filter and test it names
        exists. Cheaper than ``precompile`` for commands that never render (``--syntax-check``, ``--plan``)."""
        if not is_template(source):
            return
        try:
            with escaping_backslashes(not condition):
                tree = self.environment.parse(source)
        except jinja2.TemplateSyntaxError as exc:
            raise self._translate(exc, source) from None
        except RecursionError:
            raise _too_deep(source) from None
        for node in tree.find_all((jinja2.nodes.Filter, jinja2.nodes.Test)):
            kind, known = (("filter", self.environment.filters) if isinstance(node, jinja2.nodes.Filter)
                           else ("test", self.environment.tests))
            if node.name not in known:
                missing = jinja2.TemplateAssertionError(f"No {kind} named '{node.name}'.", node.lineno)
                raise self._translate(missing, source)

    def resolve_variable_or_undefined(self, variables: Mapping[str, Any], name: str) -> Any:
        """``resolve_variable``, except that a variable whose template is undefined (``x: "{{ missing }}"``,
        ``x: "{{ undef() }}"``) reads as undefined, as in Ansible: ``x | default(1)`` is 1, ``x is defined`` is
        false, and any other use fails with the first error. One whose template fails otherwise (a syntax error)
        reads as that error captured (``captured.py``), raised where it is used, as 2.19 defers it."""
        try:
            return self.resolve_variable(variables, name)
        except TemplateError as error:
            return self._marker(error, name)

    def _marker(self, error: TemplateError, name: str) -> Any:
        """What reading a variable (or an item of one) that fails to render gives: undefined when it is, the
        error captured otherwise; a loop is raised at once."""
        if error.message.startswith(LOOP_MESSAGE):
            raise error
        if not error.undefined:
            return CapturedError(hint=error.message, obj=error)
        return self.environment.undefined(hint=error.message, name=name)

    def resolve_variable(self, variables: Mapping[str, Any], name: str) -> Any:
        """The value of variable ``name`` rendered against ``variables`` (a template's view of the variables)."""
        value = variables[name]
        if isinstance(value, VaultEncryptedValue):
            return reveal_or_marker(value)
        outer = current_state()
        if isinstance(value, UNSAFE_TYPES):
            if outer is not None:
                outer.tainted = True
            return value
        if not self._needs_rendering(value) or (outer is not None and outer.shallow and isinstance(value, dict | list)):
            return value
        state = outer
        if state is None or state.variables.raw is not variables:
            state = RenderState(self, TemplateVariables(self, variables),
                                outer.search_paths if outer else self.search_paths,
                                resolving=outer.resolving if outer else set(),
                                omit_undefined=outer.omit_undefined if outer else False)
        if (outer is not None and not (outer.omit_undefined or outer.keep_undefined)
                and isinstance(value, (dict, list, tuple)) and self.holds_template(value)):
            # Read inside a template: a view whose items render as they are read, as ansible-core 2.19's lazy
            # containers (``{{ data.a }}`` never renders ``data.b``); it becomes data when it leaves the template
            # (``_render_string``), or when a filter, test or call is given it (``captured.capturing``). Not for
            # lookups' terms, whose undefined items are left out or kept as they render.
            if state is not outer:
                outer.lazy_views += 1  # another host's variable: made data as the template reading it ends
            return self._lazy_view(value, state, name)
        key = (id(variables), name)
        if key in state.resolving:
            # A template inside the variable reads it again: its list or mapping is read item by item, as
            # ansible-core's lazy templating reads it; a variable that is one template needing itself is a loop.
            if isinstance(value, (dict, list, tuple)):
                return self._lazy_view(value, state, name) if self.holds_template(value) else value
            raise loop_error(name)
        state.resolving.add(key)
        try:
            if state is outer:
                return self._template_any(value, state)
            with active(state):
                result = self._template_any(value, state)
            if state.tainted and outer is not None:
                outer.tainted = True
            return result
        finally:
            state.resolving.discard(key)

    def _lazy_view(self, value: dict[Any, Any] | list[Any] | tuple[Any, ...], state: RenderState,
                   path: str) -> LazyMapping | LazyList:
        state.lazy_views += 1

        def render(container: Any, key: Any, container_path: str) -> Any:
            return self._lazy_item(container, key, state, container_path)

        return LazyMapping(value, render, path) if isinstance(value, dict) else LazyList(value, render, path)

    @classmethod
    def holds_template(cls, value: Any) -> bool:
        """Whether a list or mapping holds, at any depth, anything rendering would change. Every variable holding
        a list or mapping that a template reads is asked this: one loop, no call per plain item."""
        if not isinstance(value, (dict, list, tuple)) or isinstance(value, UNSAFE_TYPES):
            return cls._needs_rendering(value)
        pending: list[Any] = [value]
        while pending:
            current = pending.pop()
            for item in current.values() if isinstance(current, dict) else current:
                if isinstance(item, str):
                    if "{" in item and is_template(item) and not isinstance(item, VaultedText):
                        return True
                elif isinstance(item, (dict, list, tuple)):
                    if not isinstance(item, UNSAFE_TYPES):
                        pending.append(item)
                elif isinstance(item, VaultEncryptedValue):
                    return True
        return False

    def _lazy_item(self, container: Any, key: Any, state: RenderState, container_path: str) -> Any:
        """Item ``key`` of a variable's raw ``container`` read through a lazy view: rendered in the variable's
        scope, unless that item is being rendered already (it needs itself)."""
        item = container[key]
        if isinstance(item, VaultEncryptedValue):
            return reveal(item)
        if not self._needs_rendering(item):
            if isinstance(item, UnsafeText):
                self._untrusted(item)  # as a whole variable's rendering says of it
            return item
        if isinstance(item, (dict, list, tuple)):  # plain data as it is: filters and tests take it
            return self._lazy_view(item, state, f"{container_path}[{key!r}]") if self.holds_template(item) else item
        guard = (id(container), key)
        if guard in state.resolving:
            raise loop_error(f"{container_path}[{key!r}]")
        state.resolving.add(guard)
        try:
            if current_state() is state:
                return plain(self._template_any(item, state))
            with active(state):
                return plain(self._template_any(item, state))
        except TemplateError as error:
            # as a variable's: ``data.a | default(1)`` with ``a`` undefined
            return self._marker(error, f"{container_path}[{key!r}]")
        finally:
            state.resolving.discard(guard)

    # -- internals --------------------------------------------------------------------------------------------

    def _untrusted(self, text: str) -> None:
        """Untrusted text that holds a template is left as it is; the untrusted_template_behavior setting may
        also have that said (``untrusted_templates``, which the task's result warns of) or refused."""
        behavior = UNTRUSTED_TEMPLATES.behavior
        if behavior == "ignore" or not any(marker in text for marker in TEMPLATE_MARKERS):
            return
        if behavior == "error":
            raise TemplateError(f"{UNTRUSTED_TEMPLATE_MESSAGE} (templating {_shorten(text)!r})", template=text)
        self.untrusted_templates.append(text)

    @staticmethod
    def _needs_rendering(value: Any) -> bool:
        if isinstance(value, VaultEncryptedValue):
            return True
        if isinstance(value, str):  # a secret's plaintext is data, never a template
            return not isinstance(value, (UnsafeText, VaultedText)) and is_template(value)
        # Only plain data is walked: views such as hostvars or facts are mappings that render on access.
        return isinstance(value, (dict, list, tuple)) and not isinstance(value, UNSAFE_TYPES)

    def _render_state(self, variables: Mapping[str, Any] | None, search_paths: Sequence[str | Path] | None) -> Any:
        raw = variables if variables is not None else self.variables
        paths = tuple(Path(path) for path in search_paths) if search_paths is not None else self.search_paths
        return active(RenderState(self, TemplateVariables(self, raw), paths))

    def _template_any(self, value: Any, state: RenderState) -> Any:
        if isinstance(value, VaultEncryptedValue):
            return reveal(value)
        if isinstance(value, str):
            if isinstance(value, UnsafeText):
                self._untrusted(value)
                return value
            if isinstance(value, VaultedText) or not is_template(value):
                return value
            return self._render_string(value, state)
        if isinstance(value, UNSAFE_TYPES):
            return value
        if not isinstance(value, (dict, list, tuple)):
            return value
        render = self._item_or_omitted if state.omit_undefined else self._template_any
        if state.resolving:  # a variable's items: each guarded while it renders, for its lazy views (lazy.py)
            render = self._guarded_item(value, render)
        if isinstance(value, dict):
            rendered = ((self._template_any(key, state), render(item, state)) for key, item in value.items())
            return {key: item for key, item in rendered if item is not _OMITTED}
        if isinstance(value, (list, tuple)):
            return [item for item in (render(item, state) for item in value) if item is not _OMITTED]
        return value

    @staticmethod
    def _guarded_item(container: Any, render: Any) -> Any:
        """``render`` for the items of ``container``, each recorded as being rendered while it is, so a lazy
        view of the same variable that reads it meanwhile finds the loop."""
        keys = iter(container) if isinstance(container, dict) else iter(range(len(container)))

        def guarded(item: Any, state: RenderState) -> Any:
            guard = (id(container), next(keys))
            if not isinstance(item, str):  # a list or mapping is guarded item by item, a scalar needs none
                return render(item, state)
            state.resolving.add(guard)
            try:
                return render(item, state)
            finally:
                state.resolving.discard(guard)

        return guarded

    def _item_or_omitted(self, item: Any, state: RenderState) -> Any:
        """An item rendered, or ``_OMITTED`` when it is undefined (``template_omitting_undefined``)."""
        try:
            return self._template_any(item, state)
        except TemplateError as error:
            if not error.undefined:
                raise
            return _OMITTED

    def _compile(self, source: str, shown: str, *, escape_backslashes: bool = True) -> jinja2.Template:
        try:
            return self.environment.compiled(source, escape_backslashes=escape_backslashes)
        except jinja2.TemplateSyntaxError as exc:
            raise self._translate(exc, shown) from None
        except SyntaxError as exc:  # what Jinja2 lets through from Python's compiler: f(a=1, a=2)
            raise self._translate(jinja2.TemplateSyntaxError(exc.msg, 1), shown) from None
        except RecursionError:
            raise _too_deep(shown) from None

    def _render_string(self, source: str, state: RenderState, *, text: bool = False, shown: str | None = None,
                       escape_backslashes: bool = True, kind: str = "template") -> Any:
        template = self._compile(source, shown or source, escape_backslashes=escape_backslashes)
        outer_taint, state.tainted = state.tainted, False
        lazy_views = state.lazy_views
        state.depth += 1
        try:
            result = self._guarded(lambda: self.environment.render(template, state.variables, text=text),
                                   shown or source, kind)
            if state.depth == 1 and state.lazy_views != lazy_views:
                # leaving the templates: what is left of the lazy views read renders now, into plain data
                result = self._guarded(lambda: plain(result), shown or source, kind)
                if not state.keep_undefined:
                    self._guarded(lambda: fail_if_undefined(result), shown or source, kind)
            if state.undecryptable:
                check_result(result)
            if state.tainted:
                result = mark_unsafe(result)
            return result
        finally:
            state.depth -= 1
            state.tainted = state.tainted or outer_taint

    def _guarded(self, render: Any, shown: str, kind: str = "template") -> Any:
        """``render()``, its errors said of the template (or of the conditional ``expression``, as ``kind``
        says, in ansible-core's words)."""
        try:
            return render()
        except TemplateError:
            raise
        except RecursionError:
            raise TemplateError(f"recursive loop detected while templating {_shorten(shown)!r}") from None
        except jinja2.TemplateError as exc:
            raise self._translate(exc, shown) from None
        except Exception as exc:  # a filter or test failing on its input: say which template
            # Ansible 2.19's words first (playbooks match on them), then the exception's type
            raise TemplateError(f"Error rendering {kind}: {exc} ({type(exc).__name__}) (templating "
                                f"{_shorten(shown)!r})",
                                template=shown) from exc

    def _translate(self, exc: jinja2.TemplateError, shown: str) -> TemplateError:
        message = getattr(exc, "message", None) or str(exc)
        where = f"(templating {_shorten(shown)!r})"
        undefined = _UNDEFINED_NAME.match(message)
        if isinstance(exc, jinja2.UndefinedError):
            return TemplateError(f"{message} {where}", undefined_name=undefined.group(1) if undefined else None,
                                 template=shown, undefined=True)
        unknown = _UNKNOWN_PLUGIN.match(message)
        if unknown:
            kind, name = unknown.groups()
            known = self.environment.filters if kind == "filter" else self.environment.tests
            # ansible-core 2.19's words (playbooks match on them); the compiler's warning says it shorter (summary)
            return TemplateError(f"Syntax error in template: No {kind} named '{name}'. {where}",
                                 hint=did_you_mean(name, list(known)),
                                 template=shown, summary=f"unknown {kind} '{name}'", unknown_plugin=True)
        if isinstance(exc, jinja2.TemplateSyntaxError):
            line = f" at line {exc.lineno}" if exc.lineno and exc.lineno > 1 else ""
            # ansible-core 2.19's words (playbooks match on "Syntax error")
            return TemplateError(f"Syntax error in template{line}: {message} {where}", template=shown,
                                 summary=f"Syntax error in template{line}")
        return TemplateError(f"{message} {where}", template=shown)


def _too_deep(source: str) -> TemplateError:
    # Jinja2 parses and compiles by recursion: nesting past Python's stack is refused, as a syntax error would be.
    return TemplateError(f"template nests expressions too deeply to parse (templating {_shorten(source)!r})",
                         template=source, summary="template nests expressions too deeply to parse")


def is_variable_reference(text: str) -> bool:
    """Whether ``text`` is a template that only reads a variable (``{{ name }}``, ``{{ a.b['c'][0] }}``): the
    indirection through which Ansible 2.19 trusts a variable's own text as an expression."""
    return _VARIABLE_REFERENCE.match(text.strip()) is not None


def _untrusting_results(written: Any, rendered: Any) -> Any:
    if isinstance(written, str):
        return mark_unsafe(rendered) if isinstance(rendered, str) and is_template(written) else rendered
    if isinstance(written, (list, tuple)) and isinstance(rendered, list) and len(written) == len(rendered):
        return [_untrusting_results(raw, item) for raw, item in zip(written, rendered, strict=True)]
    if isinstance(written, dict) and isinstance(rendered, dict) and written.keys() == rendered.keys():
        return {key: _untrusting_results(written[key], item) for key, item in rendered.items()}
    return rendered


def untrusted_error(text: str) -> TemplateError:
    """Ansible 2.19's refusal, in its words, of text a host sent, marked !unsafe or made by a template as an
    expression: such text is data."""
    return TemplateError(f"Encountered untrusted template or expression: refusing to evaluate {_shorten(text, 120)!r}, "
                         "which came from a host, is marked !unsafe or is a template's result",
                         summary="Encountered untrusted template or expression")


def _as_boolean(value: Any, condition: Any) -> bool:
    if isinstance(value, bool):
        return value
    if UNTRUSTED_TEMPLATES.allow_broken_conditionals and not isinstance(value, str):
        return bool(value)  # as Ansible 2.19 with ALLOW_BROKEN_CONDITIONALS: Python's truth
    if UNTRUSTED_TEMPLATES.allow_broken_conditionals and value != OMIT \
            and value.strip().lower() not in _BOOLEAN_STRINGS:
        return bool(value)
    if isinstance(value, str) and value == OMIT:
        # as in Ansible: a condition has no "unset" to fall back to
        raise TemplateError(f"conditional {_shorten(str(condition), 120)!r} resolved to omit, which is not a "
                            "boolean; a condition cannot be omitted")
    if isinstance(value, str) and value.strip().lower() in _BOOLEAN_STRINGS:
        return _BOOLEAN_STRINGS[value.strip().lower()]
    truth: bool | str
    try:
        truth = bool(value)
    except Exception:
        truth = "an error"
    raise TemplateError(
        f"Conditional result was {_shorten(repr(value), 80)} of type '{type(value).__name__}', which evaluates to "
        f"{truth} in Python but is not a boolean (conditional: {_shorten(str(condition), 120)!r})",
        hint="a condition must be true/false (or the strings yes/no); compare explicitly, "
             "e.g. 'x | length > 0', or convert with '| bool'")


def run_lookup(name: str, terms: Any, variables: Mapping[str, Any], search_paths: Sequence[str | Path] = (), /, *,
               templar: Templar | None = None, **options: Any) -> list[Any]:
    """A lookup run outside any template (the items of a ``with_<name>`` loop): ``runner.templating.lookups``'
    ``run_lookup``, with a templar of its own when the caller gives none."""
    return lookups.run_lookup(name, terms, variables, search_paths, templar=Templar() if templar is None else templar,
                              **options)


def _trailing_newlines(text: str) -> int:
    return len(text) - len(text.rstrip("\n"))


def _with_trailing_newlines(rendered: str, source: str, newline: str) -> str:
    missing = _trailing_newlines(source) - _trailing_newlines(rendered)
    return rendered + newline * missing if missing > 0 else rendered
