"""The built-in offline model: a chat model like any other, answering by extraction (see model.py).
Outside this package only its face is imported: the model, and the examples it reads turns by."""

from agents.offline.model import MODEL_NAME, OfflineChatModel
from agents.offline.reading.intent import first_examples

__all__ = ["MODEL_NAME", "OfflineChatModel", "first_examples"]
