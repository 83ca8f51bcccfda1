"""The configuration table (docs/reference.md) renders as one table (a blank line inside would split it)."""

from __future__ import annotations

from tests.conftest import REPO_ROOT


def test_the_configuration_table_is_one_block_of_rows() -> None:
    lines = (REPO_ROOT / "docs" / "reference.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("## Configuration")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    rows = [i for i in range(start, end) if lines[i].startswith("|")]
    assert rows and rows == list(range(rows[0], rows[0] + len(rows)))
    assert lines[rows[1]].startswith("|---")  # the header's separator: rendered as a table
    assert any("`RAG_APP_INDEX_ROOTS`" in lines[i] for i in rows)
