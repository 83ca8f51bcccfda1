"""The built-in offline model: a chat model like any other, answering by extraction (see model.py)."""

from agents.offline.model import MODEL_NAME, OfflineChatModel

__all__ = ["MODEL_NAME", "OfflineChatModel"]
