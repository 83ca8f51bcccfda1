"""The base of the errors the ``agents`` package raises; what a user is shown is decided in
:mod:`rag.errors` (``USER_ERRORS``, ``error_sentence``), the same for the CLIs and the app."""

from __future__ import annotations

from rag.errors import UserFacingError


class AgentError(UserFacingError):
    """Base of the errors the ``agents`` package raises (providers, stores, tools, question files)."""
