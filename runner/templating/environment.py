"""The one Jinja2 environment every template is rendered in: native types, strict undefined, Ansible's filters.

Native types: a template that is a single expression (``"{{ ports }}"``) gives that expression's value with its
type (a list stays a list, an int an int). Anything with text around it gives a string, except that a result
which reads as a Python list or dict literal (``"[{{ a }}, {{ b }}]"``) becomes that list or dict, as Ansible
does. Template files always render to text.

Undefined variables raise as soon as they are used (``'foo' is undefined``), while ``is defined``,
``| default(...)`` and attribute access on an undefined value (``foo.bar | default(1)``) still work.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache, wraps
from itertools import chain, islice
from pathlib import Path
from types import CodeType
from typing import Any

from jinja2 import BaseLoader, Template, TemplateNotFound, nodes
from jinja2.compiler import Frame
from jinja2.nativetypes import NativeCodeGenerator, NativeEnvironment
from jinja2.runtime import Context, missing

from runner.errors import UserError
from runner.loader.yaml import read_text_decrypted
from runner.templating import protomatter
from runner.templating.backslashes import BackslashEscapingLexer, escaping_backslashes
from runner.templating.captured import CapturedError, capture, first_captured, plain_arguments
from runner.templating.deprecations import deprecate_entry
from runner.templating.errors import TemplateError
from runner.templating.filters import builtin_filters
from runner.templating.jinja_globals import jinja_globals
from runner.templating.jinja_tests import builtin_tests
from runner.templating.markers import is_template
from runner.templating.plugin_paths import PLUGIN_PATHS, configure_plugin_paths
from runner.templating.plugin_table import PluginTable
from runner.templating.plugins import load_plugins, shipped_plugin_dir
from runner.templating.scope import VariableScope
from runner.templating.state import RenderedVariables, current_state, taint
from runner.templating.undefined import Undefined, undef
from runner.util.unsafe import UNSAFE_TYPES, DeprecatedText


def is_whole_template(text: str) -> bool:
    """What Ansible takes for a template that may yield a whole value (a task's arguments, assert's list of
    conditions) rather than text: one that starts and ends the text."""
    stripped = text.strip()
    return is_template(stripped) and stripped.startswith(("{{", "{%")) and stripped.endswith(("}}", "%}"))


def fail_if_undefined(value: Any) -> None:
    """Raise the undefined error hidden in a native result (``{{ [foo] }}`` with ``foo`` undefined)."""
    if isinstance(value, Undefined):
        value._fail_with_undefined_error()
    elif isinstance(value, UNSAFE_TYPES):
        return  # data from a host cannot hold an Undefined
    elif isinstance(value, dict):
        # Only plain data is walked: a view (hostvars, one host's variables, the facts) renders on access,
        # holds no Undefined a template made, and may reach itself (hostvars[h].hostvars).
        for item in value.values():
            fail_if_undefined(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            fail_if_undefined(item)


def without_undefined(value: Any) -> Any:
    """A native result with every undefined item of its plain lists and mappings left out (ansible-core's
    ``first_found`` invoked as ``with_first_found`` drops its undefined terms, at any depth). A captured error
    is kept, to fail where it is used."""
    if isinstance(value, UNSAFE_TYPES):
        return value
    if isinstance(value, dict):
        return {key: without_undefined(item) for key, item in value.items() if not _left_out(item)}
    if isinstance(value, (list, tuple)):
        kept = (without_undefined(item) for item in value if not _left_out(item))
        return tuple(kept) if isinstance(value, tuple) else list(kept)
    return value


def _left_out(item: Any) -> bool:
    return isinstance(item, Undefined) and not isinstance(item, CapturedError)


def _text(value: Any) -> str:
    if isinstance(value, UNSAFE_TYPES):
        taint()
    elif isinstance(value, (dict, list, tuple)):
        fail_if_undefined(value)  # "{{ [foo] }} text" fails as "{{ [foo] }}" does, rather than print Undefined
    return "" if value is None else str(value)


# Jinja2's filters that yield a generator: Ansible makes their results lists, so that ``select(...) | length``,
# ``| last`` and a second read work
_LAZY_FILTERS = ("map", "select", "reject", "selectattr", "rejectattr")


def _listing(function: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(function)  # keeps Jinja2's pass_context/pass_environment marks
    def listed(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        return list(result) if isinstance(result, Iterator) else result

    return listed


def native_concat(values: Iterable[Any]) -> Any:
    """A template's output nodes as one value: the value itself for a single expression, else a string."""
    iterator = iter(values)
    head = list(islice(iterator, 2))
    if not head:
        return ""
    if len(head) == 1:
        value = head[0]
        if isinstance(value, Iterator):
            # a lazy result ({{ users | map(attribute='name') }}, select, zip...) becomes the list it yields,
            # as in Ansible: it can be stored, sent to a host and read twice, and an undefined in it fails here
            value = list(value)
        state = current_state()
        if state is not None and state.omit_undefined and not isinstance(value, Undefined):
            value = without_undefined(value)
        if state is None or not state.keep_undefined or isinstance(value, Undefined):
            fail_if_undefined(value)
        if isinstance(value, UNSAFE_TYPES):
            taint()
        return value
    text = "".join(_text(value) for value in chain(head, iterator))
    if text[:1] in ("[", "{"):
        try:
            literal = ast.literal_eval(ast.parse(text, mode="eval"))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return text
        if isinstance(literal, (list, dict)):
            return literal
    return text


