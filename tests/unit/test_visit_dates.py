"""Visit dates as visitors write them, in nine languages, read into one day (or a clear refusal)."""

from __future__ import annotations

import datetime as dt

import pytest

from agents.tools.dates import parse_visit_date

WEDNESDAY = dt.date(2026, 5, 13)
SATURDAY = dt.date(2026, 5, 16)


def _day(offset: int) -> dt.date:
    return WEDNESDAY + dt.timedelta(days=offset)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-12-05", dt.date(2026, 12, 5)),
        ("05/12/2026", dt.date(2026, 12, 5)),  # day first
        ("demain", _day(1)), ("après-demain", _day(2)), ("Demain ?", _day(1)), ("ce soir", _day(0)),
        ("tomorrow", _day(1)), ("day after tomorrow", _day(2)), ("tonight", _day(0)),
        ("mañana", _day(1)), ("pasado mañana", _day(2)), ("morgen", _day(1)), ("übermorgen", _day(2)),
        ("domani", _day(1)), ("dopodomani", _day(2)), ("amanhã", _day(1)), ("depois de amanhã", _day(2)),
        ("overmorgen", _day(2)), ("明日", _day(1)), ("あさって", _day(2)), ("明天", _day(1)),
        ("后天", _day(2)), ("後天", _day(2)),
    ],
)  # fmt: skip
def test_relative_days_in_several_languages(text: str, expected: dt.date) -> None:
    parsed = parse_visit_date(text, WEDNESDAY)
    assert (parsed.status, parsed.day) == ("ok", expected)


@pytest.mark.parametrize(
    "text", ["today", "aujourd'hui", "aujourd’hui", "hoy", "heute", "oggi", "hoje", "vandaag", "今日", "今天"]
)
def test_today_in_the_nine_languages(text: str) -> None:
    assert parse_visit_date(text, WEDNESDAY).day == WEDNESDAY


@pytest.mark.parametrize(
    "text",
    [
        "samedi", "samedi prochain", "next Saturday", "Saturday", "sábado", "el sábado", "Samstag",
        "nächsten Samstag", "sabato", "sábado que viene", "zaterdag", "土曜日", "星期六", "周六", "这周六",
    ],
)  # fmt: skip
def test_a_weekday_is_its_next_occurrence(text: str) -> None:
    assert parse_visit_date(text, WEDNESDAY).day == SATURDAY


@pytest.mark.parametrize(
    "text", ["ce week-end", "this weekend", "este fin de semana", "am Wochenende", "週末"]
)
def test_the_weekend_is_the_coming_saturday(text: str) -> None:
    assert parse_visit_date(text, WEDNESDAY).day == SATURDAY


def test_the_weekend_in_progress_is_today() -> None:
    sunday = SATURDAY + dt.timedelta(days=1)
    assert parse_visit_date("ce week-end", sunday).day == sunday


def test_a_weekday_named_on_that_weekday_is_today() -> None:
    assert parse_visit_date("samedi", SATURDAY).day == SATURDAY
    assert parse_visit_date("Saturday", SATURDAY).day == SATURDAY
    assert parse_visit_date("dans une semaine", SATURDAY).day == SATURDAY + dt.timedelta(days=7)


@pytest.mark.parametrize("text", ["下周六", "下星期六", "来週の土曜日"])
def test_next_weeks_weekday_in_chinese_and_japanese(text: str) -> None:
    assert parse_visit_date(text, WEDNESDAY).day == dt.date(2026, 5, 23)


@pytest.mark.parametrize(
    "text",
    ["le 14 juillet", "14 juillet", "July 14", "14 de julio", "14. Juli", "14 luglio", "7月14日", "14/07"],
)
def test_a_day_without_a_year_is_its_next_occurrence(text: str) -> None:
    assert parse_visit_date(text, WEDNESDAY).day == dt.date(2026, 7, 14)
    assert parse_visit_date(text, dt.date(2026, 7, 20)).day == dt.date(2027, 7, 14)


@pytest.mark.parametrize(
    "text", ["hier", "yesterday", "ayer", "gestern", "ieri", "2020-01-01", "14 juillet 2025"]
)
def test_a_day_in_the_past_is_reported_as_past(text: str) -> None:
    parsed = parse_visit_date(text, WEDNESDAY)
    assert parsed.status == "past"
    assert parsed.day is not None and parsed.day < WEDNESDAY


@pytest.mark.parametrize("text", ["", "  ", "???", "blah", "quand il fera beau", "le 30 février"])
def test_unreadable_text_gives_no_day(text: str) -> None:
    parsed = parse_visit_date(text, WEDNESDAY)
    assert (parsed.status, parsed.day, parsed.text) == ("unreadable", None, text)


