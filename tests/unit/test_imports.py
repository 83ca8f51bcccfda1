"""Every module of the agent and the knowledge base imports on its own, first: a circular import
shows only when a module of the cycle is the first one imported."""

from __future__ import annotations

import subprocess
import sys

from rag.config import PROJECT_ROOT

SCRIPT = """
import importlib, pkgutil, sys
import agents, rag
names = sorted(
    m.name for p in (agents, rag) for m in pkgutil.walk_packages(p.__path__, p.__name__ + ".")
    if not m.name.endswith("__main__")
)
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m.split(".")[0] in {"agents", "rag"}]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ImportError as error:
        failed.append(f"{name}: {error}")
print(len(names))
print("\\n".join(failed))
"""


def test_every_module_imports_first() -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT
    )

    assert run.returncode == 0, run.stderr
    count, *failed = run.stdout.strip().split("\n")
    assert int(count) > 100 and failed == []
