"""``python -m agents.commands.bytecode``: compile, once at install, the modules a start imports.

The install skips compiling (``pip --no-compile``: compiling every installed file, most of them never
imported, took a third of it), and where Python may not write bytecode as it imports
(``PYTHONDONTWRITEBYTECODE``, a read-only install) every start compiled about 2,300 modules again:
3 s of a fresh ``python -m agents ask``. This imports what the doors import (the CLI, the service, the
servers' graph, the app's pages, the indexer) and writes the bytecode of exactly those modules, as a
normal install leaves it; Python reads it whatever that setting says, and recompiles in memory a
source edited since.
"""

from __future__ import annotations

import importlib
import logging
import py_compile
import sys
from pathlib import Path

# What the doors import: the CLI, the service, the servers' graph, the app's pages and the indexer.
ENTRY_MODULES = (
    "agents.cli",
    "agents.service",
    "agents.serving.graph",
    "agents.serving.served_graph",
    "agents.serving.guard",
    "app_ui.visitor",
    "app_ui.shared_service",
    "rag.cli",
)


def imported_sources(modules: tuple[str, ...] = ENTRY_MODULES) -> list[Path]:
    """The source files of every module that importing ``modules`` loads (those that fail to import,
    an optional extra not installed, are skipped)."""
    logging.disable(logging.WARNING)  # the app's pages say they run outside Streamlit: true, and no news
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - an extra not installed, or a door that fails to import:
            continue  # its modules compile on use, as before; an install never fails for this
    logging.disable(logging.NOTSET)
    files = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    return sorted(Path(file) for file in files if file and file.endswith(".py"))


def compile_sources(sources: list[Path]) -> int:
    """Write the bytecode of ``sources`` beside them (``__pycache__``); how many were written."""
    written = 0
    for source in sources:
        try:
            py_compile.compile(str(source), doraise=True)
            written += 1
        except (py_compile.PyCompileError, OSError):  # a read-only file: that module compiles as before
            continue
    return written


def main() -> int:
    sources = imported_sources()
    print(f"Bytecode written for {compile_sources(sources)} of {len(sources)} modules a start imports.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
