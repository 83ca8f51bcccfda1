"""Who enters free or at a reduced rate: the eligibility rules of both visit-facts files, their source
check, and the tool's line for a visitor in the nine languages."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from agents.visit_calendar.check import check_calendar, corpus_texts
from agents.visit_calendar.eligibility import Visitor, eligible, verdict
from agents.visit_calendar.rules import CalendarFileError, load_calendar
from agents.visit_calendar.tool import CalendarService, build_calendar_tool
from rag.config import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "data" / "corpus"
FREE_ENTRY = "plan-your-visit/free-entry.en.md"
REAL_FILE = PROJECT_ROOT / "data" / "visit_calendar.versailles.toml"
TODAY = dt.date(2026, 11, 24)


def service(folder: Path = CORPUS) -> CalendarService:
    return CalendarService(source_texts=lambda: corpus_texts(folder), today=lambda: TODAY)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return Path(shutil.copytree(CORPUS, tmp_path / "corpus"))


def test_every_eligibility_rule_is_written_in_its_source_in_the_bundled_corpus() -> None:
    calendar = load_calendar()
    report = check_calendar(calendar, corpus_texts(CORPUS))
    assert len(calendar.eligibility) >= 6 and report.problems == ()
    assert all((rule.id, "") in report.support for rule in calendar.eligibility)


@pytest.mark.shared
def test_every_eligibility_rule_is_written_in_the_crawled_pages() -> None:
    from benchmarks._common import CORPUS as REAL_CORPUS

    texts: dict[str, str] = {}
    with (REAL_CORPUS / "pages.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            page = json.loads(line)
            if len(page["text"]) > len(texts.get(page["url"].strip(), "")):
                texts[page["url"].strip()] = page["text"]
    calendar = load_calendar(REAL_FILE)
    report = check_calendar(calendar, texts)
    assert calendar.eligibility and report.problems == ()


def test_a_changed_age_withholds_the_rule_and_the_visitor_is_sent_to_the_knowledge_base(corpus: Path) -> None:
    page = corpus / FREE_ENTRY
    page.write_text(page.read_text(encoding="utf-8").replace("everyone under 18", "everyone under 16"))
    tool = service(corpus)
    assert "free-under-18" in tool.check().withheld
    result = tool.get(None, "palace", "en", aspects=["price"], visitor=Visitor(age=12))
    # the EU rule may still hold for a 12-year-old, who did not say where they live: nothing settled
    assert result.summary == "" and not any(f.visitor for f in result.facts)


def test_a_rule_holds_only_when_the_visitor_meets_every_condition_it_names() -> None:
    calendar = load_calendar()
    eu = next(rule for rule in calendar.eligibility if rule.id == "free-eu-under-26")
    assert verdict(eu, Visitor(age=23, country="ES"), calendar) == "yes"
    assert verdict(eu, Visitor(age=23, country="BR"), calendar) == "no"
    assert verdict(eu, Visitor(age=30, country="ES"), calendar) == "no"
    assert verdict(eu, Visitor(age=23), calendar) == "unknown"  # where they live is not said
    assert verdict(eu, Visitor(age=23, eu_resident=True), calendar) == "yes"
    assert [r.id for r in eligible(calendar, "palace", Visitor(disabled=True))] == [
        "free-disabled-and-companion"
    ]


def test_the_gardens_rules_hold_on_show_days_only() -> None:
    calendar = load_calendar()
    assert [r.id for r in eligible(calendar, "gardens", Visitor(age=4), months=[7])] == [
        "free-gardens-show-days-under-6"
    ]
    assert eligible(calendar, "gardens", Visitor(age=4), months=[1]) == []  # no show in January
    reduced = eligible(calendar, "gardens", Visitor(age=12), months=[7])
    assert [r.rate for r in reduced] == ["reduced"]


def test_a_region_not_listed_is_a_file_error(tmp_path: Path) -> None:
    text = (PROJECT_ROOT / "data" / "visit_calendar.toml").read_text(encoding="utf-8")
    broken = tmp_path / "calendar.toml"
    broken.write_text(text.replace('eligible_region = "EU"', 'eligible_region = "EEA"'), encoding="utf-8")
    with pytest.raises(CalendarFileError):
        load_calendar(broken)


EXPECTED = {
    "fr": "Le Château : gratuit pour les moins de 18 ans (12 ans)",
    "en": "The Palace: free for visitors under 18 (12 years old)",
    "es": "El Palacio: gratis para los menores de 18 años (12 años)",
    "de": "Das Schloss: kostenlos für Besucher unter 18 Jahren (12 Jahre alt)",
    "it": "La Reggia: gratuito per i minori di 18 anni (12 anni)",
    "pt": "O Palácio: gratuito para os menores de 18 anos (12 anos)",
    "nl": "Het Paleis: gratis voor bezoekers onder de 18 jaar (12 jaar)",
    "ja": "宮殿：18歳未満の方は無料（12歳）",
    "zh": "凡尔赛宫：未满18岁的游客免费（12岁）",
}


@pytest.mark.parametrize("language", list(EXPECTED))
def test_the_line_for_a_visitor_is_in_their_language_cited_and_says_whom_it_answers(language: str) -> None:
    result = service().get(None, "palace", language, aspects=["price"], visitor=Visitor(age=12))
    line = result.facts[0]
    assert line.text.startswith(EXPECTED[language])
    assert line.answers == "price" and line.visitor == {"age": 12}
    assert line.cites and result.passages[0].source.startswith("plan-your-visit/free-entry")
    assert result.summary.startswith(EXPECTED[language])
    assert all("21" not in fact.text for fact in result.facts)  # the full price is not theirs


def test_an_eu_resident_under_26_is_answered_with_their_age_and_country() -> None:
    result = service().get(None, "trianon", "en", aspects=["free"], visitor=Visitor(age=24, country="IT"))
    assert result.facts[0].text.startswith(
        "The Estate of Trianon: free for EU residents under 26 (24 years old, Italy)"
    )
    assert result.facts[0].answers == "free"


def test_a_reduced_rate_gives_the_tickets_reduced_amount_and_cites_both_rules() -> None:
    result = service().get(
        None, "gardens", "en", aspects=["price"], months=[7], visitor=Visitor(student=True)
    )
    first = result.facts[0]
    assert first.text.startswith("Grandes Eaux Musicales (Gardens): reduced rate 10 € for students")
    assert first.visitor == {"student": True}
    assert len(result.passages) == 2  # the free-entry page and the tickets page


def test_a_visitor_no_rule_can_hold_for_gets_the_prices_for_everyone() -> None:
    result = service().get(None, "palace", "en", aspects=["price"], visitor=Visitor(age=40, country="US"))
    assert result.facts[0].text == "Palace ticket: 21 €, reduced rate 13 €."
    assert result.facts[0].visitor is None and result.summary


def test_the_tool_takes_the_visitor_as_a_typed_argument() -> None:
    tool = build_calendar_tool(service())
    message = tool.invoke(
        {
            "type": "tool_call",
            "id": "call_1",
            "name": "get_visit_calendar",
            "args": {"place": "palace", "aspects": ["free"], "visitor": {"disabled": True}, "language": "fr"},
        }
    )
    assert "gratuit pour les personnes handicapées et leur accompagnateur" in message.artifact.summary


def test_an_excerpt_is_cut_where_the_rules_rarest_value_is_written() -> None:
    """A long page writes "free" many times: the excerpt is the one beside "under 18", not the first."""
    line = (
        "Entry is free for the Park. "
        + "Filler words about the gardens. " * 12
        + "Free for everyone under 18."
    )
    texts = {FREE_ENTRY: line}
    calendar = load_calendar()
    report = check_calendar(calendar.model_copy(update={"eligibility": calendar.eligibility[:1]}), texts)
    support = report.support[("free-under-18", "")]
    assert "under 18" in support.excerpt and "the Park" not in support.excerpt
