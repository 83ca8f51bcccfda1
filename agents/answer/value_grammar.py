"""How the nine visitor languages write a value: one regular expression per written form.

Each form is a named alternative of one pattern scanned once over accent-folded, lower-case text
(``rag.lexicon.folding.fold_in_place``: character by character, so no-break and thin spaces read as spaces
and offsets stay those of the original). Forms are tried in order at each position, so the more
specific one wins: "1 h 30 min" is a duration before "1 h 30" can be a clock time, "9.30 uur" a
clock time before "uur" can be hours of duration, "1 670 m" a distance before "1 670" can be a count.
A number followed by a unit word is one form whose unit table says the kind. Month names come from
Babel (CLDR), never from a list of ours; the kinds are those of ``rag.answer_types`` (clock times
are "hours" there too). Our words (units, range connectors, "free", the Japanese and Chinese
morning and afternoon) live in ``data/answer/value_grammar.toml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from babel.dates import get_month_names
from babel.numbers import get_currency_symbol
from babel.units import format_unit

from rag.config import PROJECT_ROOT
from rag.lexicon.folding import fold_accents, fold_in_place
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.lexicon.stores import read_store

WORDS_FILE = PROJECT_ROOT / "data" / "answer" / "value_grammar.toml"

# A number never starts inside a word or another number ("1 670" is never read as "670").
START = r"(?<![0-9a-z])(?<![0-9][.,])(?<![0-9] )"
# Digits grouped by threes with a space, dot, comma or apostrophe ("1 670", "12.000", "1,670.50"),
# or plain digits with an optional decimal part ("24,00", "1.5").
NUMBER = (
    r"(?:[0-9]{1,3}(?:[ .,'][0-9]{3}(?![0-9]))+(?:[.,][0-9]{1,2}(?![0-9]))?"
    r"|[0-9]+(?:[.,][0-9]+)?)(?![0-9])"
)
ORDINAL = r"(?:er|re|st|nd|rd|th|o|a|°|\.)?"
AMPM = r"(?:a\.? ?m\.?|p\.? ?m\.?)(?![a-z])"


@dataclass(frozen=True)
class Unit:
    """What a unit word after a number means: the kind, a factor to the canonical unit, its name."""

    kind: str
    factor: int = 1
    name: str = ""


@functools.lru_cache(maxsize=1)
def word_units() -> dict[str, Unit]:
    """Our unit words ("€", "heures", "km") -> their unit, as the store lists them (a word listed
    twice means the later unit); prices are named by ISO 4217 code."""
    found: dict[str, Unit] = {}
    for unit in read_store(WORDS_FILE)["units"].values():
        found.update(dict.fromkeys(unit["words"], Unit(unit["kind"], unit["factor"], unit.get("name", ""))))
    return found


def unit_words(label: str) -> tuple[str, ...]:
    """The words of one of the store's units ("minute", "hour")."""
    return tuple(read_store(WORDS_FILE)["units"][label]["words"])


@functools.lru_cache(maxsize=1)
def cjk_meridiem() -> dict[str, str]:
    """Japanese and Chinese words before a clock time -> "a" (morning) or "p" (afternoon, evening)."""
    return dict(read_store(WORDS_FILE)["cjk_meridiem"])


def connector() -> str:
    """What joins the two ends of a range ("9–18 h", "de 9 à 18 h", "9至18点"): the store's
    alternatives, tried in its order."""
    return "(?:" + "|".join(read_store(WORDS_FILE)["range_connectors"]) + ")"


def free_words() -> str:
    """How a price of nothing is written ("gratuit", "kostenlos", "無料"): the store's patterns."""
    return "|".join(read_store(WORDS_FILE)["free"])


# Currencies a visitor may pay or quote in; their symbols in the nine languages come from Babel.
CURRENCIES = ("EUR", "USD", "GBP", "CHF", "JPY", "CNY", "CAD", "AUD", "BRL")


@functools.lru_cache(maxsize=1)
def currency_symbols() -> dict[str, str]:
    """Folded currency symbols and codes ("us$", "$us", "ca$", "r$", "usd") -> ISO 4217 code, from
    Babel (CLDR) in the nine languages; a symbol two currencies share ("¥") is left out."""
    claims: dict[str, set[str]] = {}
    for code in CURRENCIES:
        claims.setdefault(code.lower(), set()).add(code)
        for language in (*SUPPORTED_LANGUAGES, "pt_BR", "en_CA", "en_AU"):
            claims.setdefault(fold_in_place(get_currency_symbol(code, locale=language)), set()).add(code)
    return {symbol: next(iter(codes)) for symbol, codes in claims.items() if len(codes) == 1}


@functools.lru_cache(maxsize=1)
def percent_words() -> tuple[str, ...]:
    """How the nine languages write "per cent" after a number ("%", "pour cent", "Prozent",
    "パーセント"), folded, from Babel's unit patterns."""
    words = {"%", "％"}
    for language in SUPPORTED_LANGUAGES:
        for length in ("long", "short", "narrow"):
            written = fold_in_place(format_unit(5, "concentr-percent", length=length, locale=language))
            word = written.replace("5", "").strip(" \u00a0")
            if word and "concentr" not in word:
                words.add(word)
    return tuple(sorted(words))