@pytest.mark.parametrize("text", ["juillet", "July", "2027"])
def test_a_month_or_a_year_alone_is_vague(text: str) -> None:
    assert parse_visit_date(text, WEDNESDAY).status == "vague"


def test_languages_can_be_restricted() -> None:
    assert parse_visit_date("demain", WEDNESDAY, languages=["fr"]).day == _day(1)
    assert parse_visit_date("demain", WEDNESDAY, languages=["ja"]).status == "unreadable"


@pytest.mark.parametrize(
    "text",
    [
        "next weekend", "le week-end prochain", "el próximo fin de semana", "nächstes Wochenende",
        "il prossimo fine settimana", "o próximo fim de semana", "volgend weekend", "下周末", "来週末",
    ],
)  # fmt: skip
def test_next_weekend_asked_during_a_weekend_is_the_following_one(text: str) -> None:
    following = SATURDAY + dt.timedelta(days=7)
    assert parse_visit_date(text, SATURDAY).day == following
    assert parse_visit_date(text, SATURDAY + dt.timedelta(days=1)).day == following
    assert parse_visit_date(text, WEDNESDAY).day == SATURDAY  # on a weekday: the coming one


def test_this_weekend_asked_on_a_saturday_is_today() -> None:
    assert parse_visit_date("this weekend", SATURDAY).day == SATURDAY


@pytest.mark.parametrize(
    "text",
    [
        "the day after tomorrow", "après demain", "apres-demain", "después de mañana", "despues de manana",
        "pasado manana", "übermorgen", "uebermorgen", "dopo domani", "depois de amanha", "overmorgen",
        "de dag na morgen", "明後日", "あさって", "后天", "後天",
    ],
)  # fmt: skip
def test_the_day_after_tomorrow_in_the_nine_languages_however_written(text: str) -> None:
    assert parse_visit_date(text, WEDNESDAY).day == _day(2)


@pytest.mark.parametrize(
    ("text", "month", "day"),
    [
        ("Noël", 12, 25), ("Christmas", 12, 25), ("Christmas Day", 12, 25), ("Navidad", 12, 25),
        ("Natale", 12, 25), ("Natal", 12, 25), ("Erster Weihnachtstag", 12, 25), ("Eerste Kerstdag", 12, 25),
        ("le jour de l'an", 1, 1), ("New Year's Day", 1, 1), ("Año Nuevo", 1, 1), ("Neujahr", 1, 1),
        ("Capodanno", 1, 1), ("Ano Novo", 1, 1), ("Nieuwjaarsdag", 1, 1), ("元日", 1, 1), ("元旦", 1, 1),
        ("lundi de Pâques", 4, 6), ("Easter Monday", 4, 6), ("Ostermontag", 4, 6),
        ("Lunedì dell'Angelo", 4, 6), ("Tweede paasdag", 4, 6), ("est-ce ouvert à Noël ?", 12, 25),
    ],
)  # fmt: skip
def test_holiday_names_in_the_nine_languages_are_their_next_day(text: str, month: int, day: int) -> None:
    """Seen from 13 May 2026, New Year's Day and Easter Monday (29 March 2027) are next year's."""
    expected = dt.date(2026, month, day)
    if expected < WEDNESDAY:
        expected = dt.date(2027, month, day) if month != 4 else dt.date(2027, 3, 29)
    assert parse_visit_date(text, WEDNESDAY).day == expected


def test_a_holiday_with_its_year_is_that_years() -> None:
    assert parse_visit_date("Noël 2027", WEDNESDAY).day == dt.date(2027, 12, 25)
    assert parse_visit_date("Christmas 2025", WEDNESDAY).status == "past"


def test_a_name_two_holidays_share_is_no_day() -> None:
    assert parse_visit_date("kerstdag", WEDNESDAY).day is None  # first or second Christmas day?


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 May", dt.date(2027, 5, 1)),
        ("May 2", dt.date(2027, 5, 2)),
        ("11 May 2027", dt.date(2027, 5, 11)),
        ("May 20th", dt.date(2026, 5, 20)),
    ],
)
def test_a_day_of_may_is_that_day_not_the_may_day_holiday(text: str, expected: dt.date) -> None:
    """A month's name is no holiday's distinctive word: "May Day" must be written whole."""
    assert parse_visit_date(text, SATURDAY).day == expected
    assert parse_visit_date("May Day", SATURDAY).day is not None
