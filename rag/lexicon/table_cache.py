"""Word tables derived from a library, built once and kept on disk, so a process loads them in
milliseconds instead of rebuilding them on its first turn (the spelled numbers: about 2 s).

A table's file is named by what it is built from (the table's name, its inputs, and the versions of
the packages that make it): a new version of num2words makes a new file, never a stale read.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from rag.config import PROJECT_ROOT

logger = logging.getLogger(__name__)

CACHE_DIR = PROJECT_ROOT / ".rag_index" / "tables"


def cached_table(
    name: str, inputs: Sequence[str], packages: Sequence[str], build: Callable[[], dict[str, int]],
    folder: Path | None = None,
) -> dict[str, int]:  # fmt: skip
    """The table ``build`` makes, read from its file when one was written for the same ``inputs``
    and ``packages``' versions; else built now and written (a read-only checkout only builds)."""
    path = (folder or CACHE_DIR) / f"{name}-{_key(inputs, packages)}.json"
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(table, dict) and all(isinstance(v, int) for v in table.values()):
            return table
    except (OSError, ValueError):
        pass  # absent or unreadable: built again below
    table = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False) as handle:
            json.dump(table, handle, ensure_ascii=False)
        os.replace(handle.name, path)  # whole or not at all: another process may be reading it
    except OSError as error:
        logger.warning("Table %s not cached in %s: %s", name, path.parent, error)
    return table


def _key(inputs: Sequence[str], packages: Sequence[str]) -> str:
    versions = []
    for package in packages:
        try:
            versions.append(f"{package}={version(package)}")
        except PackageNotFoundError:
            versions.append(package)
    return hashlib.sha256("\n".join([*inputs, *versions]).encode("utf-8")).hexdigest()[:16]
