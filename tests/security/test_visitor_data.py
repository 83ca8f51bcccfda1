"""Visitors' personal data: every column of the questions log masked, in every form the documentation
promises; retention run by ``agents prune`` even with the log off; one conversation erased on
request; visitors' text inert in the operator's terminal."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

import rag.embeddings
from agents.cli import main
from agents.config import AgentSettings
from agents.events import FinalAnswer
from agents.insights.masking import mask_personal
from agents.insights.store import DAY_SECONDS, LoggedQuestion, QuestionLog
from agents.runtime.erasure import forget_conversation
from tests.conftest import HashingEmbedder
from tests.reliability.turn_worker import build_service


@pytest.mark.parametrize(
    "text",
    [
        "write to jo＠example.org",  # fullwidth at sign
        "write to jo @ example.org",
        "write to jo [at] example.org",
        "write to jo(at)example(dot)org",
        "write to jo at example dot org",
        "call 06/12/34/56/78",
        "call 06–12–34–56–78",  # en dashes
        "card 4111/1111/1111/1111",
        "card 4111–1111–1111–1111",
        "call 06 - 12 - 34 - 56 - 82",  # separators of several characters (issue 48)
        "call 06 – 12 – 34 – 56 – 82",
        "call 06 — 12 — 34 — 56 — 82",  # em dashes
        "call 06 − 12 − 34 − 56 − 82",  # minus signs
        "call 06‐12‐34‐56‐82",  # Unicode hyphens
        "call 06  /  12  /  34  /  56  /  82",
        "call +33 (0)6 . 12 . 34 . 56 . 82",
        "call 06\u00a0-\u00a012\u00a0-\u00a034\u00a0-\u00a056\u00a0-\u00a082",  # no-break spaces
        "card 4111 - 1111 - 1111 - 1111",
        "card 4111 – 1111 – 1111 – 1111",
        "card 4111 -- 1111 -- 1111 -- 1111",
    ],
)
def test_every_promised_form_of_email_phone_and_card_is_masked(text: str) -> None:
    masked = mask_personal(text)
    assert masked.endswith(("[email]", "[phone]", "[card]")), masked
    assert not any(secret in masked for secret in ("jo", "example", "34", "1111")), masked


@pytest.mark.parametrize(
    "text",
    [
        "Is it open on 2026/11/24 09:30?",
        *(f"From 2026-11-{day:02d}–2026-12-{day:02d}?" for day in range(1, 29)),  # some pass the Luhn check
        *(f"From {day:02d}/11/2026–{day:02d}/12/2026?" for day in range(1, 29)),
        "From 24 - 11 - 2026 - 30 - 11 - 2026?",
        "Open on 2026 - 11 - 24 09:30?",
        "Le 24 – 11 – 2026 à 09:30 ?",
        "The palace in 1661 - 1682 - 1789 - 1830 and 1661 / 1682 / 1789 / 1830 / 1837",
        "Louis XIV (1638 - 1715) and Louis XV (1710 - 1774)",
        "Tickets 21 € - 32 € - 18 € - 10 €, or 21,50 € – 32,00 €",
        "Open 09:00 - 18:30, then 19:00 - 20:30 - 21:00 - 22:30",
        "Booking reference 12345678",
    ],
)
def test_dates_and_date_ranges_are_not_phones_or_cards(text: str) -> None:
    assert mask_personal(text) == text


def test_every_unicode_dash_separates_the_digits_of_a_phone_number() -> None:
    import sys
    import unicodedata

    dashes = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Pd"]
    phones = {dash: f" {dash} ".join(["call 06", "12", "34", "56", "82"]) for dash in dashes}
    assert [dash for dash, phone in phones.items() if mask_personal(phone) != "call [phone]"] == []


def _log(path: Path, **settings: object) -> QuestionLog:
    return QuestionLog.for_settings(AgentSettings(_env_file=None, checkpoint_path=path, **settings))


def _raw(path: Path) -> str:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT * FROM visitor_questions").fetchall()
    return " ".join(str(value) for row in rows for value in row)


def test_the_missing_parts_are_masked_in_the_database(tmp_path: Path) -> None:
    path = tmp_path / "threads.sqlite"
    _log(path).record(
        LoggedQuestion(
            question="Can you answer me?",
            language="en",
            kind="partial",
            missing=["a reply sent to jo@example.org", "a call to +33 6 12 34 56 78"],
        )
    )

    stored = _raw(path)
    assert "jo@example.org" not in stored and "12 34 56 78" not in stored
    assert "[email]" in stored and "[phone]" in stored


def test_rows_written_before_a_masking_rule_are_shown_masked(tmp_path: Path) -> None:
    path = tmp_path / "threads.sqlite"
    log = _log(path)
    log.record(LoggedQuestion(question="placeholder", language="en", kind="not_found"))
    with sqlite3.connect(path) as connection:  # an older version wrote these unmasked
        connection.execute(
            "UPDATE visitor_questions SET question = ?, missing = ?, comment = ?",
            ("mail jo＠example.org", json.dumps(["jo [at] example.org"]), "06–12–34–56–78"),
        )

    [turn] = log.questions()
    assert (turn.question, turn.missing, turn.comment) == ("mail [email]", ["[email]"], "[phone]")


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The conversation store's settings (SQLite file, PostgreSQL), also set for the command line."""
    if request.param == "postgres":
        settings = {"checkpoint_url": request.getfixturevalue("postgres_url")}
    else:
        settings = {"checkpoint_path": str(tmp_path / "threads.sqlite")}
    for name, value in settings.items():
        monkeypatch.setenv(f"AGENT_{name.upper()}", value)
    return settings


