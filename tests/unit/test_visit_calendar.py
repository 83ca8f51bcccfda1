"""The visit calendar (agents.visit_calendar): calendar arithmetic, the rendered line, the tool."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from agents.tool_settings import ToolSettings
from agents.tools.dates import parse_visit_date
from agents.visit_calendar.answer import headline
from agents.visit_calendar.engine import day_at, days_at, french_public_holidays, paris_today
from agents.visit_calendar.rules import CalendarFileError, load_calendar
from agents.visit_calendar.tool import CalendarService, build_calendar_tool

CALENDAR = load_calendar()
TODAY = dt.date(2026, 11, 24)  # a Tuesday in low season


def service() -> CalendarService:
    return CalendarService(today=lambda: TODAY)


@pytest.mark.parametrize(
    ("day", "season", "closes"),
    [
        (dt.date(2027, 3, 31), "low", "17:30"),
        (dt.date(2027, 4, 1), "high", "18:30"),
        (dt.date(2027, 10, 31), "high", "18:30"),
        (dt.date(2027, 11, 2), "low", "17:30"),
    ],
)
def test_the_season_changes_on_1_april_and_1_november_and_with_it_the_hours(
    day: dt.date, season: str, closes: str
) -> None:
    report = day_at(CALENDAR, "palace", day)
    assert (report.season, report.status, report.closes) == (season, "open", closes)


def test_29_february_of_a_leap_year_is_a_low_season_day_and_read_as_such() -> None:
    report = day_at(CALENDAR, "palace", dt.date(2028, 2, 29))
    assert (report.season, report.status, report.opens, report.closes) == ("low", "open", "09:00", "17:30")
    assert parse_visit_date("2月29日", TODAY).day == dt.date(2028, 2, 29)  # the next leap year's


def test_the_palace_and_trianon_close_on_mondays_the_gardens_and_park_do_not() -> None:
    monday = dt.date(2026, 11, 30)
    assert [day_at(CALENDAR, p, monday).status for p in ("palace", "trianon", "gardens", "park")] == [
        "closed", "closed", "open", "open",
    ]  # fmt: skip
    assert day_at(CALENDAR, "palace", monday).closed_why == "weekly"


@pytest.mark.parametrize("day", [dt.date(2027, 1, 1), dt.date(2027, 5, 1), dt.date(2026, 12, 25)])
def test_the_whole_estate_closes_on_1_january_1_may_and_25_december(day: dt.date) -> None:
    reports = [day_at(CALENDAR, place, day) for place in CALENDAR.places]
    assert {(r.status, r.closed_why) for r in reports} == {("closed", "date")}


def test_other_public_holidays_are_opening_days_and_open_the_gallery_of_coaches() -> None:
    ascension = dt.date(2027, 5, 6)  # a Thursday
    assert ascension in french_public_holidays(2027)
    assert day_at(CALENDAR, "palace", ascension).status == "open"
    assert day_at(CALENDAR, "coaches", ascension).status == "open"
    assert day_at(CALENDAR, "coaches", dt.date(2027, 5, 5)).closed_why == "not_an_opening_day"


@pytest.mark.parametrize(
    ("day", "free"),
    [
        (dt.date(2026, 12, 6), True),  # first Sunday of December
        (dt.date(2026, 12, 13), False),  # second Sunday
        (dt.date(2027, 3, 7), True),  # first Sunday of March
        (dt.date(2027, 4, 4), False),  # first Sunday of April: high season, paid
        (dt.date(2027, 11, 7), True),
    ],
)
def test_the_palace_is_free_on_first_sundays_from_november_to_march(day: dt.date, free: bool) -> None:
    report = day_at(CALENDAR, "palace", day)
    assert report.free is free
    assert (report.free_why == "first_sunday") is free


def test_the_gardens_are_free_in_low_season_and_paid_on_a_show_day_on_file() -> None:
    assert day_at(CALENDAR, "gardens", dt.date(2026, 12, 2)).free is True
    show = day_at(CALENDAR, "gardens", dt.date(2025, 7, 12))  # a Saturday of the 2025 season
    assert show.free is False and show.events == ["grandes_eaux_musicales"]
    assert "grandes_eaux_musicales" in [p.ticket for p in show.prices]
    # 2026's show days are not on file: the calendar does not guess.
    assert day_at(CALENDAR, "gardens", dt.date(2027, 7, 10)).free is None


def test_the_day_at_the_palace_is_the_day_in_paris_not_in_utc() -> None:
    late_sunday_utc = dt.datetime(2026, 11, 29, 23, 30, tzinfo=dt.UTC)
    assert paris_today(late_sunday_utc) == dt.date(2026, 11, 30)  # already Monday in Paris
    summer = dt.datetime(2027, 6, 6, 22, 30, tzinfo=dt.UTC)  # UTC+2 in summer
    assert paris_today(summer) == dt.date(2027, 6, 7)


def test_a_range_gives_one_report_per_day_and_is_capped() -> None:
    week = days_at(CALENDAR, "palace", dt.date(2026, 11, 29), dt.date(2026, 12, 5))
    assert [r.status for r in week] == ["open", "closed", "open", "open", "open", "open", "open"]
    assert len(days_at(CALENDAR, "palace", dt.date(2027, 1, 1), dt.date(2027, 12, 31))) == 31


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Monday, November 30, 2026: the Palace is closed (closed every Monday)."),
        ("fr", "lundi 30 novembre 2026 — le Château : fermé (fermé tous les lundis)."),
        ("ja", "2026年11月30日月曜日：宮殿は休館です（毎週月曜日休館）。"),
    ],
)
def test_the_line_says_the_day_the_place_and_why_in_the_visitors_language(language: str, line: str) -> None:
    assert headline(day_at(CALENDAR, "palace", dt.date(2026, 11, 30)), CALENDAR, language) == line


def test_an_open_day_gives_hours_last_admission_and_free_entry() -> None:
    text = headline(day_at(CALENDAR, "gardens", dt.date(2026, 12, 6)), CALENDAR, "en")
    assert text.startswith(
        "Sunday, December 6, 2026: the Gardens are open from 08:00 to 18:00, last admission 17:30."
    )
    assert "Entry is free in the low season." in text


def test_the_tool_reads_the_visitors_date_and_place_in_their_language() -> None:
    result = service().get("lundi prochain", "château", "fr")
    assert result.status == "ok" and result.source == "calendar"
    assert (result.days[0].date, result.days[0].open) == ("2026-11-30", "closed")
    assert result.summary.startswith("lundi 30 novembre 2026 — le Château : fermé")
    japanese = service().get("来週の土曜日", "宮殿", "ja").days[0]
    assert (japanese.date, japanese.opens, japanese.closes) == ("2026-12-05", "09:00", "17:30")


def test_month_and_day_in_japanese_or_chinese_is_this_years_or_next_not_a_century_away() -> None:
    assert parse_visit_date("12月25日", TODAY).day == dt.date(2026, 12, 25)
    assert parse_visit_date("1月3日星期日", TODAY, ("zh",)).day == dt.date(2027, 1, 3)


def test_every_place_for_a_day_and_an_unknown_place_or_date_are_results_with_a_status() -> None:
    everything = service().get("2026-12-25", "all", "en")
    assert {d.place for d in everything.days} == set(CALENDAR.places)
    assert service().get("tomorrow", "Louvre").status == "not_found"
    assert service().get("someday soon", "palace").status == "invalid"


def test_the_tool_returns_the_json_of_its_result() -> None:
    tool = build_calendar_tool(service())
    payload = json.loads(tool.invoke({"date": "2026-12-06", "place": "trianon", "language": "en"}))
    assert payload["days"][0]["free"] is True and payload["sources"]


def test_a_missing_calendar_file_says_which_setting_to_set(tmp_path: object) -> None:
    with pytest.raises(CalendarFileError, match="TOOLS_CALENDAR_FILE"):
        load_calendar(ToolSettings(_env_file=None, calendar_file="/nonexistent/calendar.toml").calendar_file)


def test_the_console_month_view_has_a_cell_per_day_under_its_weekday() -> None:
    from app_ui.calendar_view import month_grid

    grid = month_grid(service(), "palace", 2026, 12)
    assert grid[0]["Monday"] == "" and grid[0]["Sunday"] == "6 · 09:00–17:30 · free"
    assert grid[1]["Monday"] == "7 · closed (weekly)"
    assert grid[3]["Friday"] == "25 · closed (date)"
    assert sum(bool(c) for week in grid for c in week.values()) == 31


def test_a_short_range_gives_one_line_per_day() -> None:
    result = service().get("2026-11-29", "palace", "en", until="2026-12-01")
    assert [d.open for d in result.days] == ["open", "closed", "open"]
    assert len(result.summary.splitlines()) == 3  # three days; their sources are the cited passages
    assert {p.source for p in result.passages} == set(result.sources)


def test_an_index_that_cannot_be_read_withholds_every_rule_instead_of_failing() -> None:
    from rag.store import IndexMissingError

    def unreadable() -> dict[str, str]:
        raise IndexMissingError("No index in .rag_index. Build it with: python -m rag index")

    broken = CalendarService(source_texts=unreadable, today=lambda: TODAY)
    day = broken.get("2026-11-30", "palace").days[0]
    assert day.open == "unknown" and "see the knowledge base" in day.line
