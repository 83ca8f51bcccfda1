"""The visit facts: a place's facts on no day, special hours, the cited excerpts, the file the index
chooses, and facts drafted from a site's schema.org JSON-LD."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from agents.tool_settings import ToolSettings
from agents.visit_calendar.check import check_calendar, corpus_texts
from agents.visit_calendar.choice import choose_calendar
from agents.visit_calendar.engine import day_at
from agents.visit_calendar.jsonld import draft_calendar, to_toml
from agents.visit_calendar.rules import Calendar, CalendarFileError, load_calendar
from agents.visit_calendar.tool import CalendarService
from rag.config import PROJECT_ROOT
from rag.crawl.state import CrawlState, PageRecord
from rag.crawl.structured import json_ld

CORPUS = PROJECT_ROOT / "data" / "corpus"
TODAY = dt.date(2026, 11, 28)


def service(**settings: object) -> CalendarService:
    return CalendarService(
        ToolSettings(_env_file=None, **settings), lambda: corpus_texts(CORPUS), today=lambda: TODAY
    )


def test_a_price_asked_on_no_day_is_each_tickets_full_and_reduced_rate_citing_its_excerpt() -> None:
    result = service().get(None, "palace", "en", aspects=["price"])

    assert result.summary.splitlines()[0] == "Palace ticket: 21 €, reduced rate 13 €."
    passage = next(p for p in result.passages if p.chunk_id == result.facts[0].cites[0])
    assert passage.source == "plan-your-visit/tickets-and-prices.en.md" and "21 €" in passage.text
    assert passage.collection == "visit_facts" and passage.title == "Tickets and prices"


@pytest.mark.parametrize(
    ("language", "first"),
    [
        (
            "fr",
            "Le domaine de Trianon, haute saison (avril–octobre) : 12:00–18:30, dernière admission 17:45.",
        ),
        ("ja", "トリアノン（ハイシーズン、4月–10月）：12:00〜18:30（最終入場17:45）。"),
    ],
)
def test_hours_asked_on_no_day_are_given_by_season_in_the_visitors_language(
    language: str, first: str
) -> None:
    result = service().get(None, "trianon", language, aspects=["hours"])

    lines = result.summary.splitlines()
    assert lines[0] == first and len(lines) == 3  # two seasons, then the weekly closure


def test_a_french_visitor_is_cited_the_french_version_when_it_states_the_same_values() -> None:
    french = service().get(None, "palace", "fr", aspects=["price"])
    english = service().get(None, "palace", "en", aspects=["price"])

    assert french.passages[0].source == "plan-your-visit/tickets-and-prices.fr.md"
    assert english.passages[0].source == "plan-your-visit/tickets-and-prices.en.md"


def test_a_day_is_answered_with_the_prices_of_that_day_and_their_reduced_rate() -> None:
    result = service().get("2026-12-13", "palace", "en", aspects=["price"])  # not a free Sunday

    assert "Palace ticket 21 €, reduced rate 13 €" in result.days[0].line and not result.facts
    assert result.days[0].cites  # the day cites the excerpts of the rules it rests on


def _calendar(**tables: object) -> Calendar:
    place = {"names": {"en": "the Estate"}, "aliases": ["estate"]}
    return Calendar.model_validate({"places": {"estate": place}, **tables})


def test_special_hours_change_the_opening_in_their_months_only() -> None:
    calendar = _calendar(
        hours=[{"id": "h", "place": "estate", "opens": "12:00", "closes": "18:30", "source": "s"}],
        special_hours=[
            {"id": "summer", "place": "estate", "months": [7, 8], "opens": "10:00", "source": "s"}
        ],
    )

    july, june = (
        day_at(calendar, "estate", dt.date(2027, 7, 14)),
        day_at(calendar, "estate", dt.date(2027, 6, 14)),
    )

    assert (july.opens, july.closes, june.opens) == ("10:00", "18:30", "12:00")
    report = check_calendar(calendar, {"s": "Open 12:00 to 18:30.\nOpens at 10:00 in July and August."})
    assert report.problems == ()
    assert [
        p.value for p in check_calendar(calendar, {"s": "Open 12:00 to 18:30. 10:00 in July."}).problems
    ] == ["August"]


def _facts_file(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(
        '[places.estate]\nnames = { en = "the Estate" }\n\n'
        f'[[hours]]\nid = "h"\nplace = "estate"\nopens = "09:00"\ncloses = "17:00"\nsource = "{source}"\n',
        encoding="utf-8",
    )
    return path


def test_the_index_chooses_the_facts_file_whose_sources_it_holds(tmp_path: Path) -> None:
    first = _facts_file(tmp_path, "visit_calendar.toml", "bundled.md")
    second = _facts_file(tmp_path, "visit_calendar.site.toml", "https://site.example/hours")

    chosen = choose_calendar({"https://site.example/hours": "From 9:00 to 17:00."}, [first, second])
    empty = choose_calendar({}, [first, second])

    assert (chosen.path, chosen.used, chosen.report.problems) == (second, 1, ())
    assert empty.path == first and empty.used == 0  # nothing indexed: every rule reported, none used
    assert str(empty.report.problems[0]) == "h: its source bundled.md is not in the index"


def test_a_broken_facts_file_leaves_the_others_usable(tmp_path: Path) -> None:
    broken = tmp_path / "visit_calendar.toml"
    broken.write_text("[places.estate\n", encoding="utf-8")
    good = _facts_file(tmp_path, "visit_calendar.site.toml", "page")

    assert choose_calendar({"page": "9:00 – 17:00"}, [broken, good]).path == good
    with pytest.raises(CalendarFileError):
        choose_calendar({}, [broken])


def test_a_missing_facts_file_gives_the_visitor_no_line_and_no_error_text(tmp_path: Path) -> None:
    result = service(calendar_file=tmp_path / "none.toml").get(None, "palace", "en")

    assert (result.status, result.summary, result.passages) == ("unavailable", "", [])


PAGE = b"""<html><head><script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [{"@type": "Museum", "name": "Musee Exemple",
 "openingHoursSpecification": [
   {"dayOfWeek": ["https://schema.org/Tuesday", "https://schema.org/Sunday"],
    "opens": "10:00:00", "closes": "18:00"},
   {"dayOfWeek": "https://schema.org/Monday", "opens": "00:00", "closes": "00:00"}],
 "specialOpeningHoursSpecification": {"validFrom": "2026-12-25", "validThrough": "2026-12-25"},
 "offers": {"@type": "Offer", "name": "Billet", "price": "14.50", "priceCurrency": "EUR"}}]}
