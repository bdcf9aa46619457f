"""Masking secret values in a result, wherever they appear in it."""

from __future__ import annotations

from typing import Any

MASK = "********"


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
