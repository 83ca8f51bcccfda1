"""The console's insights (AppTest): counts, groups and gaps from the questions log, every visitor's
word escaped (it is untrusted: never a link, an image or HTML)."""

from __future__ import annotations

import re
from pathlib import Path

from agents.config import AgentSettings
from agents.insights.store import LoggedQuestion, QuestionLog
from tests.app.conftest import open_console

HOSTILE = "![pixel](https://evil.example/p.png) <img src=x onerror=alert(1)> [win](https://evil.example)"


def test_the_console_shows_groups_and_gaps_with_visitor_text_escaped(
    indexed: Path, local_console: None
) -> None:
    log = QuestionLog.for_settings(AgentSettings(_env_file=None))  # the app's AGENT_CHECKPOINT_PATH
    log.record_many(
        [LoggedQuestion(question="When does the palace open?", language="en", kind="answered")] * 1
        + [
            LoggedQuestion(
                question=HOSTILE, language="en", kind="not_found", missing=["boat rental"], id=f"h{n}"
            )
            for n in range(2)
        ]
    )
    at = open_console()

    at.button(key="insights-show").click().run()

    assert not at.exception, at.exception
    assert [metric.value for metric in at.metric if metric.label == "Questions"] == ["3"]
    shown = "\n".join([*(str(md.value) for md in at.markdown), *(str(c.value) for c in at.caption)])
    assert "boat rental" in shown
    for markup in (r"!\[pixel", r"\[win\]\(", r"<img"):  # unescaped: an image, a link, HTML
        assert not re.search(r"(?<!\\)" + markup, shown), markup
    assert "!\\[pixel\\](`https://evil.example/p.png)` \\<img" in shown  # shown as typed, the URL as code


def test_a_bare_url_in_a_visitors_question_is_never_a_link_in_the_console(
    indexed: Path, local_console: None
) -> None:
    log = QuestionLog.for_settings(AgentSettings(_env_file=None))
    question = "Log in at https://evil.example/login or www.evil.example now"
    log.record_many(
        [LoggedQuestion(question=question, language="en", kind="not_found", id=f"u{n}") for n in range(2)]
    )
    at = open_console()

    at.button(key="insights-show").click().run()

    assert not at.exception, at.exception
    shown = "\n".join([*(str(md.value) for md in at.markdown), *(str(c.value) for c in at.caption)])
    assert "`https://evil.example/login`" in shown and "`www.evil.example`" in shown
    assert not re.search(r"(?<!`)(https://|www\.)evil", shown)  # outside code, Markdown would link it


def test_an_official_answer_written_from_a_gap_is_stored_for_its_question(
    indexed: Path, local_console: None
) -> None:
    """The operator answers a content gap from the console: stored with the gap's question, and a
    source that is not an http(s) link is refused in one sentence, storing nothing."""
    from agents.official.store import OfficialAnswers
    from rag.config import RagSettings

    log = QuestionLog.for_settings(AgentSettings(_env_file=None))
    log.record_many(
        [LoggedQuestion(question="Can I rent a rowing boat?", language="en", kind="not_found", id=f"b{n}")
         for n in range(2)]
    )  # fmt: skip
    at = open_console()
    at.button(key="insights-show").click().run()

    at.text_area[0].set_value("Rowing boats are rented on the Grand Canal from April to October.")
    fields = {field.label: field for field in at.text_input}
    fields["Source (an http(s) link)"].set_value("javascript:alert(1)")
    fields["Language (ISO code, e.g. fr)"].set_value("en")
    at.button[[b.label for b in at.button].index("Add")].click().run()
    assert any("Not added" in str(e.value) for e in at.error)
    assert OfficialAnswers.open(RagSettings()).all() == []

    fields = {field.label: field for field in at.text_input}
    fields["Source (an http(s) link)"].set_value("https://www.chateauversailles.fr/boats")
    at.button[[b.label for b in at.button].index("Add")].click().run()

    assert not at.exception, at.exception
    [stored] = OfficialAnswers.open(RagSettings()).all()
    assert stored.question == "Can I rent a rowing boat?" and stored.source.endswith("/boats")
