"""The widget's words, copied from ``data/app/labels.toml`` into ``visitor-widget.js``.

The widget is one plain file with no build step at run time, so it carries its labels. They are
written there by ``python -m widget.labels`` from the one table the visitor page reads too; a unit
test fails when the copy and the table differ.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from app_ui.labels import label_tables

WIDGET_FILE = Path(__file__).with_name("visitor-widget.js")
# The keys the widget shows; the rest of the table (console, dates…) stays out of the visitor's download.
WIDGET_KEYS = (
    "language_name",
    "title",
    "placeholder",
    "examples_intro",
    "examples",
    "new_conversation",
    "sources",
    "related",
    "open_page",
    "passage_in",
    "thinking",
    "kept",
    "error_empty_question",
    "error_question_too_long",
    "error_provider",
    "error_busy",
    "error_conversation_full",
    "error_other",
    "send_message",
    "assistant_message",
    "user_message",
    "answer_ready",
    "feedback_question",
    "helpful",
    "not_helpful",
    "feedback_comment",
    "feedback_send",
    "feedback_thanks",
    "widget_open",
    "widget_close",
    "widget_language",
)
_BLOCK = re.compile(r"(/\* labels:begin \*/).*?(/\* labels:end \*/)", re.DOTALL)


def widget_labels() -> dict[str, dict[str, Any]]:
    """Each table (languages and regional variants) reduced to the widget's keys."""
    return {
        name: {key: table[key] for key in WIDGET_KEYS if key in table}
        for name, table in label_tables().items()
    }


def labels_block() -> str:
    """The JavaScript object literal the widget carries between its ``labels`` markers: one line
    per table, compact (the visitor downloads it)."""
    lines = [
        f"    {json.dumps(name)}: {json.dumps(table, ensure_ascii=False, separators=(',', ':'))}"
        for name, table in widget_labels().items()
    ]
    return "{\n" + ",\n".join(lines) + "\n  }"


def embedded_block(script: str) -> str:
    """What ``script`` holds between its markers now."""
    match = _BLOCK.search(script)
    if match is None:
        raise ValueError("The widget file has no /* labels:begin */ … /* labels:end */ block.")
    return match.group(0)[len(match.group(1)) : -len(match.group(2))]


def main() -> int:
    """Rewrite the widget's labels from the table; say whether anything changed."""
    script = WIDGET_FILE.read_text(encoding="utf-8")
    try:
        current = embedded_block(script)
    except ValueError as error:
        print(f"{error} Restore it from git, then run python -m widget.labels again.", file=sys.stderr)
        return 1
    wanted = labels_block()
    if current == wanted:
        print(f"{WIDGET_FILE.name}: labels already up to date.")
        return 0
    WIDGET_FILE.write_text(_BLOCK.sub(lambda m: m.group(1) + wanted + m.group(2), script), encoding="utf-8")
    print(f"{WIDGET_FILE.name}: labels rewritten from {Path('data/app/labels.toml')}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
