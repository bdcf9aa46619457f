"""Templating: Jinja2 with native types, Ansible's filters, tests and lookups, and the unsafe-data rule.

The entry point is ``Templar``::

    templar = Templar()
    args = drop_omitted(templar.template(task_args, variables, search_paths=[role_dir, playbook_dir]))
    if templar.evaluate_conditional(task_when, variables): ...

``variables`` is any mapping (usually ``VariableLayers.as_mapping()``); values are rendered when read.
"""

from runner.templating.environment import (
    TemplateEnvironment,
    add_project_plugins,
    configure_plugins,
    get_environment,
    is_template,
    is_whole_template,
    plugin_dirs_for,
)
from runner.templating.errors import TemplateError
from runner.templating.lookups import LOOKUPS
from runner.templating.markers import literal_values
from runner.templating.omit import OMIT, drop_omitted
from runner.templating.plugins import PluginError
from runner.templating.scope import VariableScope
from runner.templating.templar import UNTRUSTED_TEMPLATE_MESSAGE, UNTRUSTED_TEMPLATES, Templar, run_lookup
from runner.util.unsafe import UnsafeDict, UnsafeList, UnsafeText, is_unsafe, mark_unsafe, strip_unsafe

ANSIBLE_MANAGED = "Managed by provisioning: local changes will be overwritten"

__all__ = [
    "ANSIBLE_MANAGED",
    "LOOKUPS",
    "OMIT",
    "UNTRUSTED_TEMPLATES",
    "UNTRUSTED_TEMPLATE_MESSAGE",
    "PluginError",
    "Templar",
    "TemplateEnvironment",
    "TemplateError",
    "UnsafeDict",
    "UnsafeList",
    "UnsafeText",
    "VariableScope",
    "add_project_plugins",
    "configure_plugins",
    "drop_omitted",
    "get_environment",
    "is_template",
    "is_unsafe",
    "is_whole_template",
    "literal_values",
    "mark_unsafe",
    "plugin_dirs_for",
    "run_lookup",
    "strip_unsafe",
]
