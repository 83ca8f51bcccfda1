"""The conversation's id in the page address, so a reload (or a bookmark) shows the same conversation.

The id is a random 128-bit capability (``web-`` and 32 hex digits): whoever holds the address reads
the conversation, nobody can guess one. An address carrying anything else, or an id with no stored
turn, silently starts a new conversation: the page never says whether an id exists.
"""

from __future__ import annotations

import re

from agents.events import StoredConversation
from app_ui.presenters import Turn

PARAMETER = "c"  # short: the address is shared and read aloud
THREAD_ID = re.compile(r"web-[0-9a-f]{32}")


def valid_thread_id(value: object) -> str | None:
    """``value`` when it has the shape of a visitor conversation id, else None."""
    return value if isinstance(value, str) and THREAD_ID.fullmatch(value) else None


def restored_turns(conversation: StoredConversation) -> list[Turn]:
    """The page's turns for a conversation read back by ``AgentService.conversation``."""
    turns = []
    for past in conversation.turns:
        turn = Turn(past.question)
        turn.final = past.final
        turns.append(turn)
    return turns
