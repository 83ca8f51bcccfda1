"""The language to reply in: the visitor's message, or the conversation's when too short to tell."""

from __future__ import annotations

from rag.language import detect_language
from rag.lexicon.scripts import UNSPACED_CHARACTER

MIN_WORDS = 3
MIN_CJK_CHARACTERS = 4


def reply_language(message: str, conversation_language: str | None = None, default: str = "en") -> str:
    """ISO 639-1 code of the reply: detected when the message says enough, else inherited.

    Language detectors are reliable from a few words on and guess on one or two ("merci",
    "wifi ?"); a short message therefore keeps the language the conversation already has.
    """
    text = message.strip()
    long_enough = (
        len(text.split()) >= MIN_WORDS or len(UNSPACED_CHARACTER.findall(text)) >= MIN_CJK_CHARACTERS
    )
    if long_enough or not conversation_language:
        detected = detect_language(text)
        if detected:
            return detected
    return conversation_language or default
