"""The crawl keeps to http(s) URLs on the start URL's host and under its allowed prefixes."""

from __future__ import annotations

import pytest

from rag.crawl.scope import CrawlInputError, CrawlScope, normalise_url

BASE = "https://site.example/fr/visite/page.html"


@pytest.mark.parametrize(
    ("link", "expected"),
    [
        ("horaires.html#jardins", "https://site.example/fr/visite/horaires.html"),
        ("../billets/", "https://site.example/fr/billets/"),
        ("/fr/./a/../b?x=1", "https://site.example/fr/b?x=1"),
        ("HTTPS://Site.Example:443/fr/", "https://site.example/fr/"),
        ("http://site.example:8080/fr/", "http://site.example:8080/fr/"),
    ],
)
def test_links_are_made_absolute_and_normalised(link: str, expected: str) -> None:
    assert normalise_url(link, base=BASE) == expected


@pytest.mark.parametrize(
    "link",
    [
        "javascript:alert(1)",
        "mailto:info@site.example",
        "file:///etc/passwd",
        "data:text/html,<script>",
        "ftp://site.example/file",
        "https://user:secret@site.example/",
        "http://site.example:99999/",
    ],
)
def test_other_schemes_credentials_and_bad_ports_are_never_followed(link: str) -> None:
    assert normalise_url(link, base=BASE) is None


def test_by_default_the_start_folder_and_below_are_in_scope() -> None:
    scope = CrawlScope.build(BASE)

    assert scope.prefixes == ("https://site.example/fr/visite/",)
    assert scope.allows("https://site.example/fr/visite/jardins.html")
    assert not scope.allows("https://site.example/en/visit/")
    assert not scope.allows("https://other.example/fr/visite/x.html")
    assert scope.on_host("https://site.example/sitemap.xml")


def test_allowed_prefixes_replace_the_default_and_may_be_relative() -> None:
    scope = CrawlScope.build("https://site.example/", ["/fr/", "https://site.example/en/visit"])

    assert scope.allows("https://site.example/fr/x") and scope.allows("https://site.example/en/visit/y")
    assert not scope.allows("https://site.example/de/")


@pytest.mark.parametrize(
    ("url", "allow"),
    [
        ("site.example", []),
        ("ftp://site.example/", []),
        ("https://site.example/", ["https://other.example/"]),
    ],
)
def test_unusable_arguments_are_refused_in_one_sentence(url: str, allow: list[str]) -> None:
    with pytest.raises(CrawlInputError, match=r"^[^\n]+\.$"):
        CrawlScope.build(url, allow)
