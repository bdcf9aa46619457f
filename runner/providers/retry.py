"""Trying a provider call again, with exponential backoff, when it failed for a passing reason.

Providers turn their API's throttling, 5xx and connection errors into ``TransientError``; anything else
(bad credentials, a quota, a bad request) fails at once, because trying again cannot help.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from runner.infra.provider_settings import ProviderSettings
from runner.providers.base import ProviderError, TransientError

T = TypeVar("T")
# A Retry-After longer than this is not waited for in full: the next try fails or the run goes on.
MAX_RETRY_AFTER = 60.0


def with_retries(call: Callable[[], T], settings: ProviderSettings, what: str,
                 sleep: Callable[[float], None] = time.sleep) -> T:
    """``call()``, tried up to ``settings.tries`` times; the delay starts at ``retry_delay`` and doubles
    (or is the server's Retry-After). ``what`` names the call in the error after the last try."""
    delay = settings.retry_delay
    for attempt in range(1, settings.tries + 1):
        try:
            return call()
        except TransientError as error:
            if attempt == settings.tries:
                tries = "try" if attempt == 1 else "tries"
                raise ProviderError(f"{what} failed after {attempt} {tries}: {error}") from None
            wait = error.retry_after if error.retry_after is not None else delay
            sleep(min(wait, MAX_RETRY_AFTER))
            delay *= 2
    raise AssertionError("unreachable: tries is at least 1")
