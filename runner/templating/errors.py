"""The one error templating raises: what went wrong, in which template; the caller adds the task and position."""

from __future__ import annotations

from runner.errors import SourcePosition, UserError


class TemplateError(UserError):
    """A template that cannot be rendered: an undefined variable, a syntax error, a failing filter or lookup.

    ``undefined_name`` is set when the cause is an undefined variable, so callers can say which one;
    ``undefined`` also when it is a missing attribute or key (``d.b``), which Ansible treats alike. ``summary``
    says what is wrong without quoting the template (a ``no_log`` task's template may hold a secret);
    ``unknown_plugin`` when the cause is a filter or test that does not exist.
    """

    def __init__(self, message: str, position: SourcePosition | None = None, *, hint: str | None = None,
                 undefined_name: str | None = None, template: str | None = None, summary: str | None = None,
                 undefined: bool = False, unknown_plugin: bool = False):
        super().__init__(message, position, hint=hint)
        self.unknown_plugin = unknown_plugin
        self.undefined_name = undefined_name
        self.undefined = undefined or undefined_name is not None
        self.template = template
        self.summary = summary or "template error"

    def with_context(self, what: str, position: SourcePosition | None = None) -> TemplateError:
        """The same error, said of ``what`` (for instance "task 'Install packages'") and placed at ``position``."""
        error = TemplateError(f"{what}: {self.message}", position or self.position, hint=self.hint,
                              undefined_name=self.undefined_name, template=self.template, summary=self.summary,
                              undefined=self.undefined, unknown_plugin=self.unknown_plugin)
        error.__cause__ = self.__cause__
        return error


# ansible-core's words for a template that needs itself (playbooks match on them)
LOOP_MESSAGE = "Recursive loop detected in template"


def loop_error(name: str) -> TemplateError:
    """A variable, or an item of one (``data['a']``), whose template needs itself."""
    what = name if "[" in name else f"variable '{name}'"
    return TemplateError(f"{LOOP_MESSAGE}: {what} refers to itself", undefined_name=name.split("[")[0])
