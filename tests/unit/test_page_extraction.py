"""The main text of a page, without its menu and footer, with its title, language and date."""

from __future__ import annotations

from rag.crawl.extraction import extract_page
from tests.local_site import visitor_page

PARAGRAPHS = [
    "The palace opens at nine in the morning and closes at half past six in the evening, except Mondays.",
    "The gardens open every day at seven and close at dusk; the musical fountains play on weekends.",
]


def test_menus_and_footers_are_dropped_and_the_facts_kept() -> None:
    html = visitor_page("Opening hours", PARAGRAPHS, links=["/visit/tickets.html", "/private/staff.html"])

    page = extract_page(html.encode("utf-8"), "https://site.example/visit/hours.html")

    assert page is not None
    assert "closes at half past six" in page.text and "musical fountains" in page.text
    for debris in ("Menu 0", "Write to us", "Legal notice", "All rights reserved"):
        assert debris not in page.text
    assert page.title == "Opening hours"
    assert page.language == "en" and page.date == "2026-11-01"
    assert page.text.startswith("# Opening hours")  # headings kept as Markdown for chunking


def test_the_page_charset_is_honoured() -> None:
    html = visitor_page("Horaires", ["Le château ouvre à neuf heures et ferme à dix-huit heures trente."] * 2)
    latin = html.replace('charset="utf-8"', 'charset="iso-8859-1"').encode("iso-8859-1")

    page = extract_page(latin, "https://site.example/fr/horaires.html")

    assert page is not None and "Le château ouvre" in page.text


def test_without_a_declared_language_it_is_detected() -> None:
    html = visitor_page("Horaires", ["Le château ouvre à neuf heures et ferme à dix-huit heures trente."] * 3)

    page = extract_page(html.replace(' lang="en"', "").encode("utf-8"), "https://site.example/fr/")

    assert page is not None and page.language == "fr"


def test_a_page_of_menus_alone_gives_none() -> None:
    html = visitor_page("Empty", [], links=["/a.html", "/b.html", "/c.html"]).replace("<h1>Empty</h1>", "")

    assert extract_page(html.encode("utf-8"), "https://site.example/empty.html") is None
