"""The agent service shared by every browser session, built once per configuration.

It brings in LangGraph, Chroma and the embedder: the pages import it when they first need it, so
that they paint before those load.
"""

from __future__ import annotations

import logging

import streamlit as st

from agents.service import AgentService, configuration_key
from app_ui import support
from app_ui.support import SERVICE_ERRORS, error_message
from rag.redact import redact_text

logger = logging.getLogger(__name__)


@st.cache_resource(show_spinner=False)
def get_service(key: str) -> AgentService:
    """One service per configuration, shared by every browser session (threads keep them apart);
    what a first answer needs in every language loads in the background (:mod:`agents.runtime.warmup`),
    and a question asked before it is done waits for it."""
    service = support.build_service()
    service.warm_up(background=True)
    return service


def load_service() -> tuple[AgentService | None, str | None]:
    """The shared service, or the sentence saying why there is none."""
    try:
        return get_service(configuration_key()), None
    except SERVICE_ERRORS as error:
        return None, error_message(error)
    except Exception as error:  # noqa: BLE001 - a page never shows a traceback, which could hold secrets
        reason = redact_text(f"{type(error).__name__}: {error}")
        logger.error("The assistant could not be started: %s", reason)
        return None, f"The assistant could not be started ({reason}): see the app's log and the settings."
