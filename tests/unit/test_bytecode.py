"""The install's bytecode step: it finds the sources a start imports and writes their bytecode, which
Python then reads even where it may not write bytecode itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from agents.commands.bytecode import compile_sources, imported_sources


def test_the_sources_a_start_imports_include_the_doors_and_their_libraries() -> None:
    sources = {path.as_posix() for path in imported_sources(("agents.cli", "agents.service"))}
    assert any(path.endswith("agents/cli.py") for path in sources)
    assert any(path.endswith("agents/service.py") for path in sources)
    assert any("/langgraph/" in path for path in sources)


def test_bytecode_written_once_is_read_where_python_may_not_write_it(tmp_path: Path) -> None:
    module = tmp_path / "visitor_module.py"
    module.write_text("ANSWER = 42\n", encoding="utf-8")
    assert compile_sources([module, tmp_path / "missing.py"]) == 1
    stat = module.stat()
    module.write_text("ANSWER = 43\n", encoding="utf-8")  # same size; the old time put back below
    os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    run = subprocess.run(  # -B: this Python writes no bytecode; it still reads what is there
        [sys.executable, "-B", "-c", "import visitor_module; print(visitor_module.ANSWER)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.strip() == "42"  # the compiled module, not the source
