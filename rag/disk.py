"""Telling a full disk from a damaged index: the fix differs (free space, never a rebuild)."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
# What SQLite, Chroma's Rust core and hnswlib say when a write finds no room, errno lost on the way.
FULL_MESSAGES = (
    "no space left on device",
    "database or disk is full",
    "disk is full",
    "disk quota exceeded",
    "os error 28",
    "os error 122",
    "sqlite_full",
)
NEARLY_FULL_BYTES = 1 << 20  # an unexplained write failure with less room than this is a full disk


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and every exception it was raised from or during, each once."""
    seen: list[BaseException] = []
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or any(current is known for known in seen):
            continue
        seen.append(current)
        pending.extend([current.__cause__, current.__context__])
    return seen


def is_disk_full(error: BaseException, folder: Path | None = None) -> bool:
    """Whether ``error`` (or anything in its chain) means the disk has no room left.

    With ``folder``, a write error that names no cause counts too when the folder's disk has
    less than a megabyte free (hnswlib only says it could not write its file).
    """
    for link in _chain(error):
        if isinstance(link, OSError) and link.errno in FULL_ERRNOS:
            return True
        if any(marker in str(link).lower() for marker in FULL_MESSAGES):
            return True
    free = free_bytes(folder) if folder is not None else None
    return free is not None and free < NEARLY_FULL_BYTES


def free_bytes(folder: Path) -> int | None:
    """Free bytes on the disk holding ``folder`` (its nearest existing parent), None if unknown."""
    for candidate in (folder, *folder.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return None


def readable_size(size: int) -> str:
    """``size`` bytes as a short human figure (``512 B``, ``3.2 MB``)."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} GB"


def where_full(folder: Path | None) -> str:
    """``the disk holding <folder> is full (12 KB free)``."""
    if folder is None:
        return "the disk holding the index is full"
    free = free_bytes(folder)
    room = f" ({readable_size(free)} free)" if free is not None else ""
    return f"the disk holding {folder} is full{room}"