@functools.lru_cache(maxsize=1)
def units() -> dict[str, Unit]:
    """Every unit word: ours from the store, then the currency symbols and percent words from Babel."""
    found = dict(word_units())
    for symbol, code in currency_symbols().items():
        found.setdefault(symbol, Unit("price", 1, code))
    for word in percent_words():
        found.setdefault(word, Unit("percent", 1, "%"))
    return found


@dataclass(frozen=True)
class Form:
    """One way of writing a value: its group name in the scan pattern and how it starts."""

    name: str
    pattern: str
    digit_first: bool = True  # starts with a digit (after ``START``); else at a word's start
    has_digit: bool = True  # holds a digit: a word-first form is tried only where one comes soon


def alternation(words: Iterable[str]) -> str:
    """Literal words as one trie-shaped pattern ("m(?:etres?|i)?"): fast, and the longest word wins."""
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 and len(branches[0]) == 1 else f"(?:{'|'.join(branches)})"
        return body + "?" if "" in node else body

    return emit(trie)


@functools.lru_cache(maxsize=1)
def month_numbers() -> dict[str, int]:
    """Folded month names of the nine languages -> month number, from Babel: the wide names, the
    abbreviations written with a full stop ("janv.", "Okt."), and the English ones ("Jan")."""
    names: dict[str, int] = {}
    for language in SUPPORTED_LANGUAGES:
        for context in ("format", "stand-alone"):
            for number, name in get_month_names("wide", context, locale=language).items():
                if (folded := fold_accents(name)).isalpha() and folded.isascii():  # "1月" is read as digits
                    names.setdefault(folded, number)
    for language in SUPPORTED_LANGUAGES:  # "janv.", "Okt.": an abbreviation with its full stop only
        for number, name in get_month_names("abbreviated", locale=language).items():
            if (folded := fold_accents(name)).endswith(".") and folded[:-1].isalpha():
                names.setdefault(folded, number)
    for number, name in get_month_names("abbreviated", locale="en").items():  # "Jan 1"
        names.setdefault(fold_accents(name), number)
    return names


def _english_months() -> list[str]:
    """English month names: English is the one language that writes the month before the day."""
    names = [
        *get_month_names("wide", locale="en").values(),
        *get_month_names("abbreviated", locale="en").values(),
    ]
    return [fold_accents(name) for name in names]


def _cjk_clock(name: str) -> str:
    """A clock time in Japanese or Chinese: "9時", "9時30分", "9点半" ("9時間" is a duration)."""
    return (
        rf"(?P<{name}_h>[0-9]{{1,2}}) ?(?P<{name}_unit>[時时点點])(?!間)"
        rf"(?: ?(?P<{name}_m>[0-9]{{1,2}}) ?分|(?P<{name}_half>半))?"
    )


