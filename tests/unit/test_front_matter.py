"""A guide's front matter: the official page it summarises, never indexed as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.config import DEFAULT_CORPUS
from rag.front_matter import FrontMatter, split_front_matter
from rag.loaders import load_sources

URL = "https://www.chateauversailles.fr/preparer-ma-visite/billets-tarifs"
BODY = "# Tickets\n\nThe passport ticket costs thirty two euros.\n"


def test_the_url_is_read_and_the_block_is_not_text() -> None:
    front = split_front_matter(f"---\nurl: {URL}\n---\n{BODY}")

    assert (front.url, front.text, front.problem) == (URL, BODY, None)


def test_a_guide_without_front_matter_is_unchanged() -> None:
    front = split_front_matter(BODY)

    assert (front.url, front.text, front.problem) == ("", BODY, None)


def test_a_rule_at_the_top_is_not_front_matter() -> None:
    text = "---\n\n# Tickets\n\nText.\n"

    assert split_front_matter(text) == FrontMatter("", text, None)


@pytest.mark.parametrize(
    ("block", "problem"),
    [
        ("url: [unclosed\n", "not valid YAML"),
        ("- a list\n", "not a list of 'key: value' lines"),
        ("url: ftp://example.org/file\n", "not an http(s) address"),
        ("url: javascript:alert(1)\n", "not an http(s) address"),
        ("url: 42\n", "not an http(s) address"),
    ],
)
def test_a_malformed_block_is_a_problem_and_the_text_is_kept(block: str, problem: str) -> None:
    front = split_front_matter(f"---\n{block}---\n{BODY}")

    assert front.url == "" and front.text == BODY
    assert front.problem is not None and problem in front.problem


def test_an_unclosed_block_is_a_problem_and_read_as_text() -> None:
    front = split_front_matter(f"---\nurl: {URL}\n{BODY}")

    assert front.url == "" and front.problem is not None and "closing" in front.problem


def test_the_loader_gives_the_url_and_warns_once_naming_a_malformed_file(tmp_path: Path) -> None:
    (tmp_path / "good.md").write_text(f"---\nurl: {URL}\ntitle: ignored\n---\n{BODY}", encoding="utf-8")
    (tmp_path / "bad.md").write_text("---\nurl: a: b\n---\n# Trains\n\nTake the RER C.\n", encoding="utf-8")
    (tmp_path / "plain.md").write_text("# Gardens\n\nOpen every day.\n", encoding="utf-8")

    loaded = load_sources([tmp_path])

    by_source = {document.source: document for document in loaded.documents}
    assert by_source["good.md"].url == URL and "url:" not in by_source["good.md"].text
    assert by_source["good.md"].title == "Tickets"
    assert by_source["bad.md"].url == "" and by_source["bad.md"].text.startswith("# Trains")
    assert by_source["plain.md"].url == "" and by_source["plain.md"].source == "plain.md"
    assert [str(w) for w in loaded.warnings] == [
        f"{tmp_path / 'bad.md'}: front matter is not valid YAML (line 2): indexed without a link"
    ]
    assert loaded.issues == []


def test_every_bundled_guide_names_its_official_page() -> None:
    loaded = load_sources([DEFAULT_CORPUS])

    assert loaded.warnings == [] and len(loaded.documents) == 20
    hosts = {document.source: document.url.split("/")[2] for document in loaded.documents}
    assert set(hosts.values()) <= {"www.chateauversailles.fr", "en.chateauversailles.fr"}, hosts
    assert not any("url:" in document.text for document in loaded.documents)
