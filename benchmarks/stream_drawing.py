"""What drawing a streamed answer costs the app, before and after issue 22.

An answer of 10 KB, 100 KB and 300 KB arrives in 4-character tokens. *Before*: the whole answer
made safe (``safe_markdown``) and sent again at every token, as ``app_ui.conversation`` did.
*After*: :class:`app_ui.stream_drawing.StreamDrawing`, finished paragraphs drawn once and the
last one at most every 200 characters or 0.25 s. The placeholder is a fake that encodes what it
is given, as Streamlit does before sending it; the figures are the app's side only, and the
Markdown sent is what the browser then has to parse again.

Run: ``python -m benchmarks.stream_drawing``. The old way on answers above ``--before-up-to``
(100 KB) would take half an hour: it draws one token in ``--sample`` (50) and multiplies by 50,
marked "estimated".
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from app_ui.presenters import safe_markdown
from app_ui.stream_drawing import CURSOR, StreamDrawing
from benchmarks._common import save_result

SIZES_KB = (10, 100, 300)
TOKEN_CHARS = 4
SENTENCE = "Le château ouvre à 9 h ; la [galerie](https://www.chateauversailles.fr/) ferme à 18 h 30. "


@dataclass
class FakePlaceholder:
    """Encodes each body as Streamlit does for its message to the browser, and counts it."""

    calls: int = 0
    sent: int = 0

    def markdown(self, body: str) -> None:
        self.calls += 1
        self.sent += len(body.encode("utf-8"))

    def empty(self) -> FakePlaceholder:
        return self


def answer(kilobytes: int) -> str:
    """An answer of about ``kilobytes`` KB in paragraphs of about 600 characters, with links."""
    size = kilobytes * 1024
    text = SENTENCE * (size // len(SENTENCE) + 1)
    return "\n\n".join(text[i : i + 600] for i in range(0, size, 600))


def tokens(text: str) -> list[str]:
    return [text[i : i + TOKEN_CHARS] for i in range(0, len(text), TOKEN_CHARS)]


def before(pieces: list[str], placeholder: FakePlaceholder, every: int = 1) -> None:
    streamed = ""
    for number, token in enumerate(pieces):
        streamed += token
        if number % every == 0:
            placeholder.markdown(safe_markdown(streamed) + CURSOR)


def after(pieces: list[str], placeholder: FakePlaceholder) -> None:
    drawing = StreamDrawing(placeholder)
    for token in pieces:
        drawing.add(token)


def measure(way: str, kilobytes: int, every: int = 1) -> dict[str, Any]:
    """One drawing of an answer of ``kilobytes``; the old way drawing one token in ``every``."""
    pieces = tokens(answer(kilobytes))
    placeholder = FakePlaceholder()
    started = time.perf_counter()
    if way == "before":
        before(pieces, placeholder, every)
    else:
        after(pieces, placeholder)
    return {
        "way": way if every == 1 else f"{way} (estimated: 1 token in {every}, ×{every})",
        "answer_kb": kilobytes,
        "tokens": len(pieces),
        "seconds": round((time.perf_counter() - started) * every, 3),
        "markdown_calls": placeholder.calls * every,
        "markdown_sent_mb": round(placeholder.sent * every / 1024 / 1024, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--before-up-to", type=int, default=100, help="largest answer (KB) drawn whole the old way"
    )
    parser.add_argument(
        "--sample", type=int, default=50, help="above it, the old way draws 1 token in SAMPLE"
    )
    args = parser.parse_args()
    rows = [
        measure(way, kilobytes, args.sample if way == "before" and kilobytes > args.before_up_to else 1)
        for kilobytes in SIZES_KB
        for way in ("before", "after")
    ]
    print("| answer | tokens | way | seconds | markdown calls | Markdown sent |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row['answer_kb']} KB | {row['tokens']:,} | {row['way']} | {row['seconds']:.3f} "
            f"| {row['markdown_calls']:,} | {row['markdown_sent_mb']:,} MB |"
        )
    save_result("stream_drawing", {"rows": rows})


if __name__ == "__main__":
    main()