def text_concat(values: Iterable[Any]) -> str:
    """A template file's output: always text; ``None`` prints as nothing."""
    return "".join(_text(value) for value in values)


class _CodeGenerator(NativeCodeGenerator):
    """Evaluates every expression when rendering. Jinja2 would fold constant output (``{{ 8080 }}``) into text at
    compile time, losing its type, and would run ``{{ 100 | random }}`` once for all renders."""

    def _output_child_to_const(self, node: nodes.Expr, frame: Frame, finalize: Any) -> Any:
        if isinstance(node, nodes.TemplateData):
            return super()._output_child_to_const(node, frame, finalize)
        raise nodes.Impossible()


class _Context(Context):
    """Looks a name up in the variables with one ``__getitem__`` (they are rendered on access, so no
    ``in`` check first). A call (``undef(0)``, ``lookup(...)``, a method) that raises gives its error as a value,
    and a captured error given to a call is its result, as ansible-core 2.19 calls them (``captured.py``)."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # Jinja2's signature
        if (captured := first_captured(args, kwargs)) is not None:
            return captured
        try:
            return super().call(__obj, *plain_arguments(args), **kwargs)
        except RecursionError:
            raise
        except Exception as error:
            return capture(error)

    def resolve_or_missing(self, key: str) -> Any:
        if key in self.vars:
            return self.vars[key]
        try:
            return self.parent[key]
        except KeyError:
            return missing


class _FileLoader(BaseLoader):
    """Loads templates by absolute path; ``TemplateEnvironment.join_path`` turns names into paths first."""

    def get_source(self, environment: Any, template: str) -> tuple[str, str, Any]:
        path = Path(template)
        if not path.is_absolute():
            raise TemplateNotFound(template)
        try:
            source = read_text_decrypted(path)  # a vault- or age-encrypted template is decrypted, as in Ansible
            mtime = path.stat().st_mtime
        except OSError:
            raise TemplateNotFound(template) from None
        except UserError as exc:  # a wrong password: the template fails with the reason
            raise TemplateError(exc.message) from None

        def uptodate() -> bool:
            try:
                return path.stat().st_mtime == mtime
            except OSError:
                return False

        return source, str(path), uptodate


def find_template_file(name: str, search_paths: Iterable[Path], *, relative_to: Path | None = None) -> Path | None:
    """``name`` beside ``relative_to``, else in each search path's ``templates/`` folder, else in the path itself."""
    if os.path.isabs(name):
        return Path(name) if Path(name).is_file() else None
    candidates = [relative_to / name] if relative_to else []
    for base in search_paths:
        candidates += [base / "templates" / name, base / name]
    return next((candidate for candidate in candidates if candidate.is_file()), None)


def _add_namespace(plugins: dict[str, Any], prefix: str) -> None:
    """Each short name also under ``prefix`` (``to_json`` as ``ansible.builtin.to_json``)."""
    plugins.update({prefix + name: plugin for name, plugin in list(plugins.items()) if "." not in name})


