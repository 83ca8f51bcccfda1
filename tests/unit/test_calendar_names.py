"""The months and weekdays a text names (rag/lexicon/calendar_names.py)."""

from __future__ import annotations

from rag.lexicon.calendar_names import months_covered, weekdays_named


def test_a_range_of_months_covers_the_months_between_even_across_the_new_year() -> None:
    assert months_covered("de novembre à mars") == {11, 12, 1, 2, 3}


def test_weekdays_are_recognised_in_any_of_the_nine_languages() -> None:
    assert weekdays_named("samedis et dimanches") == weekdays_named("zaterdag, zondag") == {5, 6}


def test_a_japanese_or_chinese_weekday_is_found_inside_a_run_of_characters() -> None:
    assert weekdays_named("每月第一个星期日免费") == weekdays_named("毎月第1日曜日") == {6}
    assert weekdays_named("十一月") == set()  # a month, not a weekday


def test_a_weekday_in_the_plural_is_that_weekday() -> None:
    assert weekdays_named("gesloten op dinsdagen?") == {1}  # Dutch: "-en"
    assert weekdays_named("nur an Samstagen") == {5}
    assert weekdays_named("fechado às terças-feiras") == {1}  # Portuguese: each part of the compound
    assert weekdays_named("Julien arrive en juillet") == set()  # an ending is only a weekday's
