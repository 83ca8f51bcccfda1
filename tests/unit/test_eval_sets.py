"""The development sets of data/eval/ keep their shape: fields, kinds, languages, halves and sizes."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter
from functools import cache
from typing import Any, get_args

import pytest

from agents.tools.dates import parse_visit_date
from agents.tools.travel.gazetteer import load_gazetteer
from benchmarks._common import half_of
from rag.evaluate import normalise
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.lexicon.transport import TravelMode
from tests.conftest import REPO_ROOT, SHARED_DIR

EVAL = REPO_ROOT / "data" / "eval"
TOOLS = {"search_knowledge_base", "get_weather", "get_travel_info"}
KINDS = {
    "kb", "weather", "travel", "topic_switch", "ellipsis_kb", "ellipsis_weather", "ellipsis_travel",
    "from_there", "out_of_scope", "unsupported_language", "short_keep_language", "language_switch",
    "small_talk",
}  # fmt: skip
TOOL_OF_KIND = {"weather": "get_weather", "ellipsis_weather": "get_weather", "travel": "get_travel_info",
                "ellipsis_travel": "get_travel_info", "from_there": "get_travel_info"}  # fmt: skip
SLOTS = {"origin", "mode", "date_word", "place"}
A_THURSDAY = dt.date(2026, 6, 4)  # date words are read from a fixed day: the figures must not depend on it


@cache
def rows(name: str) -> list[dict[str, Any]]:
    with (EVAL / name).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def turns() -> list[tuple[str, dict[str, Any]]]:
    return [
        (conversation["id"], turn)
        for conversation in rows("conversations.jsonl")
        for turn in conversation["turns"]
    ]


@pytest.mark.parametrize(
    "name",
    [
        "conversations.jsonl",
        "scope.jsonl",
        "tool_paraphrases.jsonl",
        "out_of_scope_unseen.jsonl",
        "visit_facts.jsonl",
        "visit_facts_negatives.jsonl",
        "dated_routes.jsonl",
    ],
)
def test_ids_are_unique_and_both_halves_hold_every_language(name: str) -> None:
    items = rows(name)
    assert len({item["id"] for item in items}) == len(items)
    assert {item["lang"] for item in items} == set(SUPPORTED_LANGUAGES)
    assert {half_of(item["id"]) for item in items} == {"tune", "check"}


def test_conversations_are_60_or_more_of_two_to_four_turns_in_every_language() -> None:
    conversations = rows("conversations.jsonl")
    assert len(conversations) >= 64
    assert min(Counter(c["lang"] for c in conversations).values()) >= 6
    assert all(2 <= len(c["turns"]) <= 4 for c in conversations)
    assert all(c["turns"][0]["kind"] in {"kb", "weather", "travel"} for c in conversations)


def test_every_kind_of_turn_is_played_in_several_languages_and_both_halves() -> None:
    languages: dict[str, set[str]] = {}
    halves: dict[str, set[str]] = {}
    for conversation in rows("conversations.jsonl"):
        for turn in conversation["turns"]:
            languages.setdefault(turn["kind"], set()).add(conversation["lang"])
            halves.setdefault(turn["kind"], set()).add(half_of(conversation["id"]))
    assert set(languages) == KINDS
    assert all(len(found) >= 5 for found in languages.values()), languages
    assert all(found == {"tune", "check"} for found in halves.values()), halves


def test_turn_fields_are_well_formed() -> None:
    for conversation_id, turn in turns():
        assert turn["text"].strip() and turn["kind"] in KINDS, conversation_id
        assert turn["reply_lang"] in SUPPORTED_LANGUAGES, conversation_id
        assert set(turn["expect_tools"]) <= TOOLS and set(turn["forbid_tools"]) <= TOOLS, conversation_id
        assert not set(turn["expect_tools"]) & set(turn["forbid_tools"]), conversation_id
        assert turn["decline"] is (turn["kind"] == "out_of_scope"), conversation_id
        assert set(turn.get("expect_args", {})) <= SLOTS, conversation_id
        if tool := TOOL_OF_KIND.get(turn["kind"]):
            assert tool in turn["expect_tools"], conversation_id


def test_languages_follow_the_conversation() -> None:
    """Unsupported languages are answered in English; a switch holds for the turns after it."""
    for conversation in rows("conversations.jsonl"):
        language = conversation["lang"]
        for turn in conversation["turns"]:
            if turn["kind"] == "language_switch":
                assert turn["reply_lang"] != language, conversation["id"]
                language = turn["reply_lang"]
            expected = "en" if turn["kind"] == "unsupported_language" else language
            assert turn["reply_lang"] == expected, conversation["id"]


def test_a_topic_switch_forbids_the_previous_turns_tool() -> None:
    for conversation in rows("conversations.jsonl"):
        for previous, turn in zip(conversation["turns"], conversation["turns"][1:], strict=False):
            if turn["kind"] == "topic_switch":
                tool = TOOL_OF_KIND[previous["kind"]]
                assert tool in turn["forbid_tools"] and turn["expect_tools"], conversation["id"]


def test_expected_slots_are_readable_by_the_tools() -> None:
    """Origins are gazetteer names, modes the travel tool's, date words days its parser reads."""
    gazetteer = load_gazetteer(REPO_ROOT / "data" / "travel" / "gazetteer.json")
    names = {place.name for place in gazetteer.places.values()}
    for conversation_id, turn in turns():
        slots = turn.get("expect_args", {})
        assert slots.get("origin", "Paris (city centre)") in names, conversation_id
        assert slots.get("mode", "car") in get_args(TravelMode), conversation_id
        if "date_word" in slots:
            assert parse_visit_date(slots["date_word"], A_THURSDAY).day, conversation_id


