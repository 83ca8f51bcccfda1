"""The served API's rules for anonymous visitors: identity from a token, the question."""

from __future__ import annotations

import secrets
import uuid

import pytest

from agents.serving.visitors import (
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
    "authorization",
    [
        "",
        "Bearer",
        "Bearer short",
        "Basic " + "a" * 30,
        "Bearer " + "é" * 30,
        "Bearer " + "a" * 22,  # the shape of a token, none of its randomness
        "Bearer " + "ab" * 11,
    ],
)
def test_a_missing_or_guessable_token_is_refused_in_a_sentence(authorization: str) -> None:
    with pytest.raises(VisitorRefused) as refused:
        visitor_identity(authorization)

    assert refused.value.status == 401 and "Authorization: Bearer" in refused.value.message


def test_tokens_drawn_as_the_widget_and_the_sdk_draw_them_pass() -> None:
    for _ in range(2000):
        visitor_identity(f"Bearer {secrets.token_urlsafe(17)[:22]}")  # the shortest accepted
        visitor_identity(f"Bearer {uuid.uuid4()}")


def test_headers_are_read_whatever_their_type() -> None:
    assert header({b"Authorization": b"Bearer x"}, "authorization") == "Bearer x"
    assert header({"authorization": "Bearer y"}, "authorization") == "Bearer y"
    assert header({}, "authorization") == ""


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
