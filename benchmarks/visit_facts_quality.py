"""The agent on visitors' questions about hours, prices, closures and free entry: right, cited, headline.

Usage: python -m benchmarks.visit_facts_quality [--index DIR] [--questions FILE] [--limit N] [--show-misses]
Builds an index of the bundled corpus (data/corpus) once, in a temporary folder unless ``--index DIR``
is given (an existing index there is reused, else it is built there), and asks each question of
data/eval/visit_facts.jsonl through the real service (the offline model unless a key is set; weather
and travel tools offline, ``TOOLS_OFFLINE=true``), each in its own thread.

"Today" is the question's ``today``: the service's visit-calendar and weather tools take it through
their ``today`` callable (``CalendarService.today``, ``WeatherService.today``), set before each
question. Nothing else in the agent reads the day for an answer (only the operators' official answers
check their validity against the real date), so ``datetime`` is not patched.

Per question:
- ``right``: every aspect of ``answers`` is found in the answer's first 3 non-empty lines
  (lower-cased, white space folded as ``rag.evaluate.normalise`` does, bold markers removed). An
  alternative that begins or ends with a digit must not touch another digit there ("9:00" is not
  found in "19:00", "12 h" not in "12 h 30", "21 €" not in "121 €"). An answer that declines (kind
  ``not_found``) is never right, whatever the closest passages it quotes hold;
- ``cited``: a citation's ``source`` or ``url`` equals or ends with the question's ``source`` or its
  other-language sibling (.en.md / .fr.md swapped);
- ``bold_wrong``: a bold segment (``**...**``) of those lines holds a time or a price that is none of
  the expected values (for a question whose answers hold no time or price, any time or price). The
  calendar's headline states hours, last admission and prices together, so this also counts true
  values that were not asked; ``bold_false`` counts only a bold value that is neither expected nor
  true of the question's place in the season of its day (PLACE_FACTS, typed from the corpus; either
  season for a question without a day): a wrong headline.
Prints n, right, cited, right_and_cited, bold_wrong and bold_false for the tune and check halves (and
all), and a per-language and per-aspect breakdown; then asks the negatives of
data/eval/visit_facts_negatives.jsonl (the facts' words, asking of a café, a shop, a show, a tour, a
visitor's age...) and counts those headed in bold, which should be none; ``--show-misses`` prints
each miss with its first 3 lines. Saves the rows to benchmarks/results/visit_facts_quality.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks._common import EVAL_SETS, ROOT, save_result, split_halves
from rag.evaluate import normalise, read_jsonl

QUESTIONS = EVAL_SETS / "visit_facts.jsonl"
NEGATIVES = EVAL_SETS / "visit_facts_negatives.jsonl"  # the facts' words, asking something else
CORPUS = ROOT / "data" / "corpus"
HEAD_LINES = 3
FIGURES = ("right", "cited", "right_and_cited", "bold_wrong", "bold_false")

# Every time and price the corpus gives for a place in each season (plan-your-visit/*.en.md, typed by
# hand): a bold value outside these and the expected ones is false, not just more than was asked.
_T, _P = "t:{}".format, "p:{}".format
PLACE_FACTS: dict[str, dict[str, set[str]]] = {
    "palace": {
        "high": {_T("09:00"), _T("18:30"), _T("17:45"), _T("17:30"), _P(21), _P(13), _P(32), _P(10)},
        "low": {_T("09:00"), _T("17:30"), _T("16:45"), _T("16:40"), _P(21), _P(13), _P(24)},
    },
    "trianon": {
        "high": {_T("12:00"), _T("18:30"), _T("17:45"), _P(12), _P(8), _P(32), _P(10)},
        "low": {_T("12:00"), _T("17:30"), _T("16:45"), _P(12), _P(8), _P(24)},
    },
    "gardens": {
        "high": {_T("07:00"), _T("20:30"), _T("19:00"), _T("17:30"), _P(11), _P(10), _P(9), _P(32)},
        "low": {_T("08:00"), _T("18:00"), _T("17:30"), _P(24)},
    },
    "park": {
        "high": {_T("07:00"), _T("20:30"), _T("09:00"), _T("17:50")},
        "low": {_T("08:00"), _T("18:00"), _T("17:30"), _T("09:00"), _T("16:50")},
    },
    "coaches": {"high": {_T("12:30"), _T("18:30")}, "low": {_T("12:30"), _T("17:30")}},
}

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_PRICE = re.compile(
    r"(?<!\d)(?<!\d[.,])(\d{1,4})(?:[.,](\d{2}))?\s?(?:€|euros?\b|eur\b|ユーロ|欧元)"
    r"|(?:€|\beur)\s?(\d{1,4})(?:[.,](\d{2}))?(?!\d)"
)
_BEFORE = r"(?<!\d)(?<!\d[.:])"  # not the end of a longer number or of a date (29.03)
_AM_PM = re.compile(_BEFORE + r"(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?")
_HALF = re.compile(_BEFORE + r"(\d{1,2})\s?[時点时]半")
_CLOCK = re.compile(_BEFORE + r"(\d{1,2})\s?(?::|\.|h|u|時|点|时)\s?(\d{2})(?!\d|\.\d)")
_AFTERNOON = re.compile(r"(?:下午|午後|晚上|傍晚)\s?(\d{1,2})(?=\s?[時点时:])")  # 下午5点半: 17:30
_HOUR = re.compile(_BEFORE + r"(\d{1,2})\s?(?:h|uhr|uur|時|点|时)(?![a-z\d]|\s\d|間|半)")


def _clock(hour: int, minute: int) -> str | None:
    return f"t:{hour:02}:{minute:02}" if hour <= 24 and minute < 60 else None


def values_in(text: str) -> set[str]:
    """The prices ("p:21") and clock times ("t:17:30") written in ``text``, in the spellings the
    evaluation set uses (21 €, €21, 21 euros, 17:30, 17 h 30, 17.30, 5:30 pm, 17時30分, 17点半...)."""
    text, found = normalise(text), set()
    text = _AFTERNOON.sub(lambda m: str(int(m[1]) + 12) if int(m[1]) < 12 else m[1], text)

    def price(match: re.Match[str]) -> str:
        whole, cents = (match[1], match[2]) if match[1] else (match[3], match[4])
        found.add(f"p:{int(whole)}" + (f".{cents}" if cents and cents != "00" else ""))
        return " "

    def am_pm(match: re.Match[str]) -> str:
        if int(match[1]) > 12:  # "17:30 am Sonntag" is German: read as a 24-hour time below
            return match[0]
        found.add(_clock(int(match[1]) % 12 + (12 if match[3] == "p" else 0), int(match[2] or 0)) or "")
        return " "

    def clock(minute: int | None) -> Any:
        def read(match: re.Match[str]) -> str:
            found.add(_clock(int(match[1]), int(match[2]) if minute is None else minute) or "")
            return " "

        return read

    text = _AM_PM.sub(am_pm, _PRICE.sub(price, text))
    for pattern, minute in ((_HALF, 30), (_CLOCK, None), (_HOUR, 0)):
        text = pattern.sub(clock(minute), text)
    return found - {""}


def head_lines(text: str, count: int = HEAD_LINES) -> list[str]:
    """The first ``count`` non-empty lines of an answer."""
    return [line for line in text.splitlines() if line.strip()][:count]


def _occurs(alternative: str, haystack: str) -> bool:
    """Whether ``alternative`` occurs in ``haystack`` (both normalised), not glued to other digits."""
    needle = normalise(alternative).strip()
    if not needle:
        return False
    before = r"(?<!\d)" if needle[0].isdigit() else ""
    glued = needle[-1].isdigit() or (needle[-1] in "h時点" and any(char.isdigit() for char in needle))
    after = r"(?!\s?\d)" if glued else ""
    return re.search(before + re.escape(needle) + after, haystack) is not None


def aspects_found(aspects: Sequence[Sequence[str]], lines: Sequence[str]) -> list[bool]:
    """For each aspect, whether one of its alternatives occurs in ``lines`` (bold markers removed)."""
    haystack = normalise(" \n ".join(lines).replace("**", "").replace("__", ""))
    return [any(_occurs(alternative, haystack) for alternative in aspect) for aspect in aspects]


def siblings(source: str) -> set[str]:
    """A corpus path and its other-language twin (.en.md / .fr.md)."""
    source = source.replace("\\", "/").strip("/")
    for one, other in ((".en.md", ".fr.md"), (".fr.md", ".en.md")):
        if source.endswith(one):
            return {source, source[: -len(one)] + other}
    return {source}


def is_cited(citations: Sequence[Any], source: str) -> bool:
    """Whether one citation's source or url is the question's document (or its sibling)."""
    wanted = siblings(source)
    for citation in citations:
        for value in (getattr(citation, "source", ""), getattr(citation, "url", "")):
            value = (value or "").replace("\\", "/")
            if value and any(value == path or value.endswith("/" + path) for path in wanted):
                return True
    return False


def bold_values(lines: Sequence[str]) -> set[str]:
    """Times and prices shown in bold in ``lines``."""
    return {value for line in lines for segment in _BOLD.findall(line) for value in values_in(segment)}


def expected_values(aspects: Sequence[Sequence[str]]) -> set[str]:
    return {value for aspect in aspects for alternative in aspect for value in values_in(alternative)}


def place_facts(question: dict[str, Any]) -> set[str]:
    """The times and prices true of the question's place: in the season of its day, else in either."""
    seasons = PLACE_FACTS[question["place"]]
    if not question.get("date"):
        return seasons["high"] | seasons["low"]
    return seasons["high" if 4 <= dt.date.fromisoformat(question["date"]).month <= 10 else "low"]


