"""What qualifies each value of a sentence (a rate, a season, months, days), in the visitor's words.

"Il est vendu 21€ en tarif plein et 13€ en tarif réduit" gives "21 € (full price)" and "13 €
(reduced rate)"; "de 12h à 18h30 d'avril à juin" gives "(April – June)". A value's qualifiers are
the words between it and the next value or the end of its clause, else those between the clause's
start (or the previous value) and it. Glossary concepts are written with the glossary's own term in
the visitor's language; months and weekdays with Babel's calendar names.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence
from functools import lru_cache

from babel.dates import format_interval, get_day_names, get_month_names

from agents.answer.stated_values import stated_values, written
from agents.answer.visitor_terms import concept_name, found_in, visitor_term
from rag.lexicon.folding import fold_accents
from rag.lexicon.languages import SUPPORTED_LANGUAGES, supported_language

_CLAUSE_END = re.compile(r"[.;:()\[\]|•,]")
_RANGE = re.compile(r"\s*(?:-|–|à|au|to|until|till|bis|al|a)\s*", re.IGNORECASE)


def qualifiers(
    text: str, spans: Sequence[tuple[int, int]], source_language: str, language: str, names: Collection[str],
    stops: Collection[str] = (),
) -> list[list[str]]:  # fmt: skip
    """For each value span of ``text`` (in order), its qualifiers written in ``language``: glossary
    concepts named in ``names``, months and weekdays; a concept of ``stops`` ("closed") ends them
    ("9h-18h30, fermé le lundi": Monday does not qualify the hours)."""
    ends = [s for c, s, _ in found_in(text, [source_language]) if concept_name(c) in stops]
    found: list[list[str]] = []
    for index, (start, end) in enumerate(spans):
        following = min(
            [spans[index + 1][0] if index + 1 < len(spans) else len(text), *(s for s in ends if s >= end)]
        )
        after = text[end:following]
        after = after[: m.start()] if (m := _CLAUSE_END.search(after)) else after
        preceding = spans[index - 1][1] if index else 0
        before = text[preceding:start]
        before = before[m.end() :] if (m := _last(_CLAUSE_END, before)) else before
        words = _words(after, source_language, language, names) or _words(
            before, source_language, language, names
        )
        found.append(words)
    return found


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    matches = list(pattern.finditer(text))
    return matches[-1] if matches else None


def _words(window: str, source_language: str, language: str, names: Collection[str]) -> list[str]:
    """The qualifiers a window of text names, in order of appearance, written in ``language``."""
    if not window.strip():
        return []
    hits: list[tuple[int, int, str]] = []
    for concept, start, end in found_in(window, [source_language]):
        if concept_name(concept) in names:
            hits.append((start, end, visitor_term(concept, language)))
    hits += calendar_words(window, language, source_language)
    hits.sort()
    words: list[str] = []
    for start, end, word in hits:
        if any(s <= start < e for s, e, _ in hits if (s, e) != (start, end) and e - s > end - start):
            continue  # "14 juillet" the holiday, not July
        words.append(word)
    return list(dict.fromkeys(words))


def calendar_words(text: str, language: str, source_language: str = "fr") -> list[tuple[int, int, str]]:
    """Days of the year ("1er mai"), months (a range "avril à juin" as one) and weekdays named in
    ``text``, as (start, end, words in ``language``)."""
    dates = [
        (v.start, v.end, written(v, language))
        for v in stated_values("date", text, source_language)
        if v.key[1] is not None and v.key[2] is not None
    ]
    folded = fold_accents(text)
    outside = [
        m for m in _calendar_pattern().finditer(folded) if not any(a <= m.start() < b for a, b, _ in dates)
    ]
    return sorted(dates + _calendar(folded, outside, language))


def months_covered(text: str) -> set[int]:
    """The months ``text`` names, a range ("d'avril à octobre", "novembre-mars") standing for all
    the months it spans."""
    folded = fold_accents(text)
    months, _ = _calendar_names()
    named = [
        (m, months[name])
        for m in _calendar_pattern().finditer(folded)
        if (name := _singular(m.group(), months)) in months
    ]
    covered: set[int] = set()
    index = 0
    while index < len(named):
        match, first = named[index]
        if index + 1 < len(named) and _RANGE.fullmatch(_between(folded, match, named[index + 1][0])):
            last = named[index + 1][1]
            covered |= months_between(first, last)
            index += 2
            continue
        covered.add(first)
        index += 1
    return covered


def months_between(first: int, last: int) -> set[int]:
    """The months from ``first`` to ``last`` included, across the new year if need be (11, 3: Nov-Mar)."""
    return {(first - 1 + step) % 12 + 1 for step in range((last - first) % 12 + 1)}


def _between(folded: str, first: re.Match[str], second: re.Match[str]) -> str:
    """The words between two month names, a day number before the second left out ("1er avril-31 octobre")."""
    return re.sub(r"\b\d{1,2}(?:er)?\b", "", folded[first.end() : second.start()])


def _calendar(folded: str, matches: list[re.Match[str]], language: str) -> list[tuple[int, int, str]]:
    """Months (a range "avril à juin" as one) and weekdays among ``matches``, in ``language``."""
    locale = supported_language(language)
    months, days = _calendar_names()
    found: list[tuple[int, int, str]] = []
    index = 0
    while index < len(matches):
        match = matches[index]
        name = _singular(match.group(), months, days)
        following = matches[index + 1] if index + 1 < len(matches) else None
        other = _singular(following.group(), months, days) if following else ""
        ranged = following is not None and bool(_RANGE.fullmatch(_between(folded, match, following)))
        if name in days:
            names = get_day_names("wide", locale=locale)
            if ranged and following and other in days:  # "du mardi au dimanche"
                found.append((match.start(), following.end(), f"{names[days[name]]}–{names[days[other]]}"))
                index += 2
                continue
            found.append((*match.span(), names[days[name]]))
        else:
            first = dt.date(2000, months[name], 1)
            if ranged and following and other in months:
                last = dt.date(2000, months[other], 1)
                found.append(
                    (match.start(), following.end(), format_interval(first, last, "MMMM", locale=locale))
                )
                index += 2
                continue
            found.append((*match.span(), get_month_names("wide", "stand-alone", locale=locale)[months[name]]))
        index += 1
    return found


def _singular(name: str, *tables: dict[str, int]) -> str:
    """ "lundis" -> "lundi" (a weekday in the plural: "fermé les lundis")."""
    return name if any(name in table for table in tables) else name[:-1]


@lru_cache(maxsize=1)
def _calendar_names() -> tuple[dict[str, int], dict[str, int]]:
    """Folded wide month and weekday names of the nine languages (Babel)."""
    months: dict[str, int] = {}
    days: dict[str, int] = {}
    for language in SUPPORTED_LANGUAGES:
        for number, name in get_month_names("wide", locale=language).items():
            if not re.search(r"\d", name):
                months.setdefault(fold_accents(name), number)
        for number, name in get_day_names("wide", locale=language).items():
            days.setdefault(fold_accents(name), number)
    return months, days


@lru_cache(maxsize=1)
def _calendar_pattern() -> re.Pattern[str]:
    months, days = _calendar_names()
    names = sorted([*months, *days], key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")s?(?!\w)")


def clause(text: str, start: int, end: int, connectors: Sequence[str]) -> tuple[int, int]:
    """The span of the clause of ``text`` holding ``text[start:end]``: up to the punctuation or
    connector ("et", "and") before and after it."""
    words = "|".join(re.escape(w) for w in connectors if w.strip())
    boundary = re.compile(
        r"[.;:()\[\]|•,!?]" + (rf"|(?<!\w)(?:{words})(?!\w)" if words else ""), re.IGNORECASE
    )
    before = _last(boundary, text[:start])
    after = boundary.search(text, end)
    return (before.end() if before else 0, after.start() if after else len(text))


def weekdays_named(text: str) -> set[int]:
    """The weekdays ``text`` names, in any of the nine languages (0 is Monday)."""
    days = _calendar_names()[1]
    names = (_singular(m.group(), days) for m in _calendar_pattern().finditer(fold_accents(text)))
    return {days[name] for name in names if name in days}


def value_clauses(text: str, spans: Sequence[tuple[int, int]], connectors: Sequence[str]) -> list[str]:
    """Each value's clause; values joined only by a connector or a range word ("entre 1762 et
    1768", "de 9h à 18h") share one."""
    joining = "|".join(re.escape(w) for w in [*connectors, "à", "au", "to", "-", "–"])
    groups: list[list[tuple[int, int]]] = []
    for span in spans:
        if groups and re.fullmatch(rf"\s*(?:{joining})?\s*", text[groups[-1][-1][1] : span[0]], re.I):
            groups[-1].append(span)
        else:
            groups.append([span])
    bounds = [clause(text, group[0][0], group[-1][1], connectors) for group in groups]
    return [text[a:b] for group, (a, b) in zip(groups, bounds, strict=True) for _ in group]
