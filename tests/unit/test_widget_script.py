"""The widget's pure functions, run in Node beside the Python functions they copy, on the same inputs.

The widget (``widget/visitor-widget.js``) is plain JavaScript with no build step, so it cannot
import the citation pattern or the title cleaning: this test keeps the two copies in step.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from typing import Any

import pytest

from agents.answer.citations import group_numbers, iter_groups, rewrite_citations, unfinished_citation
from app_ui.visitor_view import clean_title
from rag.crawl.scope import is_web
from widget.labels import WIDGET_FILE

TITLES = [
    "134- FAQ_Horaires.md",
    "guides › 7- FAQ › 134-FAQ_Horaires.md",
    "Le Hameau de la Reine",
    "01 Galerie des Glaces.txt",
    "1789 Revolution",
    "3.5 hectares of gardens",
    "12 ›  Tarifs  › page.html",
    "42",
    "  spaced\tout  title ",
    "宮殿の開館時間",
]
STREAMED = [
    "Le château ouvre à 9 h [3].",
    "Le château ouvre à 9 h [3",
    "Le château ouvre à 9 h [3, 4",
    "Ouvert [3, 4; 7][9] tous les jours.",
    "Un tableau [sans numéro] reste.",
    "Prix : 21 € [12] et 18 € [2][5]",
    "Texte [",
]
ADDRESSES = [
    "https://www.chateauversailles.fr/preparer-ma-visite",
    "http://example.org/a b",
    "javascript:alert(1)",
    "data:text/html,<b>x</b>",
    "guides/7- FAQ/134-FAQ_Horaires.md",
    "ftp://example.org/file",
    "https://",
    "",
]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is absent: CI installs it with npm for the browser tests.")
        pytest.skip("node is absent")
    return node


def _run_pure_functions(inputs: dict[str, list[str]]) -> dict[str, Any]:
    source = WIDGET_FILE.read_text(encoding="utf-8")
    match = re.search(r"/\* pure:begin \*/(.*?)/\* pure:end \*/", source, re.DOTALL)
    assert match, "the widget lost its /* pure:begin */ … /* pure:end */ markers"
    program = (
        match.group(1)
        + f"\nconst inputs = {json.dumps(inputs)};\n"
        + """console.log(JSON.stringify({
  titles: inputs.titles.map(cleanTitle),
  streamed: inputs.streamed.map(streamedText),
  web: inputs.addresses.map((address) => Boolean(webUrl(address))),
  groups: inputs.streamed.map((text) =>
    [...text.matchAll(CITATION_GROUP)].map((m) => m[0].match(/\\d+/g).map(Number))),
}));"""
    )
    done = subprocess.run([_node(), "-e", program], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def widget() -> dict[str, Any]:
    return _run_pure_functions({"titles": TITLES, "streamed": STREAMED, "addresses": ADDRESSES})


def test_titles_are_cleaned_as_the_visitor_page_cleans_them(widget: dict[str, Any]) -> None:
    assert widget["titles"] == [clean_title(title) for title in TITLES]


def test_a_streamed_answer_shows_no_citation_and_holds_back_an_unfinished_one(widget: dict[str, Any]) -> None:
    def python(text: str) -> str:
        cut = unfinished_citation(text)
        return rewrite_citations(text if cut is None else text[:cut], lambda number: None)

    assert widget["streamed"] == [python(text) for text in STREAMED]
    assert all("[3" not in text for text in widget["streamed"])


def test_citation_groups_are_read_as_the_agent_writes_them(widget: dict[str, Any]) -> None:
    assert widget["groups"] == [[group_numbers(match) for match in iter_groups(text)] for text in STREAMED]


def test_only_http_pages_become_links(widget: dict[str, Any]) -> None:
    assert widget["web"] == [is_web(address) for address in ADDRESSES]
    assert widget["web"][0] and not any(widget["web"][2:5])
