"""Value check on real passages: values re-written in another language are kept, altered ones removed.

Every value of 400 passages of the shared corpus is written again the way Babel (CLDR) writes it in
one of the nine languages, drawn at random ("18h30" -> "6:30 PM", "1er janvier" -> "1. Januar",
"1 670 m" -> "1,670 m", "32 €" -> "€32.00"), and the one-sentence answer "<value> [1]." is checked
against its passage: it must be kept. The same value altered (5 minutes, a day, 1 €, ...) must be
removed, unless the passage happens to state the altered value too (counted apart).

Usage: python -m benchmarks.value_check_reformatting [--passages 400]
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import random
from decimal import Decimal

from babel.dates import format_date, format_skeleton, format_time
from babel.numbers import format_currency, format_decimal

from agents.answer.value_check import check_values
from agents.answer.value_extract import extract_values, text_readings
from benchmarks._common import save_result
from benchmarks.value_check_speed import corpus_passages
from rag.lexicon.languages import SUPPORTED_LANGUAGES

YEARS = {"fr": "ans", "en": "years", "es": "años", "de": "Jahre", "it": "anni", "pt": "anos", "nl": "jaar",
         "ja": "歳", "zh": "岁"}  # fmt: skip


def written(kind: str, key: str, language: str, shift: int = 0) -> str | None:
    """The value ``kind``/``key`` as ``language`` writes it, moved by ``shift`` steps; None if not drawn."""
    if kind == "hours":
        hour, minute = map(int, key.split(":"))
        total = (hour * 60 + minute + 5 * shift) % 1440
        return format_time(dt.time(total // 60, total % 60), "short", locale=language)
    if kind == "date":
        return _date(key, language, shift)
    if kind == "price" and key != "free":
        amount, currency = key.split()
        return format_currency(Decimal(amount) + shift, currency, locale=language)
    if kind in {"distance", "area"} and not key.endswith(" mi"):
        number, unit = key.split()
        return (
            f"{format_decimal(Decimal(number) + 10 * shift, locale=language)} {'m²' if unit == 'm2' else 'm'}"
        )
    if kind == "duration":
        return f"{format_decimal(Decimal(key) + 5 * shift, locale=language)} min"
    if kind == "age":
        return f"{int(key) + shift}{'' if language in {'ja', 'zh'} else ' '}{YEARS[language]}"
    if kind == "phone" and len(key) == 10:
        digits = key[:-1] + str((int(key[-1]) + shift) % 10)
        return "+33 " + " ".join([digits[1], *(digits[i : i + 2] for i in range(2, 10, 2))])
    if kind == "count":
        return f"{format_decimal(Decimal(key) + shift, locale=language)} objets"
    return None


def _date(key: str, language: str, shift: int) -> str:
    if key.startswith("--"):
        day = dt.date(2000, int(key[2:4]), int(key[5:7])) + dt.timedelta(days=shift)
        return format_skeleton("MMMMd", day, locale=language)
    if len(key) == 10:
        return format_date(dt.date.fromisoformat(key) + dt.timedelta(days=shift), "long", locale=language)
    if len(key) == 7:
        months = int(key[:4]) * 12 + int(key[5:]) - 1 + shift
        return format_skeleton("yMMMM", dt.date(months // 12, months % 12 + 1, 1), locale=language)
    return str(int(key) + shift)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passages", type=int, default=400)
    args = parser.parse_args()
    rng = random.Random(7)
    counts: collections.Counter[str] = collections.Counter()
    misses = []
    for passage in rng.sample(corpus_passages(), args.passages):
        supported = text_readings(passage)
        for value in extract_values(passage):
            language = rng.choice(SUPPORTED_LANGUAGES)
            for shift, case in ((0, "reformatted"), (1, "altered")):
                if (text := written(value.kind, value.key, language, shift)) is None:
                    continue
                if shift and any(supported & stated.readings for stated in extract_values(text)):
                    counts["altered_also_in_passage"] += 1
                    continue
                kept = check_values(f"{text} [1].", {1: passage}, language=language).text != ""
                right = kept if case == "reformatted" else not kept
                counts[f"{case}_{'right' if right else 'wrong'}"] += 1
                counts[f"{case}_{value.kind}"] += 1
                if not right:
                    misses.append(f"{case} {language} {value.kind}: {value.text!r} -> {text!r}")
    figures: dict[str, float] = dict(sorted(counts.items()))
    for case in ("reformatted", "altered"):
        total = counts[f"{case}_right"] + counts[f"{case}_wrong"]
        figures[f"{case}_share_right"] = round(counts[f"{case}_right"] / max(total, 1), 4)
        print(f"{case}: {counts[f'{case}_right']}/{total} right")
    print(f"altered values the passage also states (left out): {counts['altered_also_in_passage']}")
    print(
        "by kind:",
        {k: v for k, v in figures.items() if k.count("_") == 1 and not k.endswith(("right", "wrong"))},
    )
    print("\n".join(misses[:30]))
    save_result("value_check_reformatting", {**figures, "misses": misses})


if __name__ == "__main__":
    main()
