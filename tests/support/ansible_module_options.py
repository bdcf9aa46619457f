"""Every parameter name (options and their aliases) that ansible-core's builtin modules accept, read from the
ansible-core installed where the test runs: each module's DOCUMENTATION with its doc fragments merged (as
``ansible-doc`` shows it), and the argument_spec its ``main()`` builds (caught as it constructs AnsibleModule,
before anything runs), which also holds options the documentation leaves out (``command``'s ``executable``).

Run as a script in an interpreter that imports ansible, it prints ``{module: {option: [aliases]}}`` as JSON;
nothing of ansible-core's text is kept in this repository.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

# What Ansible's own action plugins pass to their modules; no playbook writes them.
ACTION_INTERNAL = {"_uses_shell", "_async_dir"}


def ansible_module_options(python: str) -> dict[str, dict[str, list[str]]]:
    """{module: {option: [aliases]}} for every ansible.builtin module, from ansible-core in ``python``."""
    # Given as -c text from /, so neither this directory (whose secrets.py would shadow the standard library's)
    # nor the project is on that interpreter's path.
    done = subprocess.run([python, "-c", Path(__file__).read_text(), "--dump"], capture_output=True, text=True,
                          timeout=600, check=False, stdin=subprocess.DEVNULL, cwd="/")
    if done.returncode != 0:
        raise RuntimeError(f"reading ansible-core's module options failed: {done.stderr[-2000:]}")
    options: dict[str, dict[str, list[str]]] = json.loads(done.stdout)
    return options


def _dump() -> dict[str, dict[str, list[str]]]:  # pragma: no cover - runs in ansible-core's interpreter
    import importlib
    import os

    import ansible.module_utils.basic as basic
    import ansible.modules
    from ansible.plugins.loader import fragment_loader
    from ansible.utils.plugin_docs import get_docstring

    class SpecCaught(Exception):
        pass

    def catch_spec(self: Any, *args: Any, **kwargs: Any) -> None:
        raise SpecCaught(kwargs.get("argument_spec", args[0] if args else {}))

    basic.AnsibleModule.__init__ = catch_spec  # type: ignore[method-assign]
    found: dict[str, dict[str, list[str]]] = {}
    directory = os.path.dirname(ansible.modules.__file__)
    for filename in sorted(os.listdir(directory)):
        name, extension = os.path.splitext(filename)
        if extension != ".py" or name.startswith("_") or name == "async_wrapper":
            continue
        documentation = get_docstring(os.path.join(directory, filename), fragment_loader)[0] or {}
        options = {option: list(entry.get("aliases") or []) for option, entry in
                   (documentation.get("options") or {}).items()}
        for option, aliases in _spec_in_child(name, importlib, SpecCaught).items():
            options.setdefault(option, aliases)
        found[name] = options
    return found


def _spec_in_child(name: str, importlib: Any, caught_type: type[BaseException]) -> dict[str, list[str]]:
    """The argument spec of module ``name``'s main(), built in a forked child: some modules change specs they
    share as they build their own (dnf adds use_backend to the yum/dnf spec dnf5 uses too), which must not leak
    into the next module's."""  # pragma: no cover - runs in ansible-core's interpreter
    import os

    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read_end)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # whatever the module prints stays out of the JSON
        spec: dict[str, list[str]] = {}
        try:
            module = importlib.import_module(f"ansible.modules.{name}")
            if hasattr(module, "main"):  # action-only modules (debug, set_fact, ...) have documentation alone
                module.main()
        except caught_type as caught:
            spec = {option: list((entry or {}).get("aliases") or []) for option, entry in caught.args[0].items()}
        except BaseException:  # a module that reads the system before it builds its spec: its docs count
            pass
        with os.fdopen(write_end, "w") as pipe:
            json.dump(spec, pipe)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        text = pipe.read()
    os.waitpid(child, 0)
    result: dict[str, list[str]] = json.loads(text or "{}")
    return result


if __name__ == "__main__" and sys.argv[1:] == ["--dump"]:
    json.dump(_dump(), sys.stdout)
