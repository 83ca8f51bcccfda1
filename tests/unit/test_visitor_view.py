"""Sources as a visitor reads them: renumbered in reading order, one per source, clean titles."""

from __future__ import annotations

import re

import pytest

from agents.answer.compose import compose_answer
from app_ui.labels import Labels, regional_variants, ui_language, ui_languages
from app_ui.visitor_view import clean_title, visitor_answer
from rag.passage import Passage

PAGE = "https://www.chateauversailles.fr/planifier/horaires"
GUIDE = "guides/7- FAQ/2- FAQ Accès Services/134-FAQ_Horaires.md"


def _passage(number: int, url: str, title: str, section: str = "") -> Passage:
    return Passage(
        chunk_id=f"c{number}",
        number=number,
        title=title,
        headings=section,
        source=url,
        text=f"Passage {number}.",
    )


def test_citations_follow_reading_order_and_one_source_keeps_one_number() -> None:
    evidence = [
        _passage(3, GUIDE, "134- FAQ Horaires + jours"),
        _passage(4, PAGE, "Horaires", "Château"),
        _passage(9, PAGE, "Horaires", "Jardins"),
        _passage(10, "https://example.org/parc", "Parc"),
    ]

    reply = compose_answer(
        "Ouvert à 9 h [4]. Fermé le lundi [3][9]. Le parc [10] et encore [4].", evidence
    ).answer
    view = visitor_answer(reply)

    assert view.text == "Ouvert à 9 h [1]. Fermé le lundi [2][1]. Le parc [3] et encore [1]."
    assert [(s.number, s.title, s.url) for s in view.sources] == [
        (1, "Horaires", PAGE),
        (2, "FAQ Horaires + jours", None),
        (3, "Parc", "https://example.org/parc"),
    ]
    assert [p.passage for p in view.sources[0].passages] == [4, 9]
    assert [p.section for p in view.sources[0].passages] == ["Château", "Jardins"]
    assert view.numbers == {4: 1, 3: 2, 9: 1, 10: 3}


def test_a_citation_of_no_known_source_is_dropped_and_repeats_in_a_group_merge() -> None:
    evidence = [_passage(2, PAGE, "Horaires"), _passage(5, PAGE, "Horaires")]

    view = visitor_answer(compose_answer("Ouvert [2][5][7].", evidence).answer)

    assert view.text == "Ouvert [1]."
    assert len(view.sources) == 1 and len(view.sources[0].passages) == 2


def test_a_source_that_is_not_a_web_page_has_no_link_but_keeps_its_location_for_operators() -> None:
    view = visitor_answer(compose_answer("Voir [1].", [_passage(1, "javascript:alert(1)", "x.md")]).answer)

    assert view.sources[0].url is None and view.sources[0].location == "javascript:alert(1)"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("134- FAQ Horaires + jours", "FAQ Horaires + jours"),
        ("02 › passeport + balade à vélo", "passeport + balade à vélo"),
        ("7- FAQ › 2- FAQ Accès Services", "FAQ › FAQ Accès Services"),
        ("FAQ_Horaires.md", "FAQ Horaires"),
        ("1. Introduction", "Introduction"),
        ("14 juillet", "14 juillet"),
        ("1789 Revolution", "1789 Revolution"),
        ("3.5 hectares of gardens", "3.5 hectares of gardens"),
        ("2024", "2024"),
    ],
)
def test_titles_lose_ordering_prefixes_underscores_and_extensions_only(raw: str, clean: str) -> None:
    assert clean_title(raw) == clean


def test_every_language_has_every_label_with_the_same_placeholders() -> None:
    english = Labels("en")
    keys = set(english._own)
    assert sorted(ui_languages()) == sorted(["en", "fr", "es", "de", "it", "pt", "nl", "ja", "zh"])
    for language in ui_languages():
        labels = Labels(language)
        assert set(labels._own) == keys, language
        for key in keys:
            placeholders = set(re.findall(r"\{(\w+)\}", str(english[key])))
            assert set(re.findall(r"\{(\w+)\}", str(labels[key]))) == placeholders, (language, key)
        assert len(labels["examples"]) == 3


