"""MODULE_STRICT_UTF8_RESPONSE: decoded JSON holding a string that is not valid UTF-8 is refused, in ansible-core's
words, wherever it is decoded on the controller (from_json, a module's response); off, it is let through."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from runner.connection.session import strict_response
from runner.errors import FAILED_CAUSE, FAILED_IN
from runner.templating import Templar, TemplateError
from runner.util.strict_utf8 import HELP_TEXT, MESSAGE, STRICT_UTF8, InvalidUtf8, check_decoded

REASON = "'utf-8' codec can't encode character '\\udc80' in position 3: surrogates not allowed"


@pytest.fixture
def strict() -> Iterator[None]:
    previous = STRICT_UTF8.enabled
    STRICT_UTF8.enabled = True
    yield
    STRICT_UTF8.enabled = previous


@pytest.fixture
def lenient() -> Iterator[None]:
    previous = STRICT_UTF8.enabled
    STRICT_UTF8.enabled = False
    yield
    STRICT_UTF8.enabled = previous


@pytest.mark.parametrize(
    "text", ['"hi \\udc80 mom"', '{"a": ["hi \\udc80 mom"]}', '{"hi \\udc80 mom": 1}'], ids=["string", "nested", "key"]
)
def test_a_lone_surrogate_anywhere_is_refused_with_ansible_cores_message(strict: None, text: str) -> None:
    with pytest.raises(InvalidUtf8) as caught:
        check_decoded(json.loads(text))
    assert str(caught.value) == f"{MESSAGE}: {REASON}"
    assert caught.value.help_text == HELP_TEXT


def test_valid_text_passes_and_the_setting_off_lets_surrogates_through(lenient: None) -> None:
    assert check_decoded(json.loads('"hi \\udc80 mom"')) == "hi \udc80 mom"
    STRICT_UTF8.enabled = True
    assert check_decoded({"msg": "héllo ✓"}) == {"msg": "héllo ✓"}


def test_from_json_fails_the_template_and_keeps_the_cause_for_the_error_block(strict: None) -> None:
    with pytest.raises(TemplateError) as caught:
        Templar({}).template("{{ '\"hi \\udc80 mom\"' | from_json }}")
    assert f"{MESSAGE}: {REASON}" in caught.value.message
    assert isinstance(caught.value.__cause__, InvalidUtf8)


def test_from_json_lets_it_through_when_the_setting_is_off(lenient: None) -> None:
    assert Templar({}).template("{{ '\"hi \\udc80 mom\"' | from_json }}") == "hi \udc80 mom"


def test_a_module_response_with_a_surrogate_fails_the_task(strict: None) -> None:
    result = strict_response({"changed": False, "msg": "hi \udc80 mom"})
    assert result["failed"] is True and result[FAILED_IN] == "task"
    assert result["msg"] == f"Task failed: {MESSAGE}: {REASON}"
    assert result[FAILED_CAUSE] == f"{MESSAGE}: {REASON} {HELP_TEXT}"
    assert strict_response({"changed": True, "msg": "fine"}) == {"changed": True, "msg": "fine"}