# Marks the compiled-code key of a template compiled without escaping backslashes (no template text starts with NUL).
_UNESCAPED = "\0"


class TemplateEnvironment(NativeEnvironment):
    """Compiles each template string once (the compiler pre-compiles them all) and knows Ansible's plugins."""

    context_class = _Context
    code_generator_class = _CodeGenerator
    concat = staticmethod(native_concat)

    def __init__(self, plugin_dirs: Sequence[Path] = (), **options: Any):
        options.setdefault("trim_blocks", True)
        options.setdefault("keep_trailing_newline", True)
        super().__init__(undefined=Undefined, loader=_FileLoader(), autoescape=False, optimized=False,
                         extensions=["jinja2.ext.loopcontrols", "jinja2.ext.do"], **options)
        self.filters = PluginTable("filter", {**self.filters, **builtin_filters()})
        for name in _LAZY_FILTERS:
            self.filters[name] = _listing(self.filters[name])
        # Jinja2's stubs type the tests as plain functions; ours are any callable, as Jinja2 accepts.
        self.tests = PluginTable("test", {**self.tests, **builtin_tests()})  # type: ignore[assignment,dict-item]
        self.globals.update(jinja_globals(), undef=undef)
        _add_namespace(self.filters, "ansible.builtin.")  # Jinja2's and Ansible's own, by their full names
        _add_namespace(self.tests, "ansible.builtin.")
        self.filters.update(protomatter.FILTERS)  # ansible-core 2.19's internal ones on data tags
        self.tests.update(protomatter.TESTS)
        # The project's own plugins first, then the configured folders and the playbook's: later ones win.
        self.add_plugin_dirs([shipped_plugin_dir(), *plugin_dirs])
        self._compiled: dict[str, Template] = {}
        self._code: dict[str, CodeType] = {}  # the code of each compiled string, for the plan cache
        self._variants: dict[tuple[tuple[str, Any], ...], TemplateEnvironment] = {}
        self._lexer: BackslashEscapingLexer | None = None

    @property
    def lexer(self) -> BackslashEscapingLexer:
        if self._lexer is None:  # made on first use: its rules follow this environment's (or variant's) options
            self._lexer = BackslashEscapingLexer(self)
        return self._lexer

    def add_plugin_dirs(self, plugin_dirs: Sequence[Path]) -> None:
        """Load the filters and tests of more ``filter_plugins``-style folders; their names replace earlier ones."""
        plugin_filters, plugin_tests = load_plugins(plugin_dirs)
        self.filters.update(plugin_filters)
        self.tests.update(plugin_tests)
        _add_namespace(self.filters, "ansible.legacy.")  # as Ansible: the builtins and the local plugins
        _add_namespace(self.tests, "ansible.legacy.")

    def with_options(self, **options: Any) -> TemplateEnvironment:
        """This environment with other Jinja2 options (``lstrip_blocks``, delimiters...), made once per set."""
        if not options:
            return self
        key = tuple(sorted(options.items()))
        variant = self._variants.get(key)
        if variant is None:
            variant = self.overlay(**options)
            variant._compiled = {}  # compiled code depends on the options
            variant._code = {}
            variant._variants = {}
            variant._lexer = None
            self._variants[key] = variant
        return variant

    def compiled(self, source: str, *, escape_backslashes: bool = True) -> Template:
        """The compiled template for ``source``; compiled on first use, then reused for every host and task.

        ``escape_backslashes``: its expressions' string constants keep their backslashes (a playbook's value,
        see runner.templating.backslashes); False for a conditional, read as Jinja2 reads it."""
        key = source if escape_backslashes else _UNESCAPED + source
        template = self._compiled.get(key)
        if template is None:
            # What from_string does, keeping the code object so that a cached plan can bring it back.
            with escaping_backslashes(escape_backslashes):
                code = self._code[key] = self.compile(source)
            template = self._compiled[key] = self.template_class.from_code(self, code, self.make_globals(None))
        return template

    def compiled_code(self) -> dict[str, CodeType]:
        """The code of every string compiled so far (marshal can store it: the plan cache does)."""
        return dict(self._code)

    def adopt_compiled(self, code: dict[str, CodeType]) -> None:
        """Take strings' code compiled by an earlier command (same Jinja2, Python and options) as compiled."""
        globals_ = self.make_globals(None)
        for source, source_code in code.items():
            if source not in self._compiled:
                self._code[source] = source_code
                self._compiled[source] = self.template_class.from_code(self, source_code, globals_)

    def render(self, template: Template, variables: RenderedVariables, *, text: bool = False) -> Any:
        # Shared: the context reads the variables as they are, rendered on access; Jinja2's stubs want a dict.
        context = template.new_context(variables, shared=True)  # type: ignore[arg-type]
        output: Iterator[Any] = template.root_render_func(context)
        return text_concat(output) if text else native_concat(output)

    def join_path(self, template: str, parent: str) -> str:
        """Resolve ``{% include %}``/``{% import %}`` names to absolute paths: beside the including file, then in
        the search paths. The absolute path is also the cache key, so two roles' ``header.j2`` never mix."""
        state = current_state()
        parent_dir = Path(parent).parent if parent and os.path.isabs(parent) else None
        found = find_template_file(template, state.search_paths if state else (), relative_to=parent_dir)
        return str(found) if found else template

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, VariableScope):
            return self._scope_item(obj, attribute)
        value = super().getattr(obj, attribute)
        if isinstance(value, UNSAFE_TYPES):
            taint()
            if isinstance(value, DeprecatedText):  # a value a module deprecated, read: its task says so
                deprecate_entry(value.deprecation)
        return value

    def getitem(self, obj: Any, argument: Any) -> Any:
        if isinstance(obj, VariableScope):
            return self._scope_item(obj, argument)
        value = super().getitem(obj, argument)
        if isinstance(value, UNSAFE_TYPES):
            taint()
            if isinstance(value, DeprecatedText):  # a value a module deprecated, read: its task says so
                deprecate_entry(value.deprecation)
        return value

    def _scope_item(self, scope: VariableScope, key: Any) -> Any:
        state = current_state()
        if key not in scope:
            return self.undefined(obj=scope, name=key)
        if state is None:
            return scope[key]
        return state.templar.resolve_variable_or_undefined(scope, key)


