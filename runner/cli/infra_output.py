"""``--out table|json|yaml`` of ``provisioning-infra``'s listings: one document model (``runner.infra.outputs``)
printed as a table for people or as JSON/YAML for scripts (described by the schemas in schemas/); and asking
before a deletion."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

import click

from runner.errors import ExitCode, OptionError
from runner.galaxy.yamltext import to_yaml
from runner.infra.outputs import Output

OUT_FORMATS = ("table", "json", "yaml")
Document = TypeVar("Document", bound=Output)

out_option = click.option("-o", "--out", type=click.Choice(OUT_FORMATS), default="table", show_default=True,
                          help="table for people; json (see schemas/infra-*.schema.json) or yaml for scripts.")


def emit(document: Document, out: str, table: Callable[[Document], str]) -> None:
    if out == "json":
        click.echo(document.model_dump_json(indent=2))
    elif out == "yaml":
        click.echo(to_yaml(document.model_dump(mode="json")).rstrip())
    else:
        click.echo(table(document))


def confirm(question: str) -> None:
    """Ask before a deletion; where nobody can be asked (no terminal), stop with the option that goes ahead."""
    if not sys.stdin.isatty():
        raise OptionError(f"{question} Not asked (no terminal): pass --yes to go ahead")
    if not click.confirm(question, default=False):
        raise click.exceptions.Exit(int(ExitCode.ERROR))
