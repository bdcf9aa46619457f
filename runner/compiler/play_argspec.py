"""The play keyword ``validate_argspec`` (ansible-core 2.20): the play's variables checked against an argument spec
of the playbook's meta file (``site.meta.yml`` beside ``site.yml``) by a ``validate_argument_spec`` task that runs
right after fact gathering, as ansible-core's play iterator puts it there.

What ansible-core checks when it loads the play is checked here, when the playbook compiles, in its words: the
keyword's value (rendered with the play's variables and the extra vars), the spec's name (the value, or the play's
name for ``true``), and that the meta file has that spec.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from runner.errors import ParseError, SourcePosition, UserError
from runner.loader.yaml import load_yaml_file
from runner.models import Play, Task
from runner.models.base import POSITION_KEY
from runner.models.validation import validate
from runner.templating import Templar, is_template
from runner.templating.omit import OMIT

# ansible-core's YAML_FILENAME_EXTENSIONS, then no extension: the meta file's names, in the order they are tried
META_EXTENSIONS = (".yml", ".yaml", ".json", "")


def meta_candidates(playbook: Path) -> list[Path]:
    """The meta files a playbook may have: its name without a YAML extension, then ``.meta`` and each extension."""
    text = str(playbook)
    stem = (
        text.rsplit(".", 1)[0]
        if text.endswith(tuple(extension for extension in META_EXTENSIONS if extension))
        else text
    )
    return [Path(stem + ".meta" + extension) for extension in META_EXTENSIONS]


def validation_task(
    play: Play, playbook: Path, variables: dict[str, Any], *, tagged: bool, is_module: Any
) -> Task | None:
    """The task validating the play's arguments, or None when ``validate_argspec`` is off (or omitted).
    ``variables``: what the play's keywords are rendered with; ``tagged``: whether the play has tags (the task is
    then tagged as the play is, else ``always``). Raises ParseError for what ansible-core refuses."""
    position = play.position or SourcePosition(str(playbook))
    value = _rendered("validate_argspec", play.validate_argspec, variables, position)
    if value is OMIT or value is None:
        return None
    if not isinstance(value, str | bool):
        raise ParseError(f"validate_argspec must be a boolean or string, not {type(value)}", position)
    if not value:
        return None
    name: Any = value if isinstance(value, str) else None
    if value is True and play.name:
        name = _rendered("name", play.name, variables, position)
        name = None if name is OMIT else name
    candidates = meta_candidates(playbook)
    meta = next((candidate for candidate in candidates if candidate.is_file()), None)
    problems = []
    if not name:
        problems.append(
            "A play name is required when validate_argspec is True. Alternatively, set "
            "validate_argspec to the name of an argument spec."
        )
    if meta is None:
        problems.append(
            "A playbook meta file is required. Considered:\n  - "
            + "\n  - ".join(candidate.as_posix() for candidate in candidates)
        )
    if problems:
        raise ParseError(" ".join(problems), position)
    assert meta is not None
    options = _options(load_yaml_file(meta), str(name))
    if options is None:
        expected = yaml.safe_dump({"argument_specs": {str(name): {"options": {}}}}, default_flow_style=False)
        raise ParseError(
            f"No argument spec named '{name}' in {meta.as_posix()}. Minimally expected:\n{expected}",
            SourcePosition(meta.as_posix()),
        )
    data = {
        POSITION_KEY: position,
        "name": f"Validating arguments against arg spec {name}",
        "tags": [] if tagged else ["always"],
        # provided_arguments is left out, as ansible-core leaves it (the play's module_defaults may give it)
        "ansible.builtin.validate_argument_spec": {
            "argument_spec": options,
            "validate_args_context": {
                "type": "play",
                "name": name,
                "argument_spec_name": name,
                "path": meta.as_posix(),
            },
        },
    }
    return validate(Task, data, is_module=is_module, where=position)


def _rendered(keyword: str, value: Any, variables: dict[str, Any], position: SourcePosition) -> Any:
    if not isinstance(value, str) or not is_template(value):
        return value
    try:
        return Templar({"omit": OMIT, **variables}).template(value)  # omitted: off, as in ansible-core
    except UserError as exc:
        raise ParseError(f"Error processing keyword '{keyword}': {exc.message}", position) from None


def _options(meta: Any, name: str) -> dict[str, Any] | None:
    try:
        options = meta["argument_specs"][name]["options"]
    except (TypeError, KeyError):
        return None
    return options if isinstance(options, dict) else None