def score(
    question: dict[str, Any], text: str, citations: Sequence[Any], declined: bool = False
) -> dict[str, Any]:
    """The figures of one answer (``declined``: it says the knowledge base does not answer)."""
    lines = head_lines(text)
    found = aspects_found(question["answers"], lines)
    right, cited = all(found) and not declined, is_cited(citations, question["source"])
    shown, expected = bold_values(lines), expected_values(question["answers"])
    wrong = sorted(shown - expected)
    false = sorted(shown - expected - place_facts(question))
    return {
        "right": right,
        "cited": cited,
        "right_and_cited": right and cited,
        "bold_wrong": bool(wrong),
        "bold_false": bool(false),
        "aspects_found": found,
        "bold_values_wrong": wrong,
        "bold_values_false": false,
        "head": lines,
    }


def ensure_index(index: Path) -> None:
    """Index the bundled corpus into ``index`` unless an index is already there."""
    if index.is_dir() and any(index.iterdir()):
        return
    from rag.config import RagSettings
    from rag.indexer import index_corpus

    started = time.perf_counter()
    report = index_corpus([CORPUS], RagSettings(index_dir=index))
    seconds = time.perf_counter() - started
    print(f"indexed {report.documents} documents, {report.chunks} chunks in {seconds:.0f} s")


