"""Settings that are accepted but not done, said to whoever sets them before anything runs.

An Ansible user's ansible.cfg carries many settings; those this product does not do are declared in
``SETTINGS`` with an ``Unsupported`` saying what it does instead. Set (in the file, the environment or on the
command line) to a value it does not do, such a setting is a warning — or an error when the run would go
otherwise than it asks (``fatal``): what a run does, where or how must never be silently different.
"""

from __future__ import annotations

from typing import Any

from runner.ansible_api.core import INSTALL_HINT, installed
from runner.config.model import Config
from runner.config.settings import SETTINGS
from runner.errors import OptionError

# Reporters that callbacks_enabled can name (an Ansible collection's prefix is allowed: community.general.junit).
ENABLED_CALLBACKS = ("junit",)
# ansible-core's own stdout callbacks: named in callbacks_enabled, one is skipped there (stdout_callback alone
# chooses the view), so it is no unknown name here either.
ANSIBLE_STDOUT_CALLBACKS = ("default", "minimal", "oneline")


def unsupported_settings(config: Config) -> list[str]:
    """The warnings for settings set to what is not done; raises OptionError for the first one that is fatal."""
    warnings: list[str] = []
    for setting in SETTINGS:
        origin = config.origin(setting.name)
        if origin.kind == "default":
            continue
        value = config[setting.name]
        for gap in setting.unsupported:
            if not gap.applies_to(value, config.default(setting.name)):
                continue
            # An error starts with the file:line:col of the value; otherwise the message says where it was set.
            where = "" if gap.fatal and origin.position else f" ({origin})"
            message = f"setting {setting.name} = {_shown(value)}{where} is not supported: {gap.reason}"
            if gap.fatal:
                raise OptionError(message, origin.position,
                                  hint=f"remove it, or set it to {_shown(config.default(setting.name))}")
            warnings.append(message)
    unknown = [name for name in config.callbacks_enabled
               if enabled_callback(name) is None and not is_ansible_stdout_callback(name)]
    if unknown and not installed():
        # With ansible-core, other names are callback plugins, looked for when the run starts.
        warnings.append(f"setting callbacks_enabled ({config.origin('callbacks_enabled')}): "
                        f"{', '.join(unknown)} not supported, ignored (supported: {', '.join(ENABLED_CALLBACKS)}; "
                        f"callback plugins need ansible-core: {INSTALL_HINT})")
    return warnings


def enabled_callback(name: str) -> str | None:
    """The reporter a callbacks_enabled entry names (``community.general.junit`` is junit), None if unknown."""
    short = name.strip().rsplit(".", 1)[-1]
    return short if short in ENABLED_CALLBACKS else None


def is_ansible_stdout_callback(name: str) -> bool:
    """``default``, ``ansible.builtin.minimal``...: one of ANSIBLE_STDOUT_CALLBACKS."""
    short = name.strip().removeprefix("ansible.builtin.").removeprefix("ansible.legacy.")
    return short in ANSIBLE_STDOUT_CALLBACKS


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
