"""Which folders the app may index: only those under configured roots, symbolic links resolved."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rag.errors import RagError


class PathNotAllowedError(RagError, ValueError):
    """A path outside the folders the app may index; nothing was indexed or removed."""


class AllowedRoots:
    """Folders under which indexing from the app is allowed (the CLI is not confined)."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = [Path(root).resolve() for root in roots]

    def contains(self, path: Path) -> bool:
        """Whether ``path``, every symbolic link resolved, lies under one of the roots."""
        resolved = Path(path).resolve()
        return any(resolved == root or resolved.is_relative_to(root) for root in self.roots)

    def check(self, path: Path) -> Path:
        """``path`` resolved, or :class:`PathNotAllowedError` naming the roots (never a path's content)."""
        if not self.contains(path):
            allowed = ", ".join(str(root) for root in self.roots)
            raise PathNotAllowedError(
                f"{path} is outside the folders the app may index ({allowed}): nothing was indexed or "
                "removed; an operator can add a folder to RAG_APP_INDEX_ROOTS or index it with "
                "python -m rag index."
            )
        return Path(path).resolve()