@contextmanager
def corpus_index(index: Path | None) -> Iterator[Path]:
    """The given index folder (built there if empty), or a temporary one built for this run."""
    if index is not None:
        ensure_index(index)
        yield index
        return
    with tempfile.TemporaryDirectory(prefix="visit-facts-index-") as folder:
        ensure_index(Path(folder) / "index")
        yield Path(folder) / "index"


def set_today(service: Any, today: dt.date) -> None:
    """Make the service's date-reading tools see ``today``."""
    tools = service.visitor_tools
    for tool in (tools.calendar, tools.weather):
        tool.today = lambda today=today: today


def ask(service: Any, question: dict[str, Any]) -> dict[str, Any]:
    """One question in its own thread, scored."""
    set_today(service, dt.date.fromisoformat(question["today"]))
    row = {key: question[key] for key in ("id", "lang", "place", "aspect", "date", "question")}
    started = time.perf_counter()
    try:
        final = service.ask(question["question"], thread_id=f"visit-facts-{question['id']}")
    except Exception as error:  # noqa: BLE001 - one failing question is reported, the others still run
        row.update(score(question, "", []), error=f"{type(error).__name__}: {error}")
        return row
    row["seconds"] = round(time.perf_counter() - started, 2)
    reply = getattr(final, "reply", None)
    if reply is None:  # an error event: its message is the answer shown
        row.update(score(question, getattr(final, "message", ""), []), error=getattr(final, "kind", "error"))
        return row
    row.update(score(question, reply.text or final.answer, reply.citations, reply.kind == "not_found"))
    row.update(kind=reply.kind, tools=list(final.tools))
    return row


