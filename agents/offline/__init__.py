"""The built-in offline model: reads each node's brief and answers by extraction (see model.py).

The model is loaded on first use, so that modules the model itself reads (``phrases``) import
without it: ``agents.reading`` reads the phrases, and the model reads ``agents.reading``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agents.offline.model import MODEL_NAME, OfflineChatModel

__all__ = ["MODEL_NAME", "OfflineChatModel"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from agents.offline import model

        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