@lru_cache(maxsize=16)
def _environment_for(plugin_dirs: tuple[Path, ...]) -> TemplateEnvironment:
    return TemplateEnvironment(plugin_dirs)


_run_environment: list[TemplateEnvironment] = []  # the run's environment, made on first use


def get_environment(plugin_dirs: Iterable[str | Path] = ()) -> TemplateEnvironment:
    """The environment of the run (its ``filter_plugins`` folders, ``configure_plugins``), or, given folders, the
    shared environment for these folders (missing folders are skipped); each built once."""
    if plugin_dirs:
        existing = tuple(Path(path).resolve() for path in plugin_dirs if Path(path).is_dir())
        return _environment_for(existing)
    if not _run_environment:
        _run_environment.append(TemplateEnvironment(PLUGIN_PATHS.filter_dirs))
    return _run_environment[0]


def configure_plugins(*, filter_dirs: Iterable[Path] = (), collections_paths: Iterable[Path] = ()) -> None:
    """Start a run's plugins: the configured ``filter_plugins`` folders and the collections path."""
    configure_plugin_paths(filter_dirs=[path for path in filter_dirs if Path(path).is_dir()],
                           collections_paths=collections_paths)
    _run_environment.clear()


def add_project_plugins(directory: Path) -> None:
    """Add the ``filter_plugins/``, ``test_plugins/`` and ``lookup_plugins/`` of a playbook's or role's directory to
    the run's plugins, as Ansible does when it loads the playbook or the role."""
    added = PLUGIN_PATHS.add_project_dir(directory)
    if added and _run_environment:
        _run_environment[0].add_plugin_dirs(added)


def plugin_dirs_for(configured: Iterable[str | Path] = (), playbook_dir: str | Path | None = None) -> list[Path]:
    """The ``filter_plugins`` folders of a run: the configured ones, then the playbook's own."""
    dirs = [Path(path) for path in configured]
    if playbook_dir is not None:
        dirs.append(Path(playbook_dir) / "filter_plugins")
    return dirs


__all__ = ["TemplateEnvironment", "add_project_plugins", "configure_plugins", "get_environment", "is_template",
           "plugin_dirs_for"]