def test_the_page_language_is_the_last_questions_then_the_browsers_then_english() -> None:
    assert ui_language("de-DE") == "de"
    assert ui_language("ja", "fr") == "fr"
    assert ui_language("pt_BR") == "pt"
    assert ui_language("ko-KR") == "en" and ui_language(None) == "en"
    assert ui_language("en-US", "ko") == "en"


def test_a_declined_answer_lists_its_passages_as_related_pages_not_as_sources() -> None:
    evidence = [_passage(2, PAGE, "Horaires", "Château"), _passage(5, GUIDE, "134- FAQ Horaires + jours")]
    composed = compose_answer("Pas dans la base. Le plus proche : “…” [5], “…” [2].", evidence).answer

    declined = visitor_answer(composed.model_copy(update={"kind": "not_found", "related": [1, 2]}))
    answered = visitor_answer(composed)

    assert declined.related and not answered.related
    assert Labels("fr")["related"] != Labels("fr")["sources"]
    assert all(Labels(code)["related"] != Labels("en")["related"] for code in ui_languages() if code != "en")


@pytest.mark.parametrize(
    ("official", "shown"),
    [
        ("https://www.chateauversailles.fr/preparer-ma-visite/billets-tarifs", True),
        ("javascript:alert(1)", False),  # only http(s) links, as everywhere
    ],
)
def test_a_guide_with_an_official_page_links_to_it_and_keeps_its_path_for_the_operator(
    official: str, shown: bool
) -> None:
    guide = _passage(1, "plan-your-visit/tickets-and-prices.en.md", "Tickets and prices")
    guide.url = official

    view = visitor_answer(compose_answer("The passport costs 32 euros [1].", [guide]).answer)

    assert view.sources[0].url == (official if shown else None)
    assert view.sources[0].site == ("chateauversailles.fr" if shown else "")
    assert view.sources[0].location == "plan-your-visit/tickets-and-prices.en.md"


def test_a_regional_table_holds_only_known_labels_with_the_same_placeholders() -> None:
    english = Labels("en")
    assert regional_variants() == ["pt-BR"]
    for variant in regional_variants():
        language = variant.split("-")[0]
        labels = Labels(language, variant)
        assert labels.locale == variant and labels.language == language in ui_languages()
        assert set(labels._regional) <= set(english._own), variant
        for key in labels._regional:
            placeholders = set(re.findall(r"\{(\w+)\}", str(english[key])))
            assert set(re.findall(r"\{(\w+)\}", str(labels[key]))) == placeholders, (variant, key)


@pytest.mark.parametrize("browser", ["pt-BR", "pt_br", "PT-br"])
def test_a_brazilian_browser_reads_brazilian_words_over_european_ones(browser: str) -> None:
    brazilian, european = Labels(ui_language(browser), browser), Labels("pt")

    assert ui_language(browser) == "pt"  # the reply language is unchanged
    assert brazilian.locale == "pt-BR" and european.locale == "pt"
    assert "trem" in brazilian["examples"][2] and "comboio" in european["examples"][2]
    assert brazilian["title"] == european["title"]  # a word both write alike comes from [pt]
    assert brazilian["sources"] == european["sources"]


@pytest.mark.parametrize(
    ("language", "browser", "locale"),
    [
        ("pt", "pt-PT", "pt"),  # no table for that region: the language's own
        ("fr", "pt-BR", "fr"),  # a question in French: the browser's region is not French
        ("zh", "zh-Hans-CN", "zh"),
        ("pt", None, "pt"),
    ],
)
def test_a_region_without_its_own_table_reads_its_language(
    language: str, browser: str | None, locale: str
) -> None:
    assert Labels(language, browser).locale == locale