@functools.lru_cache(maxsize=1)
def forms() -> tuple[Form, ...]:
    """Every written form, in the order they are tried at one position."""
    n, months, currencies = NUMBER, alternation(month_numbers()), alternation(currency_symbols())
    hour_words, minute_words = alternation((*unit_words("hour"), "h")), alternation(unit_words("minute"))

    def year(form: str) -> str:
        return rf"(?P<{form}_y>[0-9]{{4}})(?![0-9])"

    def clock(form: str, after: str) -> str:  # "9:30", "9.30", "9 h 30", "9 Uhr 30": hour, then `after`
        return rf"(?P<{form}_h>[0-9]{{1,2}}){after}"

    not_a_time = r"(?! ?(?:h(?![a-z])|:[0-9]|[.,][0-9]|uhr|uur|am(?![a-z])|pm(?![a-z])|a\.m|p\.m|時|点|€|%))"
    minutes = r"(?: ?(?P<{}_m>[0-9]{{2}})(?![0-9]))?"
    return (
        Form("phonefr", r"0[1-9](?:[ .-]?[0-9]{2}){4}(?![0-9])"),
        Form("phoneplus", r"\+33 ?(?:\(0\) ?)?[1-9](?:[ .-]?[0-9]{2}){4}(?![0-9])", False),
        Form("phoneintl", r"\+[1-9][0-9]{0,2}(?:[ .-]?[0-9]{1,4}){2,6}(?![0-9])", False),
        Form("pricepre", rf"(?P<pricepre_unit>{currencies}) ?(?P<pricepre_n>{n})", False),
        Form("free", rf"(?<!-)(?:{free_words()})(?![a-z])", False, False),
        Form("dateiso", rf"{year('dateiso')}-(?P<dateiso_m>[0-9]{{2}})-(?P<dateiso_d>[0-9]{{2}})(?![0-9])"),
        Form("datenum", rf"(?P<datenum_d>[0-9]{{1,2}})/(?P<datenum_m>[0-9]{{1,2}})/{year('datenum')}"),
        Form(
            "dmy",
            rf"(?P<dmy_d>[0-9]{{1,2}}){ORDINAL} ?(?:de |del |of (?:the )?)?"
            rf"(?P<dmy_unit>(?P<dmy_m>{months})(?![a-z])(?:,? (?:de |del )?{year('dmy')})?)",
        ),
        Form(
            "mdy",
            rf"(?P<mdy_unit>{alternation(_english_months())})\.? (?P<mdy_d>[0-9]{{1,2}})(?:st|nd|rd|th)?"
            rf"(?![0-9]){not_a_time}(?:,? {year('mdy')})?",
            False,
        ),
        Form("my", rf"(?P<my_m>{months}) (?:de |del )?{year('my')}", False),
        Form(
            "datecjk",
            r"(?:(?P<datecjk_y>[0-9]{4}) ?年 ?)?(?P<datecjk_m>[0-9]{1,2}) ?月 ?"
            r"(?:(?P<datecjk_d>[0-9]{1,2}) ?[日号號])?",
        ),
        Form(
            "durhm",
            rf"(?P<durhm_h>{n}) ?(?:{hour_words})(?![a-z]) ?(?:(?:and|et|y|e|und|en) )?"
            rf"(?P<durhm_m>[0-9]{{1,2}}) ?(?:{minute_words})(?![a-z])",
        ),
        Form(
            "clock",
            clock("clock", rf":(?P<clock_m>[0-9]{{2}})(?![0-9])(?: ?(?P<clock_unit>{AMPM}))?")
            + r"(?: ?(?:uhr|uur|h)(?![a-z]))?",
        ),
        Form(
            "clockdot",
            clock("clockdot", rf"\.(?P<clockdot_m>[0-9]{{2}}) ?(?P<clockdot_unit>{AMPM}|uhr|uur|h(?![a-z]))"),
        ),
        Form("clockh", clock("clockh", r" ?(?P<clockh_unit>h)(?![a-z])" + minutes.format("clockh"))),
        Form("clockampm", clock("clockampm", rf" ?(?P<clockampm_unit>{AMPM})")),
        Form(
            "clockuhr",
            clock("clockuhr", r" ?(?P<clockuhr_unit>uhr|o['’]clock)(?![a-z])" + minutes.format("clockuhr")),
        ),
        Form("clockore", r"ore " + clock("clockore", r"(?:[.:](?P<clockore_m>[0-9]{2}))?(?![0-9])"), False),
        Form("clockcjk", _cjk_clock("clockcjk")),
        Form(
            "clockcjkap",
            rf"(?P<clockcjkap_ap>{alternation(cjk_meridiem())}) ?{_cjk_clock('clockcjkap')}",
            False,
        ),
        Form(
            "measure",
            rf"(?P<measure_n>{n}) ?(?P<measure_unit>{alternation(units())})(?![a-z0-9])"
            r"(?:(?:(?<=heure)|(?<=heures)) (?P<measure_m>[0-9]{2})(?![0-9]))?",  # "9 heures 30"
        ),
        Form("year", r"(?P<year_y>1[0-9]{3}|20[0-9]{2})(?![0-9]|[.,][0-9])(?: ?年)?"),
        Form(  # a number before a word (not "9 to"), or before a CJK counter ("357枚", not "9至")
            "count",
            rf"(?P<count_n>{n})(?: (?!{connector()}(?![a-z]))[^\W\d_]{{3,}}"
            r"|(?![至到])[\u30a0-\u30ff\u3400-\u9fff])",
        ),
    )


@functools.lru_cache(maxsize=1)
def scan_pattern() -> re.Pattern[str]:
    """All forms as one pattern, each under its own group name, each tried only where it can start."""

    def alternatives(digit_first: bool, has_digit: bool) -> str:
        chosen = [f for f in forms() if f.digit_first == digit_first and f.has_digit == has_digit]
        return "|".join(f"(?P<{form.name}>{form.pattern})" for form in chosen)

    return re.compile(
        rf"{START}(?=[0-9])(?:{alternatives(True, True)})"
        rf"|(?<![a-z0-9])(?=[^\s0-9])(?:{alternatives(False, False)}"
        rf"|(?=[^0-9\n]{{0,15}}[0-9])(?:{alternatives(False, True)}))"  # "septiembre de 2025"
    )


@functools.lru_cache(maxsize=1)
def form_groups() -> dict[str, tuple[str, ...]]:
    """Each form's own groups, without the form's prefix ("measure_n" -> "n")."""
    names = scan_pattern().groupindex
    return {
        form.name: tuple(
            name.removeprefix(f"{form.name}_") for name in names if name.startswith(f"{form.name}_")
        )
        for form in forms()
    }


@functools.lru_cache(maxsize=1)
def lone_number() -> re.Pattern[str]:
    """A number, with an ordinal mark ("1er", "2nd") if it has one."""
    return re.compile(rf"{START}(?P<n>{NUMBER}){ORDINAL}")


@functools.lru_cache(maxsize=1)
def range_connector() -> re.Pattern[str]:
    """What stands between the two ends of a range."""
    return re.compile(rf" ?{connector()} ?")
