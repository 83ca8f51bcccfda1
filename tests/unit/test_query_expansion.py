"""Glossary lookup and cross-language query expansion."""

from __future__ import annotations

from pathlib import Path

from rag.lexicon.glossary import DEFAULT_GLOSSARY, Concept, Glossary, load_glossary
from rag.query_expansion import expand_query


def make_glossary() -> Glossary:
    return Glossary(
        [
            Concept(
                {
                    "fr": ("horaires",),
                    "en": ("opening hours",),
                    "ja": ("営業時間",),
                    "de": ("offnungszeiten",),
                }
            ),
            Concept({"fr": ("visite guidee",), "en": ("tour",)}),
            Concept({"fr": ("billet", "tarif"), "en": ("ticket",), "zh": ("门票",)}),
        ]
    )


def test_translate_finds_a_latin_term_and_returns_target_terms() -> None:
    assert make_glossary().translate("What are the opening hours?", ["en"], "fr") == ["horaires"]


def test_translate_returns_every_target_term_of_a_concept() -> None:
    assert make_glossary().translate("one ticket please", ["en"], "fr") == ["billet", "tarif"]


def test_translate_requires_word_boundaries_for_latin_languages() -> None:
    assert make_glossary().translate("tourist information", ["en"], "fr") == []


def test_translate_matches_a_term_followed_by_punctuation() -> None:
    assert make_glossary().translate("Is there a tour?", ["en"], "fr") == ["visite guidee"]


def test_translate_folds_accents_and_case_of_the_query() -> None:
    assert make_glossary().translate("Öffnungszeiten", ["de"], "fr") == ["horaires"]


def test_translate_uses_substrings_for_japanese() -> None:
    assert make_glossary().translate("ヴェルサイユ宮殿の営業時間は?", ["ja"], "fr") == ["horaires"]


def test_translate_uses_substrings_for_chinese() -> None:
    assert make_glossary().translate("凡尔赛宫门票多少钱", ["zh"], "fr") == ["billet", "tarif"]


def test_translate_skips_the_target_language() -> None:
    assert make_glossary().translate("horaires", ["fr"], "fr") == []


def test_translate_lists_a_term_once() -> None:
    glossary = Glossary([Concept({"fr": ("horaires",), "en": ("opening hours", "hours")})])

    assert glossary.translate("opening hours", ["en"], "fr") == ["horaires"]


def test_load_reads_concepts_and_folds_accents(tmp_path: Path) -> None:
    path = tmp_path / "glossary.toml"
    path.write_text('[[concepts]]\nfr = ["Château"]\nen = ["palace"]\n', encoding="utf-8")

    glossary = Glossary.load(path)

    assert glossary.translate("Where is the palace?", ["en"], "fr") == ["chateau"]


def test_load_glossary_returns_none_for_a_missing_file(tmp_path: Path) -> None:
    assert load_glossary(tmp_path / "absent.toml") is None


def test_expand_query_is_unchanged_when_language_is_the_target() -> None:
    assert expand_query("horaires du château", "fr", "fr", make_glossary()) == "horaires du château"


def test_expand_query_is_unchanged_without_a_glossary() -> None:
    assert expand_query("opening hours", "en", "fr", None) == "opening hours"


def test_expand_query_is_unchanged_when_nothing_matches() -> None:
    assert expand_query("where is the toilet", "en", "fr", make_glossary()) == "where is the toilet"


def test_expand_query_appends_target_terms() -> None:
    assert expand_query("opening hours?", "en", "fr", make_glossary()) == "opening hours? horaires"


def test_expand_query_also_looks_up_english_terms_in_other_languages() -> None:
    expanded = expand_query("Wo kauft man ein ticket?", "de", "fr", make_glossary())

    assert expanded == "Wo kauft man ein ticket? billet tarif"


def test_shipped_glossary_maps_opening_hours_to_french() -> None:
    glossary = load_glossary()

    assert DEFAULT_GLOSSARY.exists()
    assert glossary is not None
    assert any("horaire" in term for term in glossary.translate("opening hours", ["en"], "fr"))


def _compound_glossary() -> Glossary:
    return Glossary(
        [
            Concept({"fr": ("carrosses",), "de": ("kutschen",), "nl": ("koetsen",), "en": ("coaches",)}),
            Concept({"fr": ("musee",), "de": ("museum",), "nl": ("museum",), "en": ("museum",)}),
            Concept({"fr": ("visite guidee",), "de": ("fuhrung",), "en": ("tour",)}),
            Concept({"fr": ("jardin",), "de": ("garten",), "en": ("garden",)}),
        ]
    )


def test_a_german_or_dutch_compound_of_two_terms_names_both() -> None:
    glossary = _compound_glossary()

    assert glossary.translate("Wann öffnet das Kutschenmuseum?", ["de"], "fr") == ["carrosses", "musee"]
    assert glossary.translate("Is het koetsenmuseum open?", ["nl"], "fr") == ["carrosses", "musee"]
    spans = [(start, end) for _, start, end in glossary.find("Die Gartenführung", ["de"])]
    assert spans == [(4, 10), (10, 17)]


def test_a_word_is_read_as_a_compound_only_in_german_and_dutch_and_only_of_two_terms() -> None:
    glossary = _compound_glossary()

    assert glossary.translate("the coachesmuseum", ["en"], "fr") == []
    assert glossary.translate("Das Kutschenhaus", ["de"], "fr") == []  # "haus" is no term


def _inflection_glossary() -> Glossary:
    return Glossary(
        [
            Concept({"fr": ("horaires",), "de": ("offnungszeit",), "nl": ("openingstijd",)}),
            Concept({"fr": ("dimanche",), "de": ("sonntag",), "nl": ("zondag",)}),
            Concept({"fr": ("superficie",), "de": ("grosse",)}),
            Concept({"fr": ("horaires",), "es": ("horario",)}),
        ]
    )


def test_a_german_or_dutch_term_of_seven_letters_or_more_is_read_with_an_inflection_ending() -> None:
    """The glossary holds one form; "-en", "-n", "-s" and "-e" (the endings that also link compounds)
    are read after it, in a compound's last part too. A shorter term's inflection is too often another
    word ("großen" is no "Größe"), and other languages keep their forms in the glossary."""
    glossary = _inflection_glossary()

    assert glossary.translate("Wat zijn de openingstijden?", ["nl"], "fr") == ["horaires"]
    assert glossary.translate("Die Öffnungszeiten bitte", ["de"], "fr") == ["horaires"]
    assert set(glossary.translate("Die Sonntagsöffnungszeiten?", ["de"], "fr")) == {"dimanche", "horaires"}
    assert glossary.translate("Im großen Park", ["de"], "fr") == []
    assert glossary.translate("¿Cuáles son los horarios?", ["es"], "fr") == []