def test_the_scope_set_has_60_out_of_scope_questions_and_as_many_controls() -> None:
    items = rows("scope.jsonl")
    types = Counter((item["lang"], item["type"]) for item in items)
    assert sum(n for (_, kind), n in types.items() if kind == "out_of_scope") >= 63
    for language in SUPPORTED_LANGUAGES:
        assert types[language, "out_of_scope"] >= 7
        assert types[language, "fact"] >= types[language, "out_of_scope"]
    assert all(bool(item["answers"]) is (item["type"] == "fact") for item in items)
    assert {(item["type"], half_of(item["id"])) for item in items} == {
        (kind, half) for kind in ("fact", "out_of_scope") for half in ("tune", "check")
    }


def test_the_unseen_set_holds_only_out_of_scope_questions_four_per_language() -> None:
    items = rows("out_of_scope_unseen.jsonl")
    assert Counter(item["lang"] for item in items) == dict.fromkeys(SUPPORTED_LANGUAGES, 4)
    assert all(item["type"] == "out_of_scope" and not item["answers"] for item in items)
    assert all(item["expected_tools"] == ["search_knowledge_base"] for item in items)


def test_the_outside_date_questions_ask_no_calendar_four_per_language() -> None:
    items = rows("date_questions_outside.jsonl")
    assert Counter(item["language"] for item in items) == dict.fromkeys(SUPPORTED_LANGUAGES, 4)
    assert all(item["expected"] == {"calendar": False} for item in items)
    assert {half_of(item["id"]) for item in items} == {"tune", "check"}


def test_the_unseen_conversations_end_with_an_out_of_scope_follow_up_two_per_language() -> None:
    conversations = rows("conversations_unseen.jsonl")
    assert Counter(c["lang"] for c in conversations) == dict.fromkeys(SUPPORTED_LANGUAGES, 2)
    assert len({c["id"] for c in conversations}) == len(conversations)
    for conversation in conversations:
        first, last = conversation["turns"]
        assert first["kind"] in {"kb", "weather", "travel"} and first["expect_tools"]
        assert last["kind"] == "out_of_scope" and last["decline"] is True
        assert {"get_weather", "get_travel_info"} <= set(last["forbid_tools"])


def test_the_paraphrases_hold_tool_requests_and_look_alike_negatives() -> None:
    items = rows("tool_paraphrases.jsonl")
    negatives = [item for item in items if item["type"] == "negative"]
    requests = [item for item in items if item["type"] != "negative"]
    assert len(requests) >= 54 and len(negatives) >= 27
    for language in SUPPORTED_LANGUAGES:
        assert sum(item["lang"] == language for item in requests) >= 6
        assert sum(item["lang"] == language for item in negatives) >= 3
    for item in items:
        assert set(item["expected_tools"]) <= TOOLS and set(item["forbid_tools"]) <= TOOLS, item["id"]
        assert not set(item["expected_tools"]) & set(item["forbid_tools"]), item["id"]
    assert all("get_weather" in item["forbid_tools"] for item in negatives)
    assert {half_of(item["id"]) for item in negatives} == {half_of(item["id"]) for item in requests}


@pytest.mark.skipif(not (SHARED_DIR / "data" / "versailles").is_dir(), reason="the shared corpus is not here")
def test_every_answer_string_is_copied_from_the_shared_corpus() -> None:
    texts = []
    for path in (SHARED_DIR / "data" / "versailles").rglob("*"):
        if path.suffix == ".jsonl":
            texts += [
                json.loads(line).get("text", "") for line in path.open(encoding="utf-8") if line.strip()
            ]
        elif path.is_file():
            texts.append(path.read_text(encoding="utf-8", errors="ignore"))
    corpus = normalise("\n".join(texts))
    aspects = [aspect for _, turn in turns() for aspect in turn.get("answers", [])]
    aspects += [aspect for item in rows("scope.jsonl") for aspect in item["answers"]]
    assert aspects
    for aspect in aspects:
        assert aspect and all(isinstance(text, str) and text.strip() for text in aspect)
        missing = [text for text in aspect if normalise(text) not in corpus]
        assert not missing, missing


def test_the_visit_facts_set_asks_every_place_and_aspect_with_and_without_days() -> None:
    items = rows("visit_facts.jsonl")
    assert Counter(item["lang"] for item in items) == dict.fromkeys(SUPPORTED_LANGUAGES, 12)
    assert {item["place"] for item in items} == {"palace", "trianon", "gardens", "park", "coaches"}
    assert {"hours", "closed", "free", "price"} <= {item["aspect"] for item in items}
    dated = [item for item in items if item["date"]]
    assert 0.3 < len(dated) / len(items) < 0.7
    assert all(item["answers"] and all(item["answers"]) and item["source"] for item in items)
