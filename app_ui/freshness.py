"""'Checked on 20 November 2026' under a web source, in the visitor's language (Babel dates)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import streamlit as st
from babel.dates import format_date

from app_ui.labels import Labels

logger = logging.getLogger(__name__)
# Babel's "long" date per language; English as written in Britain and at the palace: day first.
BABEL_LOCALES = {"en": "en_GB", "pt": "pt_PT", "zh": "zh_Hans"}


@st.cache_data(ttl=300, show_spinner=False)
def checked_dates(index_dir: str, collection: str) -> dict[str, float]:
    """URL -> last check, read from the crawl state at most every five minutes."""
    from agents.insights.freshness import last_checked
    from rag.config import RagSettings

    try:
        return last_checked(RagSettings(index_dir=index_dir, collection=collection))
    except Exception as error:  # noqa: BLE001 - a date is a courtesy: the answer shows without it
        logger.warning("The crawl state could not be read for citation dates (%s).", type(error).__name__)
        return {}


def checked_on(moment: float, labels: Labels) -> str:
    """The visitor's sentence for a check at ``moment``: "Checked on 20 November 2026"."""
    day = datetime.fromtimestamp(moment, UTC).date()
    locale = BABEL_LOCALES.get(labels.language, labels.language)
    return labels.say("checked_on", date=format_date(day, format="long", locale=locale))


def render_checked_on(url: str | None, labels: Labels) -> None:
    """The caption under a web source, when the crawler has checked that page."""
    if not url:
        return
    from rag.config import RagSettings

    try:
        settings = RagSettings()
    except Exception:  # noqa: BLE001 - invalid settings: the page already says so elsewhere
        return
    moment = checked_dates(str(settings.index_dir), settings.collection).get(url)
    if moment is not None:
        st.caption(f":material/event_available: {checked_on(moment, labels)}")