def _checkpoints(settings: AgentSettings, thread_id: str) -> int:
    from agents.conversations.checkpoints import open_checkpoints

    checkpoints = open_checkpoints(settings)
    try:
        return sum(1 for _ in checkpoints.saver.list({"configurable": {"thread_id": thread_id}}))
    finally:
        checkpoints.close()


def test_prune_deletes_old_logged_questions_even_with_the_log_switched_off(
    store: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = QuestionLog.for_settings(AgentSettings(_env_file=None, **store))
    now = time.time()
    log.record_many(
        [
            LoggedQuestion(question="old", language="en", kind="answered", asked_at=now - 40 * DAY_SECONDS),
            LoggedQuestion(question="recent", language="en", kind="answered", asked_at=now - DAY_SECONDS),
        ]
    )
    monkeypatch.setenv("AGENT_QUESTIONS_LOG", "false")
    monkeypatch.setenv("AGENT_QUESTIONS_RETENTION_DAYS", "30")

    assert main(["prune"]) == 0

    assert "Deleted 1 logged questions older than 30 days" in " ".join(capsys.readouterr().out.split())
    assert [turn.question for turn in log.questions()] == ["recent"]


def test_forget_erases_one_conversation_everywhere_and_says_what_it_removed(
    index_dir: Path, store: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    service = build_service({"index_dir": str(index_dir), "agent": store, "delay": 0})
    answer = service.ask("Opening hours?", "web-erase-me")
    service.ask("Opening hours?", "web-keep-me")
    service.close()
    settings = AgentSettings(_env_file=None, **store)
    log = QuestionLog.for_settings(settings)
    assert isinstance(answer, FinalAnswer)
    assert log.set_feedback(answer.turn_id, "web-erase-me", "not_helpful", "too short")
    assert _checkpoints(settings, "web-erase-me") > 0

    assert main(["forget", "web-erase-me"]) == 0

    out = " ".join(capsys.readouterr().out.split())
    assert "Erased conversation web-erase-me" in out and "1 logged questions (1 with feedback)" in out
    assert [turn.thread_id for turn in log.questions()] == ["web-keep-me"]
    assert _checkpoints(settings, "web-erase-me") == 0 and _checkpoints(settings, "web-keep-me") > 0


# The columns of aegra-api 0.6.0's tables that matter here (aegra_api/core/orm.py): runs go with their
# thread, run events (the streamed answer) are keyed by run without a foreign key.
AEGRA_TABLES = """
CREATE TABLE thread (thread_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, metadata_json JSONB DEFAULT '{}');
CREATE TABLE runs (run_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, input JSONB,
                   thread_id TEXT NOT NULL REFERENCES thread (thread_id) ON DELETE CASCADE);
CREATE TABLE run_events (id TEXT PRIMARY KEY, run_id TEXT NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL,
                         data JSONB);
"""


def _served_rows(url: str, thread_id: str) -> tuple[int, int, int]:
    import psycopg

    with psycopg.connect(url) as connection:
        return tuple(  # type: ignore[return-value]
            connection.execute(sql, (thread_id,)).fetchone()[0]  # type: ignore[index]
            for sql in (
                "SELECT COUNT(*) FROM thread WHERE thread_id = %s",
                "SELECT COUNT(*) FROM runs WHERE thread_id = %s",
                "SELECT COUNT(*) FROM run_events e JOIN runs r USING (run_id) WHERE r.thread_id = %s",
            )
        )


def test_forget_erases_aegras_thread_runs_and_events_where_aegra_serves(
    index_dir: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import psycopg

    monkeypatch.setenv("AGENT_CHECKPOINT_URL", postgres_url)
    service = build_service(
        {"index_dir": str(index_dir), "agent": {"checkpoint_url": postgres_url}, "delay": 0}
    )
    for thread_id in ("web-erase-me", "web-keep-me"):
        service.ask("Opening hours for jo@example.org?", thread_id)
    service.close()
    with psycopg.connect(postgres_url) as connection:
        connection.execute(AEGRA_TABLES)
        for thread_id in ("web-erase-me", "web-keep-me"):
            connection.execute("INSERT INTO thread VALUES (%s, 'visitor:1')", (thread_id,))
            for run in range(2):
                run_id = f"{thread_id}-{run}"
                question = json.dumps({"messages": [{"role": "user", "content": "jo@example.org"}]})
                connection.execute(
                    "INSERT INTO runs VALUES (%s, 'visitor:1', %s, %s)", (run_id, question, thread_id)
                )
                connection.execute(
                    "INSERT INTO run_events VALUES (%s, %s, 1, 'values', '{}')", (run_id, run_id)
                )

    assert main(["forget", "web-erase-me"]) == 0

    out = " ".join(capsys.readouterr().out.split())
    assert "the served thread and its 2 runs" in out
    assert _served_rows(postgres_url, "web-erase-me") == (0, 0, 0)
    assert _served_rows(postgres_url, "web-keep-me") == (1, 2, 2)
    with psycopg.connect(postgres_url) as connection:
        assert connection.execute("SELECT COUNT(*) FROM run_events").fetchone() == (2,)


def test_forget_leaves_no_trace_of_the_conversation_in_the_sqlite_file(
    index_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "threads.sqlite"
    agent = {"checkpoint_path": str(path)}
    service = build_service({"index_dir": str(index_dir), "agent": agent, "delay": 0})
    service.ask("Is the Orangery open for Zanzibar-Quokka?", "web-erase-me")
    service.close()
    assert b"Zanzibar-Quokka" in path.read_bytes()

    forget_conversation(AgentSettings(_env_file=None, checkpoint_path=path), "web-erase-me")

    assert b"Zanzibar-Quokka" not in path.read_bytes()  # not even in freed pages


def test_forgetting_an_unknown_conversation_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "threads.sqlite"))

    assert main(["forget", "web-nobody"]) == 0

    assert "Nothing is kept about conversation web-nobody" in capsys.readouterr().out


HOSTILE = "Hours?\x1b]0;pwned\x07\x1b[2J \u202eevil\u202c \x9b31m"


def test_insights_print_no_terminal_control_sequence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(rag.embeddings, "build_embedder", lambda settings: HashingEmbedder())
    monkeypatch.setenv("AGENT_CHECKPOINT_PATH", str(tmp_path / "threads.sqlite"))
    monkeypatch.setenv("RAG_INDEX_DIR", str(tmp_path / "no-index"))
    _log(tmp_path / "threads.sqlite").record(
        LoggedQuestion(question=HOSTILE, language="en", kind="not_found", missing=[HOSTILE], comment=HOSTILE)
    )

    for argv in (["insights"], ["insights", "--json"], ["insights", "--csv", str(tmp_path / "out")]):
        assert main(argv) == 0
        printed = "".join(capsys.readouterr())
        printed += "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").glob("*.csv"))
        assert not any(char in printed for char in "\x1b\x07\x9b\u202e\u202c"), argv
