"""``debug``: show a message or a variable's value, at or above a verbosity."""

from __future__ import annotations

import re
from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.templating import is_template
from runner.templating.errors import TemplateError
from runner.templating.omit import OMIT
from runner.templating.templar import is_variable_reference, untrusted_error
from runner.util.unsafe import UnsafeText

# Jinja's "'dict object' has no attribute 'b'" (our value types included), said as Ansible 2.19 says it.
_PLAIN_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$")
_MISSING_ATTRIBUTE = re.compile(r"^'(?:[\w.]+\.)?(?:Unsafe)?(\w+?) object' has no attribute ('.*')")


async def run_debug(ctx: ActionContext) -> dict[str, Any]:
    result = _debug(ctx)
    if not result.get("skipped") and not result.get("failed"):
        result["_ansible_verbose_always"] = True  # as ansible-core's debug: its message is shown without -v
    return result


def _debug(ctx: ActionContext) -> dict[str, Any]:
    written = _var_name(ctx)
    if written is not None and not isinstance(written, str):  # Ansible's words: var names an expression
        return {"failed": True, "changed": False, "msg": f"argument 'var' is of type {type(written).__name__}: "
                f"'{written!r}' is not a string and conversion is not allowed"}
    params = action_arguments(ctx)
    if ctx.verbosity < int(params["verbosity"]):
        return {"changed": False, "skipped": True, "skipped_reason": "Verbosity threshold not met."}
    if params.get("var") is not None:
        name = str(params["var"])
        try:
            value = ctx.templar.template("{{ " + name + " }}")
        except TemplateError as error:
            if not error.undefined:  # a failing filter or lookup fails the task, as in Ansible
                raise
            undefined = undefined_text(error)  # shown and warned of as Ansible 2.19 does
            return {"changed": False, name: f"<< error 1 - {undefined} >>",
                    "warnings": [f"Encountered 1 template error.\nerror 1 - {undefined}"]}
        if isinstance(value, str) and value == OMIT:  # a value cannot be omitted from a result: Ansible's placeholder
            return {"changed": False, name: "<<Omit>>", "warnings": [
                "The result of the `var` expression could not be omitted; a placeholder was used instead."]}
        return {"changed": False, name: value}
    return {"changed": False, "msg": params["msg"]}


def _var_name(ctx: ActionContext) -> Any:
    """``var`` as given (Action.expressions), a template in it rendered as Ansible 2.19 renders it: to omit (no
    ``var``), or to a name its text may be trusted for only when it reads a variable (``{{ name_var }}``)."""
    written = ctx.args.get("var")
    if isinstance(written, UnsafeText):
        # Ansible 2.19's words: a name marked !unsafe or sent by a host is data, not an expression to evaluate
        raise TemplateError(f"Error while resolving `var` expression: Encountered untrusted template or "
                            f"expression: refusing to evaluate {written!r}, which is marked !unsafe or came from "
                            "a host")
    if not (isinstance(written, str) and is_template(written)):
        return written
    rendered = ctx.templar.template(written)
    if isinstance(rendered, str) and rendered == OMIT:
        ctx.args = {key: value for key, value in ctx.args.items() if key != "var"}
        return None
    if isinstance(rendered, str) and not is_variable_reference(written):
        raise untrusted_error(rendered)
    if isinstance(rendered, UnsafeText) and not _PLAIN_NAME.match(rendered):
        # a loop item from a lookup (with_items) is marked unsafe here, where Ansible keeps its written text
        # trusted: a plain variable name runs nothing, so it is read; anything more is refused
        raise untrusted_error(rendered)
    ctx.args = {**ctx.args, "var": rendered}
    return rendered


def undefined_text(error: TemplateError) -> str:
    """What is undefined, in Ansible 2.19's words: "'x' is undefined", "object of type 'dict' has no attribute
    'b'"."""
    text = error.message.split(" (templating ")[0]
    missing = _MISSING_ATTRIBUTE.match(text)
    if missing:
        return f"object of type '{missing.group(1).lower()}' has no attribute {missing.group(2)}"
    return text
