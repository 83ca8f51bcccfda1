"""The served API's rules for anonymous visitors: identity from a token, the rate limit, the question."""

from __future__ import annotations

import secrets

import pytest

from agents.serving.visitors import (
    RateLimit,
    VisitorRefused,
    check_question,
    header,
    question_of,
    visitor_identity,
)


def test_a_token_gives_a_stable_identity_that_does_not_show_the_token() -> None:
    token = secrets.token_urlsafe(24)

    identity = visitor_identity(f"Bearer {token}")

    assert identity == visitor_identity(f"bearer  {token} ")
    assert identity.startswith("visitor:") and token not in identity
    assert identity != visitor_identity(f"Bearer {secrets.token_urlsafe(24)}")


@pytest.mark.parametrize(
    "authorization", ["", "Bearer", "Bearer short", "Basic " + "a" * 30, "Bearer " + "é" * 30]
)
def test_a_missing_or_guessable_token_is_refused_in_a_sentence(authorization: str) -> None:
    with pytest.raises(VisitorRefused) as refused:
        visitor_identity(authorization)

    assert refused.value.status == 401 and "Authorization: Bearer" in refused.value.message


def test_headers_are_read_whatever_their_type() -> None:
    assert header({b"Authorization": b"Bearer x"}, "authorization") == "Bearer x"
    assert header({"authorization": "Bearer y"}, "authorization") == "Bearer y"
    assert header({}, "authorization") == ""


def test_the_rate_limit_counts_each_client_apart() -> None:
    limit = RateLimit.parse("3/minute")
    for _ in range(3):
        limit.check("a")

    with pytest.raises(VisitorRefused) as refused:
        limit.check("a")
    limit.check("b")

    assert refused.value.status == 429 and "wait" in refused.value.message


def test_a_rate_that_is_not_one_is_named() -> None:
    with pytest.raises(ValueError, match="AGENT_API_RATE_LIMIT"):
        RateLimit.parse("often")


def test_the_question_is_the_last_message_of_the_input() -> None:
    assert (
        question_of({"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]}) == "b"
    )
    assert question_of({"messages": [{"role": "user", "content": [{"type": "text", "text": "c"}]}]}) == "c"
    assert question_of({"question": "d"}) is None
    assert question_of(None) is None


@pytest.mark.parametrize(
    ("run_input", "words"),
    [
        ({"messages": [{"role": "user", "content": " \u200b\u2060 "}]}, "empty"),
        ({"messages": [{"role": "user", "content": "x" * 4001}]}, "too long"),
        ({"text": "hello"}, '"messages"'),
    ],
)
def test_a_question_the_visitor_page_would_refuse_is_refused(run_input: object, words: str) -> None:
    with pytest.raises(VisitorRefused) as refused:
        check_question(run_input)

    assert refused.value.status == 422 and words in refused.value.message


def test_an_ordinary_question_passes() -> None:
    check_question({"messages": [{"role": "user", "content": "Where can I park?"}]})
