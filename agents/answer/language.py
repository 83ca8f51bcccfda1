"""The language to reply in: the message's when it clearly says, else the conversation's; English,
with a note, for a language the assistant does not speak."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rag.language import SUPPORTED_SCRIPTS, detect_language, identify, main_script
from rag.lexicon.languages import SUPPORTED_LANGUAGES
from rag.lexicon.scripts import KANA_CHARACTER, UNSPACED_CHARACTER

MIN_WORDS = 3
MIN_CJK_CHARACTERS = 4
SWITCH_PROBABILITY = 0.8  # among the nine languages: below it a message does not change the language
UNSUPPORTED_PROBABILITY = 0.9  # among all languages, for a message in Latin script (Polish, Swedish)
FALLBACK = "en"


@dataclass(frozen=True)
class ReplyLanguage:
    """The reply's language, and the message's own when the assistant does not speak it."""

    code: str
    unsupported: str | None = None


def read_language(
    message: str, conversation_language: str | None = None, default: str = FALLBACK
) -> ReplyLanguage:
    """How to reply to ``message`` in a conversation held so far in ``conversation_language``.

    Language detectors guess on one or two words ("Et dimanche ?" reads as Italian), so a short or
    ambiguous message keeps the conversation's language; a message in a script none of the nine
    languages uses (Korean, Arabic, Russian...), or clearly in another language written in Latin
    letters (Polish, Turkish...), is answered in English.
    """
    text = message.strip()
    script = main_script(text)
    if script and script not in SUPPORTED_SCRIPTS:
        return ReplyLanguage(FALLBACK, identify(text, among_supported=False)[0])
    cjk = len(UNSPACED_CHARACTER.findall(text))
    long_enough = len(text.split()) >= MIN_WORDS or cjk >= MIN_CJK_CHARACTERS
    if script == "LATIN" and long_enough:
        language, probability = identify(text, among_supported=False)
        if language not in SUPPORTED_LANGUAGES and probability >= UNSUPPORTED_PROBABILITY:
            return ReplyLanguage(FALLBACK, language)
    if not long_enough:
        return ReplyLanguage(conversation_language or detect_language(text) or default)
    if conversation_language in ("ja", "zh") and not KANA_CHARACTER.search(text) and cjk:
        return ReplyLanguage(conversation_language)  # Chinese characters alone may be Japanese too
    language, probability = identify(text)
    if conversation_language and probability < SWITCH_PROBABILITY:
        return ReplyLanguage(conversation_language)
    return ReplyLanguage(language)


def reply_language(message: str, conversation_language: str | None = None, default: str = FALLBACK) -> str:
    """ISO 639-1 code of the reply (one of the nine languages)."""
    return read_language(message, conversation_language, default).code


def conversation_language(messages: Sequence[str]) -> str:
    """ISO 639-1 code of the reply to the last of the visitor's ``messages``, each read in the
    language of the ones before it."""
    language = None
    for message in messages or [""]:
        language = read_language(message, language).code
    return language or FALLBACK