</script><script type="application/ld+json">not json</script></head><body>Hi</body></html>"""


def test_a_sites_json_ld_drafts_visit_facts_that_load_and_are_checked_against_the_page(
    tmp_path: Path,
) -> None:
    url = "https://museum.example/visit"
    draft = draft_calendar({url: json_ld(PAGE)})
    path = tmp_path / "visit_calendar.example.toml"
    path.write_text(to_toml(draft), encoding="utf-8")

    calendar = load_calendar(path)
    text = "Tuesday and Sunday 10:00 - 18:00. Closed on Monday. Closed on 25 December. Ticket 14.50 €"
    report = check_calendar(calendar, {url: text})

    assert list(calendar.places) == ["musee-exemple"] and report.problems == ()
    assert day_at(calendar, "musee-exemple", dt.date(2026, 12, 1)).opens == "10:00"  # a Tuesday
    assert day_at(calendar, "musee-exemple", dt.date(2026, 12, 7)).closed_why == "weekly"
    assert day_at(calendar, "musee-exemple", dt.date(2026, 12, 25)).status == "closed"
    assert calendar.prices[0].full == 14.5


def test_the_crawl_keeps_the_json_ld_of_live_pages_only(tmp_path: Path) -> None:
    with CrawlState(tmp_path / "state.sqlite3") as state:
        state.save(PageRecord(url="https://a.example/", live=True, text="a"))
        state.save(PageRecord(url="https://b.example/", live=False))
        state.save_structured("https://a.example/", [{"name": "A"}])
        state.save_structured("https://b.example/", [{"name": "B"}])
        kept = state.structured()
        state.save_structured("https://a.example/", [])
        assert (kept, state.structured()) == ({"https://a.example/": [{"name": "A"}]}, {})
    assert json.loads(json.dumps(kept))  # plain JSON, as the state stores it


@pytest.mark.parametrize("date", ["14 July 1789", "2099-05-01"])
def test_a_day_far_from_today_is_not_answered_with_todays_rules(date: str) -> None:
    result = service().get(date, "palace", "en")

    assert result.status == "invalid" and not result.days and "cannot say" in result.summary
    assert service().get("2027-05-01", "palace", "en").days[0].open == "closed"  # within the horizon


def test_facts_asked_for_some_months_keep_only_the_seasons_and_months_holding_them() -> None:
    winter = service().get(None, "gardens", "en", aspects=["hours"], months=[12, 1, 2]).summary
    july = service().get(None, "palace", "en", aspects=["price"], months=[7], tickets=["passeport"]).summary

    assert winter.splitlines() == [
        "The Gardens, low season (November–March): 08:00–18:00, last admission 17:30."
    ]
    assert july == "Passeport (high season): 32 €."  # not the low season's


def test_a_price_is_the_named_tickets_else_the_places_own_and_a_reduced_rate_only_where_there_is_one() -> (
    None
):
    own = service().get(None, "trianon", "en", aspects=["price"]).summary
    reduced = service().get(None, "gardens", "en", aspects=["price"], reduced=True).summary
    every = service().get(None, "gardens", "en", aspects=["price"]).summary

    assert own == "Trianon ticket: 12 €, reduced rate 8 €."  # not the Passeport opening it too
    assert reduced.splitlines() == ["Grandes Eaux Musicales (Gardens): 11 €, reduced rate 10 €."]
    assert every.splitlines()[0] == reduced
    passeport = service().get(None, "palace", "en", aspects=["price"], tickets=["passeport"], reduced=True)
    assert (passeport.facts, passeport.summary) == ([], "")  # no reduced Passeport on file: nothing


def test_facts_that_do_not_answer_what_is_asked_settle_nothing(tmp_path: Path) -> None:
    """Hours asked of a place whose hours are withheld: its weekly closing alone is no answer."""
    texts = corpus_texts(CORPUS)
    texts = type(texts)(
        {s: t.replace("9:00", "nine") for s, t in texts.items()}, texts.titles, texts.languages
    )  # the Palace's hours no longer written as the facts say them
    result = CalendarService(ToolSettings(_env_file=None), lambda: texts, today=lambda: TODAY).get(
        None, "palace", "en", aspects=["hours"]
    )

    assert [line.answers for line in result.facts] == ["closed"] and result.summary == ""


def test_a_price_asked_of_a_place_free_then_is_that_it_is_free() -> None:
    """Free on every day of the months asked: no price of a ticket that also opens it. Free on some
    of their days: the price, then those days. An event's ticket only in the months it is held."""
    winter = service().get(None, "gardens", "en", aspects=["price"], months=[12, 1, 2])
    park = service().get(None, "park", "en", aspects=["price"])
    march = service().get(None, "trianon", "en", aspects=["price"], months=[3]).summary.splitlines()
    july = service().get(None, "trianon", "en", aspects=["price"], months=[7]).summary

    assert winter.summary == "The Gardens: entry is free in the low season."
    assert [line.answers for line in winter.facts] == ["price"] and winter.status == "ok"
    assert park.summary == "The Park: entry is free." and park.status == "ok"
    assert march[0] == "Trianon ticket: 12 €, reduced rate 8 €." and "first Sunday" in march[1]
    assert july == "Trianon ticket: 12 €, reduced rate 8 €."  # its free Sundays are in winter


def test_closures_asked_of_some_months_are_theirs_and_come_with_their_hours() -> None:
    """Whether a place is open in August: its weekly closing and its hours then, not the closed
    days of other months; asked of the whole year, every closed day and no hours."""
    august = service().get(None, "palace", "en", aspects=["closed"], months=[8])
    may = service().get(None, "palace", "en", aspects=["closed"], months=[5]).summary.splitlines()
    year = service().get(None, "palace", "en", aspects=["closed"]).summary.splitlines()
    coaches = service().get(None, "coaches", "en", aspects=["hours", "closed"], months=[7])

    assert august.summary.splitlines() == [
        "The Palace: closed every Monday.",
        "The Palace, high season (April–October): 09:00–18:30, last admission 17:45.",
    ]
    assert may[1] == "The Palace: closed on May 1." and "18:30" in may[2]
    assert len(year) == 2 and "December 25" in year[1] and not any("09:00" in line for line in year)
    assert coaches.status == "ok" and "12:30–18:30" in coaches.summary  # no closed day in July: still settled
