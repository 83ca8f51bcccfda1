"""Nothing leaves the machine by default: ``make api`` switches off ``langgraph dev``'s usage analytics."""

from __future__ import annotations

import re

from tests.conftest import REPO_ROOT


def test_make_api_starts_langgraph_dev_without_analytics() -> None:
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^api:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)

    assert recipe is not None, "the Makefile has no api target"
    [start] = [line for line in recipe.group(1).splitlines() if "langgraph dev" in line]
    assert "LANGGRAPH_CLI_NO_ANALYTICS=1 " in start
