"""Sitemaps, sitemap indexes and robots.txt are read safely: they come from the crawled site."""

from __future__ import annotations

import gzip

import pytest

from rag.crawl.sitemaps import SitemapError, parse_sitemap, robot_token, robots_rules

URLSET = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://site.example/a.html </loc><lastmod>2026-11-01</lastmod></url>
  <url><loc>https://site.example/b.html</loc></url>
</urlset>"""


def test_a_urlset_lists_its_pages() -> None:
    assert parse_sitemap(URLSET, 10_000).pages == [
        "https://site.example/a.html",
        "https://site.example/b.html",
    ]


def test_a_sitemap_index_lists_its_child_sitemaps() -> None:
    index = b"<sitemapindex><sitemap><loc>https://site.example/s1.xml</loc></sitemap></sitemapindex>"

    parsed = parse_sitemap(index, 10_000)

    assert parsed.children == ["https://site.example/s1.xml"] and parsed.pages == []


def test_a_gzip_sitemap_is_read_but_may_not_expand_past_the_cap() -> None:
    assert len(parse_sitemap(gzip.compress(URLSET), 10_000).pages) == 2
    with pytest.raises(SitemapError, match="expands past"):
        parse_sitemap(gzip.compress(b" " * 50_000 + URLSET), 10_000)


def test_entities_are_not_expanded() -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY a "https://evil.example/">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><urlset><url><loc>&b;</loc></url></urlset>'
    )

    assert parse_sitemap(bomb, 10_000).pages == []


@pytest.mark.parametrize("content", [b"<html><body>Not found</body></html>", b"not xml at all", b""])
def test_anything_else_is_a_sitemap_error(content: bytes) -> None:
    with pytest.raises(SitemapError):
        parse_sitemap(content, 10_000)


def test_robots_rules_disallow_paths_and_name_sitemaps() -> None:
    rules = robots_rules(
        "User-agent: *\nDisallow: /private/\nCrawl-delay: 3\nSitemap: https://site.example/sitemap.xml\n"
    )
    token = robot_token("VersaillesVisitorAssistant/0.1 (knowledge-base crawler)")

    assert token == "VersaillesVisitorAssistant"
    assert not rules.can_fetch(token, "https://site.example/private/staff.html")
    assert rules.can_fetch(token, "https://site.example/visit/hours.html")
    assert rules.crawl_delay(token) == 3
    assert rules.site_maps() == ["https://site.example/sitemap.xml"]


def test_a_group_for_our_user_agent_wins_over_the_default_group() -> None:
    rules = robots_rules("User-agent: VersaillesVisitorAssistant\nDisallow: /\n\nUser-agent: *\nDisallow:\n")

    assert not rules.can_fetch("VersaillesVisitorAssistant", "https://site.example/a.html")
    assert rules.can_fetch("OtherBot", "https://site.example/a.html")
