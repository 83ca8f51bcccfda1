"""The conversation's id in the page address, so a reload (or a bookmark) shows the same conversation.

The id is a random 128-bit capability (``web-`` and 32 hex digits): whoever holds the address reads
the conversation, nobody can guess one. An address carrying anything else, or an id with no stored
turn, silently starts a new conversation: the page never says whether an id exists.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import HumanMessage

from agents.answer.model import Answer
from agents.events import FinalAnswer
from app_ui.presenters import Turn

PARAMETER = "c"  # short: the address is shared and read aloud
THREAD_ID = re.compile(r"web-[0-9a-f]{32}")
MAX_RESTORED_TURNS = 50  # a page, not an archive: the older turns stay stored


def valid_thread_id(value: object) -> str | None:
    """``value`` when it has the shape of a visitor conversation id, else None."""
    return value if isinstance(value, str) and THREAD_ID.fullmatch(value) else None


def stored_turns(graph: Any, thread_id: str) -> list[Turn]:
    """The thread's finished turns, oldest first, each with its answer and sources as first shown.

    Each turn ends on a checkpoint with nothing left to run; its state then holds that turn's
    typed ``reply`` (later turns overwrite it), so the history gives every turn its own sources.
    """
    config = {"configurable": {"thread_id": thread_id}}
    by_number: dict[int, Turn] = {}  # the n-th question of the thread -> its turn
    for snapshot in [graph.get_state(config), *graph.get_state_history(config)]:  # newest first
        values = snapshot.values or {}
        questions = [m for m in values.get("messages", []) if isinstance(m, HumanMessage)]
        if snapshot.next or not questions or "reply" not in values or len(questions) in by_number:
            continue
        by_number[len(questions)] = _turn(str(questions[-1].content), values)
        if len(by_number) >= MAX_RESTORED_TURNS:
            break
    return [by_number[number] for number in sorted(by_number)]


def _turn(question: str, values: dict[str, Any]) -> Turn:
    reply = values.get("reply") or Answer()
    turn = Turn(question)
    turn.final = FinalAnswer(
        answer=reply.text, language=values.get("language", ""), reply=reply, kind=reply.kind
    )
    return turn
