"""The widget carries the visitor page's words: the copy in the script is the table's."""

from __future__ import annotations

from app_ui.labels import Labels, ui_languages
from widget.labels import WIDGET_FILE, WIDGET_KEYS, embedded_block, labels_block, widget_labels


def test_the_script_carries_the_labels_of_the_table() -> None:
    script = WIDGET_FILE.read_text(encoding="utf-8")
    assert embedded_block(script) == labels_block(), "run `python -m widget.labels` and commit the script"


def test_every_language_has_every_word_the_widget_shows() -> None:
    tables = widget_labels()
    for language in ui_languages():
        assert set(tables[language]) == set(WIDGET_KEYS), language
        assert Labels(language)["widget_open"] != Labels("en")["widget_open"] or language == "en"
