"""The visit calendar's source check: a rule its source no longer supports is reported and not used."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from agents.visit_calendar.__main__ import main
from agents.visit_calendar.check import check_calendar, corpus_texts, index_texts
from agents.visit_calendar.eligibility_check import with_lead_ins
from agents.visit_calendar.rules import load_calendar
from agents.visit_calendar.tool import CalendarService
from rag.config import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"
OPENING_HOURS = "plan-your-visit/opening-hours.en.md"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of the default corpus a test may edit."""
    return Path(shutil.copytree(CORPUS, tmp_path / "corpus"))


def edit(corpus: Path, source: str, old: str, new: str) -> None:
    page = corpus / source
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new), encoding="utf-8")


def test_every_rule_of_the_calendar_is_written_in_its_source_in_the_default_corpus() -> None:
    report = check_calendar(load_calendar(), corpus_texts(CORPUS))
    assert report.checked >= 20 and report.problems == ()


def test_a_changed_hour_is_reported_with_the_page_and_the_value_and_the_rule_not_used(corpus: Path) -> None:
    edit(corpus, OPENING_HOURS, "Last admission 16:45", "Last admission 16:30")  # the Palace, low season
    report = check_calendar(load_calendar(), corpus_texts(corpus))
    assert [str(p) for p in report.problems] == [
        f"hours-palace-low: {OPENING_HOURS} no longer says '16:45'"
    ]  # the Trianon's line still says 16:45
    result = CalendarService(source_texts=lambda: corpus_texts(corpus), today=lambda: dt.date(2026, 11, 24))
    day = result.get("2026-12-02", "palace", "en").days[0]
    assert day.open == "unknown" and day.opens is None and day.withheld_rules == ["hours-palace-low"]
    assert "see the knowledge base" in day.line
    assert result.get("2026-12-02", "trianon", "en").days[0].open == "open"  # its own rule still holds


def test_a_removed_closing_day_is_not_used_to_say_closed(corpus: Path) -> None:
    edit(
        corpus, OPENING_HOURS, "The Palace (the Château) and the Estate of Trianon are shut every Monday.", ""
    )
    edit(corpus, OPENING_HOURS, "Mondays included", "")
    service = CalendarService(source_texts=lambda: corpus_texts(corpus), today=lambda: dt.date(2026, 11, 24))
    assert "closed-mondays" in service.check().withheld
    assert service.get("2026-11-30", "palace").days[0].open == "unknown"


def test_a_changed_price_is_not_quoted(corpus: Path) -> None:
    edit(corpus, "plan-your-visit/tickets-and-prices.en.md", "**21 €**", "**23 €**")
    service = CalendarService(source_texts=lambda: corpus_texts(corpus), today=lambda: dt.date(2026, 11, 24))
    day = service.get("2026-12-02", "palace").days[0]
    assert "palace" not in day.prices_eur and "price-palace" in day.withheld_rules


def test_a_source_missing_from_the_index_withholds_its_rules(corpus: Path) -> None:
    (corpus / "plan-your-visit" / "free-entry.en.md").unlink()
    report = check_calendar(load_calendar(), corpus_texts(corpus))
    assert "free-first-sundays" in report.withheld
    assert any(p.value is None and "is not in the index" in str(p) for p in report.problems)


def test_an_hour_is_not_found_inside_another(corpus: Path) -> None:
    edit(corpus, OPENING_HOURS, "7:00 to 20:30, last entry 19:00", "7:00 to 20:30, last entry 119:00")
    assert "hours-gardens-high" in check_calendar(load_calendar(), corpus_texts(corpus)).withheld


def test_the_command_exits_non_zero_and_names_the_rule(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--corpus", str(CORPUS)]) == 0
    edit(corpus, OPENING_HOURS, "12:00 (noon) to 18:30", "13:00 to 18:30")
    assert main(["check", "--corpus", str(corpus)]) == 1
    assert "hours-trianon-high" in capsys.readouterr().out


@pytest.mark.shared
def test_the_real_corpus_calendar_is_written_in_the_crawled_pages() -> None:
    import json

    from benchmarks._common import CORPUS as REAL_CORPUS

    texts: dict[str, str] = {}
    with (REAL_CORPUS / "pages.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            page = json.loads(line)
            if len(page["text"]) > len(texts.get(page["url"].strip(), "")):
                texts[page["url"].strip()] = page["text"]  # the most complete version, as the loader keeps
    calendar = load_calendar(PROJECT_ROOT / "data" / "visit_calendar.versailles.toml")
    assert check_calendar(calendar, texts).problems == ()
    # The default corpus's calendar cites files that corpus does not have.
    assert check_calendar(load_calendar(), texts).withheld


def test_an_index_without_the_calendars_sources_leaves_the_day_to_the_knowledge_base() -> None:
    """Every rule withheld (another corpus indexed): the tool reports nothing a visitor would read,
    so the answer is the knowledge base's, not an empty "cannot say" line."""
    service = CalendarService(source_texts=lambda: {}, today=lambda: dt.date(2026, 11, 24))

    result = service.get("2026-11-30", "palace", "en")

    assert result.status == "ok" and result.days[0].open == "unknown"
    assert result.summary == ""


def test_an_indexed_document_is_read_in_its_chunks_order_whatever_order_the_store_gives() -> None:
    """A list's items must follow the sentence introducing them, as on the page."""
    records = [
        ("c2", "les moins de 18 ans,; les enseignants.", {"source": "page", "position": 1}),
        ("c1", "L'entrée est gratuite pour :.", {"source": "page", "position": 0}),
    ]
    assert (
        index_texts(records)["page"]
        == "L'entrée est gratuite pour :.\nles moins de 18 ans,; les enseignants."
    )


def test_a_list_written_on_the_line_after_its_lead_in_is_read_with_it() -> None:
    text = "Accès gratuit pour :.\nles moins de 18 ans,; les enseignants.\nAutre chose."
    lines = with_lead_ins(text).splitlines()
    assert lines[1] == "Accès gratuit pour :. les moins de 18 ans,; les enseignants."
    assert lines[2] == "Autre chose."
