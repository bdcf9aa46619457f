"""``MODULE_STRICT_UTF8_RESPONSE``: decoded JSON whose strings cannot be encoded as UTF-8 is refused.

Such a string holds a lone surrogate: a ``"\\udc80"`` escape in the JSON text, or bytes decoded with
``surrogateescape``. ansible-core checks every JSON it deserializes on the controller through its profiles (a
module's response, the ``from_json`` filter, an inventory script's output) and fails with this message, unless
the setting is off; later, such a string would fail wherever it is encoded (written to a file, sent to a host).
The command sets ``STRICT_UTF8.enabled`` once from the configuration, before its workers fork.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MESSAGE = "Refusing to deserialize an invalid UTF8 string value"
HELP_TEXT = "This check can be disabled with the `MODULE_STRICT_UTF8_RESPONSE` setting."


@dataclass
class StrictUtf8:
    enabled: bool = True  # ansible-core's default


STRICT_UTF8 = StrictUtf8()


class InvalidUtf8(ValueError):
    """A decoded value holds a string that is not valid UTF-8. ``str()`` is ansible-core's message with the
    encoder's reason; ``help_text`` says how to turn the check off, as ansible-core's error does."""

    help_text = HELP_TEXT

    def __init__(self, reason: UnicodeEncodeError):
        super().__init__(f"{MESSAGE}: {reason}")


def _check(value: Any) -> None:
    if isinstance(value, str):
        value.encode()
    elif isinstance(value, dict):
        for key, item in value.items():
            _check(key)
            _check(item)
    elif isinstance(value, list):
        for item in value:
            _check(item)


def check_decoded(value: Any) -> Any:
    """``value`` (what ``json.loads`` returned) as it is; ``InvalidUtf8`` when the setting is on and one of its
    strings, keys included, cannot be encoded as UTF-8."""
    if STRICT_UTF8.enabled:
        try:
            _check(value)
        except UnicodeEncodeError as reason:
            raise InvalidUtf8(reason) from None
    return value
