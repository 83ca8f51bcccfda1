"""'Checked on 20 November 2026' under a web source, and 'Official answer, 1 March 2026' under an
operator's official answer, in the visitor's language (Babel dates)."""

from __future__ import annotations

import logging
import re
from datetime import UTC, date, datetime

import streamlit as st
from babel.dates import format_date

from app_ui.labels import Labels
from app_ui.visitor_view import VisitorSource
from rag.config import RagSettings
from rag.crawl.state import last_checked

logger = logging.getLogger(__name__)
OFFICIAL_ID = "official-"  # chunk ids of official answers (agents.official.store)
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Babel's "long" date per language; English as written in Britain and at the palace: day first.
BABEL_LOCALES = {"en": "en_GB", "pt": "pt_PT", "zh": "zh_Hans"}


@st.cache_data(ttl=300, show_spinner=False)
def checked_dates(index_dir: str, collection: str) -> dict[str, float]:
    """URL -> last check, read from the crawl state at most every five minutes."""
    try:
        return last_checked(RagSettings(index_dir=index_dir, collection=collection))
    except Exception as error:  # noqa: BLE001 - a date is a courtesy: the answer shows without it
        logger.warning("The crawl state could not be read for citation dates (%s).", type(error).__name__)
        return {}


def long_date(day: date, labels: Labels) -> str:
    locale = BABEL_LOCALES.get(labels.locale, labels.locale.replace("-", "_"))  # pt-BR -> pt_BR
    return format_date(day, format="long", locale=locale)


def checked_on(moment: float, labels: Labels) -> str:
    """The visitor's sentence for a check at ``moment``: "Checked on 20 November 2026"."""
    return labels.say("checked_on", date=long_date(datetime.fromtimestamp(moment, UTC).date(), labels))


def official_label(source: VisitorSource, labels: Labels) -> str | None:
    """ "Official answer, 1 March 2026" for a source that is an operator's official answer."""
    if not any(passage.chunk_id.startswith(OFFICIAL_ID) for passage in source.passages):
        return None
    found = ISO_DATE.search(source.title)
    return labels.say(
        "official_answer", date=long_date(date.fromisoformat(found.group()), labels) if found else ""
    )


def render_checked_on(source: VisitorSource, labels: Labels) -> None:
    """The caption under a web page's source: when the crawler last checked it."""
    url = source.url
    if not url or any(passage.chunk_id.startswith(OFFICIAL_ID) for passage in source.passages):
        return
    try:
        settings = RagSettings()
    except Exception:  # noqa: BLE001 - invalid settings: the page already says so elsewhere
        return
    moment = checked_dates(str(settings.index_dir), settings.collection).get(url)
    if moment is not None:
        st.caption(f":material/event_available: {checked_on(moment, labels)}")
