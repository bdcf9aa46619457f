"""Masking secret values in a result, wherever they appear in it."""

from __future__ import annotations

from typing import Any

MASK = "********"
# How ansible-core shows a no_log argument's value in a result's ``invocation``.
NO_LOG_ARGUMENT = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"


def mask_secrets(result: Any, secrets: list[str]) -> Any:
    """Replace every secret argument's value in a result with a mask, wherever it appears."""
    if not secrets:
        return result
    if isinstance(result, dict):
        return {key: mask_secrets(value, secrets) for key, value in result.items()}
    if isinstance(result, list):
        return [mask_secrets(value, secrets) for value in result]
    if isinstance(result, str):
        for secret in secrets:
            result = result.replace(secret, MASK)
    return result
