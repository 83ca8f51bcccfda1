"""A streamed answer is drawn in work linear in its length, and shows all of its text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from app_ui.stream_drawing import CURSOR, StreamDrawing


@dataclass
class FakePlaceholder:
    bodies: list[str] = field(default_factory=list)

    def markdown(self, body: str) -> None:
        self.bodies.append(body)


@dataclass
class FakeBox:
    placeholders: list[FakePlaceholder] = field(default_factory=list)

    def empty(self) -> FakePlaceholder:
        self.placeholders.append(FakePlaceholder())
        return self.placeholders[-1]

    @property
    def shown(self) -> str:
        """What the page shows now: the last body of each placeholder, top to bottom."""
        return "\n\n".join(p.bodies[-1].removesuffix(CURSOR) for p in self.placeholders if p.bodies)

    @property
    def work(self) -> int:
        return sum(len(body) for p in self.placeholders for body in p.bodies)


def _answer(chars: int, paragraph: int) -> str:
    sentence = "Le château ouvre à 9 h et ferme à 18 h 30. "
    words = (sentence * (chars // len(sentence) + 1))[:chars]
    return "\n\n".join(words[i : i + paragraph].strip() for i in range(0, chars, paragraph))


def _stream(text: str, drawing: StreamDrawing) -> None:
    for start in range(0, len(text), 4):
        drawing.add(text[start : start + 4])
    drawing.draw()


@pytest.mark.parametrize("paragraph", [300, 5000, 300_000])  # short paragraphs, long ones, a single one
def test_redraws_and_work_grow_linearly_with_the_answer(paragraph: int) -> None:
    text = _answer(300_000, paragraph)
    box = FakeBox()
    drawing = StreamDrawing(box, redraw_chars=200, block_chars=2000, clock=lambda: 0.0)

    _stream(text, drawing)

    # At most a finished block and the last one per redraw, plus the blocks a long paragraph is cut into.
    assert drawing.redraws <= 2 * len(text) / 200 + len(text) / 1000 + 2
    assert box.work <= 12 * len(text)  # redrawn whole per token: 75,000 draws, 11 GB of Markdown


def test_every_character_is_shown_once_the_stream_ends() -> None:
    text = _answer(20_000, 700)
    box = FakeBox()

    _stream(text, StreamDrawing(box, clock=lambda: 0.0))

    assert " ".join(box.shown.split()) == " ".join(text.split())
    finished = box.placeholders[:-1]
    assert finished and not any(p.bodies[-1].endswith(CURSOR) for p in finished)
    assert all(len(p.bodies) <= 2000 / 200 + 2 for p in box.placeholders)


def test_a_slow_stream_is_redrawn_on_time_even_with_few_characters() -> None:
    now = [0.0]
    box = FakeBox()
    drawing = StreamDrawing(box, redraw_seconds=0.25, clock=lambda: now[0])

    for token in ["Le ", "château ", "ouvre"]:
        now[0] += 0.3
        drawing.add(token)

    assert box.placeholders[-1].bodies[-1] == "Le château ouvre" + CURSOR


def test_markdown_is_made_safe_in_every_block() -> None:
    box = FakeBox()

    _stream("![x](https://attacker.example/a.png)\n\nSuite.", StreamDrawing(box, clock=lambda: 0.0))

    bodies = [body for p in box.placeholders for body in p.bodies]
    assert len(box.placeholders) == 2
    assert all(not re.search(r"(?<!\\)!\[", body) for body in bodies)
