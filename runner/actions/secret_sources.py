"""Sources that were encrypted on the controller (``copy``/``template`` of a vault or age file).

Their plaintext goes to the host inside the module call (never through a file on the controller), and the
``--diff`` of such a file shows no content: the file's old and new text would be the secret itself. With
``diff_secret_sources`` (``--diff-secrets``) it shows the content, as ansible-core always does, exempt from the
masking of secrets in output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.actions.arguments import ActionFailed
from runner.errors import UserError
from runner.loader.yaml import is_encrypted_start
from runner.secrets.censor import Revealed, secret_diffs_revealed

HIDDEN_DIFF = "[content hidden: the source is encrypted]\n"
# The old content gets its own note: with the same one on both sides a changed file would show no diff at all.
HIDDEN_BEFORE = "[old content hidden: the source is encrypted]\n"


def is_encrypted_source(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return is_encrypted_start(handle.read(64))
    except OSError:
        return False


def decrypted_source(path: Path) -> bytes:
    """The plaintext of an encrypted source; a wrong password fails the task, naming the file."""
    from runner.secrets.files import read_file_bytes

    try:
        return read_file_bytes(path)
    except UserError as exc:
        raise ActionFailed(exc.message) from None
    except OSError as exc:
        raise ActionFailed(f"could not read src={path}: {exc.strerror}") from None


def secret_diff(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with the content of its diff (one entry or a list of them) replaced by a note, or, when the
    user asked to see such diffs, marked to be shown as it is."""
    change = _revealed if secret_diffs_revealed() else _hidden
    diff = result.get("diff")
    if isinstance(diff, dict):
        result["diff"] = change(diff)
    elif isinstance(diff, list):
        result["diff"] = [change(entry) if isinstance(entry, dict) else entry for entry in diff]
    return result


def _hidden(entry: dict[str, Any]) -> dict[str, Any]:
    if "before" not in entry and "after" not in entry:
        return entry
    return {**entry, "before": HIDDEN_BEFORE if entry.get("before") else "", "after": HIDDEN_DIFF}


def _revealed(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: Revealed(value) if key in ("before", "after") and isinstance(value, str) else value
            for key, value in entry.items()}