def headed_in_bold(service: Any, question: dict[str, Any]) -> dict[str, Any]:
    """A negative (a question sharing the facts' words that asks something else) asked in its own
    thread: whether its answer has a bold line, which it never should."""
    set_today(service, dt.date.fromisoformat(question["today"]))
    final = service.ask(question["question"], thread_id=f"visit-facts-{question['id']}")
    answer = getattr(final, "answer", "") or ""
    return {"id": question["id"], "lang": question["lang"], "bold": bool(_BOLD.search(answer))}


def report_negatives(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """How many negatives of each half were headed in bold (the target: none)."""
    counts = {half: sum(r["bold"] for r in members) for half, members in split_halves(rows).items()}
    sizes = {half: len(members) for half, members in split_halves(rows).items()}
    print(
        "\nnegatives headed in bold: "
        + "  ".join(f"{half} {counts[half]} of {sizes[half]}" for half in ("tune", "check", "all"))
    )
    print("  " + " ".join(r["id"] for r in rows if r["bold"]))
    return {"headed_in_bold": counts, "n": sizes}


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """n and the count of each figure."""
    return {"n": len(rows)} | {key: sum(bool(row[key]) for row in rows) for key in FIGURES}


def breakdown(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    return {value: figures([r for r in rows if r[key] == value]) for value in sorted({r[key] for r in rows})}


def _cell(f: dict[str, Any]) -> str:
    return (
        f"n={f['n']:3}  right {f['right']:3}  cited {f['cited']:3}  "
        f"right&cited {f['right_and_cited']:3}  bold_wrong {f['bold_wrong']:3}  "
        f"bold_false {f['bold_false']:3}"
    )


def report(rows: list[dict[str, Any]]) -> dict[str, Any]:
    payload: dict[str, Any] = {}
    for half, members in split_halves(rows).items():
        payload[half] = {"figures": figures(members)} | {
            key: breakdown(members, key) for key in ("lang", "aspect", "place")
        }
    for half in ("tune", "check", "all"):
        print(f"{half:5} {_cell(payload[half]['figures'])}")
    for key in ("lang", "aspect"):
        print(f"\nby {key}:")
        for half in ("tune", "check"):
            for value, cell in payload[half][key].items():
                print(f"  {half:5} {value:15} {_cell(cell)}")
    return payload


def show_misses(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        if row["right_and_cited"] and not row["bold_wrong"]:
            continue
        what = [k for k, bad in (("wrong", not row["right"]), ("uncited", not row["cited"]),
                                 ("bold_wrong", row["bold_wrong"])) if bad]  # fmt: skip
        print(f"\nMISS {row['id']} ({', '.join(what)}) {row['question']!r}")
        if row.get("error"):
            print(f"  error: {row['error']}")
        if row["bold_values_wrong"]:
            print(
                f"  bold values not expected: {row['bold_values_wrong']} (false: {row['bold_values_false']})"
            )
        for line in row["head"]:
            print(f"  | {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, default=None, help="index folder (built there if empty)")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    os.environ["TOOLS_OFFLINE"] = "true"
    from benchmarks._common import offline_service

    questions = read_jsonl(args.questions)[: args.limit]
    with corpus_index(args.index) as index, tempfile.TemporaryDirectory() as folder:
        service = offline_service(index, Path(folder))
        rows = [ask(service, question) for question in questions]
        negatives = [headed_in_bold(service, q) for q in read_jsonl(NEGATIVES)[: args.limit]]
        model = service.model_name
    payload = report(rows)
    payload["negatives"] = report_negatives(negatives)
    if args.show_misses:
        show_misses(rows)
    errors = [row["id"] for row in rows if row.get("error")]
    if errors:
        print(f"\n{len(errors)} question(s) ended in an error: {', '.join(errors)}")
    name = (
        "visit_facts_quality" if args.questions == QUESTIONS else f"visit_facts_quality_{args.questions.stem}"
    )
    payload.update(model=model, questions=str(args.questions), rows=rows)
    print(f"saved to {save_result(name, payload)}")


if __name__ == "__main__":
    main()
