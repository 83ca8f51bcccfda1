"""The built-in offline model: reads each node's brief and answers by extraction (see model.py)."""

from agents.offline.model import MODEL_NAME, OfflineChatModel

__all__ = ["MODEL_NAME", "OfflineChatModel"]
