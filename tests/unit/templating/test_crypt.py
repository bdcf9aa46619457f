"""SHA-crypt in pure Python gives exactly what glibc's crypt(3) gives."""

from __future__ import annotations

import warnings

import pytest

from runner.templating.filters.crypt import sha_crypt

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import crypt as system_crypt  # removed in Python 3.13; the published vectors below still apply
    except ImportError:
        system_crypt = None


@pytest.mark.parametrize(
    ("algorithm", "salt", "rounds", "password", "expected"),
    [  # vectors from the specification "Unix crypt using SHA-256 and SHA-512", checked against glibc
        ("sha512", "saltstring", None, "Hello world!",
         "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1"),
        ("sha512", "toolongsaltstring", 1400, "we have a short salt string but not a short password",
         "$6$rounds=1400$toolongsaltstrin$WPP5K.mvJCcaTbjznUQnHJlO/Qu9bAD5vNoOiP7/.b8OcyyztSYnCviQo2kaJ6gIdJT6crQD"
         "nYyXepXYg7syC0"),
        ("sha256", "saltstring", None, "Hello world!", "$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5"),
        ("sha256", "roundstoolow", 10, "the minimum number is still observed",
         "$5$rounds=1000$roundstoolow$yfvwcWrQ8l/K0DAWyuPMDNHpIVlTQebY9l/gL972bIC"),
    ],
)
def test_published_vectors(algorithm: str, salt: str, rounds: int | None, password: str, expected: str) -> None:
    assert sha_crypt(password, salt, algorithm=algorithm, rounds=rounds) == expected


@pytest.mark.skipif(system_crypt is None, reason="the crypt module is not available")
@pytest.mark.parametrize("password", ["", "a", "x" * 63, "y" * 64, "z" * 65, "wörd", "p" * 200])
@pytest.mark.parametrize(("algorithm", "identifier"), [("sha512", "6"), ("sha256", "5")])
def test_matches_the_systems_crypt(password: str, algorithm: str, identifier: str) -> None:
    assert system_crypt is not None
    expected = system_crypt.crypt(password, f"${identifier}$Ab./9z")
    assert sha_crypt(password, "Ab./9z", algorithm=algorithm) == expected
