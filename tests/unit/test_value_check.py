"""The value check: every value an answer states must be in the passage it cites."""

from __future__ import annotations

from typing import get_args

import pytest

from agents.answer.value_check import check_values
from agents.answer.value_extract import ValueKind, extract_values
from rag.answer_types import answer_types
from rag.lexicon.folding import fold_accents

TICKETS = (
    "Le billet Château coûte 21 €, tarif réduit 13 €. Le château est ouvert de 9 h à 18 h 30, "
    "dernière entrée à 16 h. Fermé le 1er janvier, le 1er mai et le 25 décembre."
)
GARDENS = (
    "Le Grand Canal mesure 1\u202f670 mètres. La Galerie des Glaces compte 357 miroirs. "
    "Le parc s'étend sur 800 hectares."
)
CONTACT = "Standard : +33 1 30 83 78 00. Gratuit pour les moins de 26 ans. La visite guidée dure 1 h 30."
PASSAGES = {1: TICKETS, 2: GARDENS, 3: CONTACT}


def kept(answer: str, passages: dict[int, str] = PASSAGES, language: str = "en") -> bool:
    """Whether the answer comes back whole."""
    return check_values(answer, passages, language=language).text == answer


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("fr", "Le billet Château coûte 99 € [1]."),
        ("en", "The Palace ticket costs €99 [1]."),
        ("es", "La entrada al palacio cuesta 99 euros [1]."),
        ("de", "Das Schlossticket kostet 99 EUR [1]."),
        ("ja", "宮殿のチケットは99ユーロです[1]。"),
        ("zh", "宫殿门票99欧元[1]。"),
    ],
)
def test_an_invented_price_is_removed(language: str, answer: str) -> None:
    result = check_values(answer, PASSAGES, language=language)
    assert result.text == ""
    assert result.removed == [answer]
    assert not result.all_verified


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("fr", "La dernière entrée est à 16 h 05 [1]."),
        ("en", "Last entry is at 4:05 pm [1]."),
        ("de", "Letzter Einlass ist um 16:05 Uhr [1]."),
        ("it", "L'ultimo ingresso è alle 16.05 h [1]."),
        ("ja", "最終入場は16時5分です[1]。"),
    ],
)
def test_an_altered_time_is_removed(language: str, answer: str) -> None:
    assert check_values(answer, PASSAGES, language=language).removed == [answer]


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("en", "The palace opens at 9:00 [1]."),
        ("en", "It opens at 9 am and closes at 6:30 pm [1]."),
        ("ja", "開館は9時です[1]。"),
        ("zh", "开放时间为9点至18点30分[1]。"),
        ("de", "Geöffnet von 9 bis 18.30 Uhr [1]."),
        ("en", "It is closed on January 1 [1]."),
        ("es", "Cerrado el 1 de enero [1]."),
        ("de", "Am 1. Januar geschlossen [1]."),
        ("it", "Chiuso il 1 gennaio [1]."),
        ("nl", "Gesloten op 1 januari [1]."),
        ("pt", "Fechado em 1º de janeiro [1]."),
        ("ja", "1月1日は休館です[1]。"),
        ("en", "The Grand Canal is 1,670 m long [2]."),
        ("de", "Der Große Kanal ist 1.670 Meter lang [2]."),
        ("en", "A ticket costs €21 [1]."),
        ("fr", "Le billet coûte 21,00 EUR [1]."),
        ("en", "Call +33 1 30 83 78 00 [3]."),
        ("fr", "Appelez le 01 30 83 78 00 [3]."),
        ("en", "Admission is free under 26 years [3]."),
        ("ja", "26歳未満は無料です[3]。"),
        ("zh", "26岁以下免费[3]。"),
        ("en", "The guided tour takes 90 minutes [3]."),
        ("en", "The Hall of Mirrors has 357 mirrors [2]."),
    ],
)
def test_a_reformatted_value_is_kept(language: str, answer: str) -> None:
    result = check_values(answer, PASSAGES, language=language)
    assert result.text == answer
    assert result.all_verified and result.verdicts


def test_an_uncited_value_in_a_tool_result_is_kept() -> None:
    result = check_values("The RER C takes 40 minutes.", PASSAGES, tool_texts=["Trajet : RER C, 40 min."])
    assert result.text == "The RER C takes 40 minutes."
    assert result.verdicts[0].found_in_tool and result.verdicts[0].verified


def test_an_uncited_value_in_a_passage_is_kept() -> None:
    assert kept("The park covers 800 hectares.")


def test_an_uncited_value_found_nowhere_is_removed() -> None:
    result = check_values("Lunch at the café costs 15 €.", PASSAGES, tool_texts=["Trajet : 40 min."])
    assert result.removed == ["Lunch at the café costs 15 €."]
    assert "without a citation" in result.failures[0]


def test_a_value_found_only_in_a_passage_it_does_not_cite_is_removed() -> None:
    result = check_values("The Grand Canal is 1,670 m long [1].", PASSAGES)
    assert result.text == ""
    assert result.verdicts[0].found_in_passages == [2]
    assert "passage [1]" in result.failures[0] and "[2]" in result.failures[0]


@pytest.mark.parametrize("space", [" ", "\u00a0", "\u202f", "\u2009"])
def test_a_number_with_a_thin_space_is_never_cut_in_two(space: str) -> None:
    values = extract_values(f"Le Grand Canal mesure 1{space}670 mètres.")
    assert [(value.kind, value.key) for value in values] == [("distance", "1670 m")]


def test_a_number_cut_in_two_is_not_found_in_its_passage() -> None:
    assert check_values("Le Grand Canal mesure 670 mètres [2].", PASSAGES, language="fr").text == ""


def test_a_date_read_as_a_list_number_is_still_checked() -> None:
    assert check_values("2. Januar [1].", PASSAGES, language="de").text == ""
    assert check_values("1. Januar [1].", PASSAGES, language="de").text == "1. Januar [1]."


def test_a_sentence_split_never_cuts_a_value() -> None:  # the English splitter ends a sentence at "2."
    assert check_values("Geschlossen am 2. Januar [1].", PASSAGES, language="en").text == ""


def test_midnight_written_24_h_is_00_00() -> None:
    passages = {1: "Les jardins ferment à 24h les soirs de fête."}
    assert kept("The gardens close at 12:00 AM [1].", passages)


def test_a_sentence_without_values_is_kept_whatever_it_cites() -> None:
    assert kept("The Hall of Mirrors is a wonder of French art [1].")


def test_the_same_number_of_another_kind_is_not_a_match() -> None:
    assert not kept("The visit takes 21 minutes [1].")


def test_a_year_the_passage_does_not_give_is_removed() -> None:
    assert not kept("The palace is closed on January 1, 2031 [1].")


def test_a_count_is_compared_by_its_number() -> None:
    assert kept("The gallery holds 357 mirrors [2].")
    assert not kept("The gallery holds 400 mirrors [2].")


def test_a_range_states_both_ends() -> None:
    values = extract_values("Ouvert de 9 à 18 h 30.")
    assert [value.key for value in values] == ["09:00", "18:30"]


def test_a_range_end_the_passage_does_not_give_is_removed() -> None:
    assert not kept("Open from 8:00 to 18:30 [1].")


def test_citations_of_kept_sentences_are_left_intact() -> None:
    answer = "Tickets cost 21 € [1][2]. Entry is at 16 h 05 [1]. The canal is 1 670 m long [2, 3]."
    result = check_values(answer, PASSAGES)
    assert result.text == "Tickets cost 21 € [1][2]. The canal is 1 670 m long [2, 3]."


def test_markdown_structure_of_kept_lines_is_kept() -> None:
    answer = (
        "Here is what the sources say:\n\n"
        "**Price**: 21 € · 13 € [1]  \n"
        "**Hours**: 8:00 [1]\n\n"
        "- “Le Grand Canal mesure 1\u202f670 mètres.” [2]\n"
        "- “La visite guidée dure 2 h.” [3]\n"
        "- Standard: +33 1 30 83 78 00 [3]"
    )
    result = check_values(answer, PASSAGES)
    assert result.text == (
        "Here is what the sources say:\n\n"
        "**Price**: 21 € · 13 € [1]  \n\n"
        "- “Le Grand Canal mesure 1\u202f670 mètres.” [2]\n"
        "- Standard: +33 1 30 83 78 00 [3]"
    )
    assert result.removed == ["**Hours**: 8:00 [1]", "- “La visite guidée dure 2 h.” [3]"]


def test_a_quotation_is_checked_as_one_sentence() -> None:
    answer = "- « Le château ouvre à 9 h. Le billet coûte 30 €. » [1]\n- Fin."
    assert check_values(answer, PASSAGES, language="fr").text == "- Fin."


def test_a_label_stays_with_the_sentence_left_on_its_line() -> None:
    answer = "**Prix** : 99 € [1]. Tarif réduit : 13 € [1]."
    assert check_values(answer, PASSAGES, language="fr").text == "**Prix** : Tarif réduit : 13 € [1]."


def test_each_failure_names_the_value_and_the_cited_passage() -> None:
    result = check_values("Le billet coûte 99 € [1] et la dernière entrée est à 16 h 05 [1].", PASSAGES)
    assert result.failures == [
        'Sentence 1 states "99 €" (price 99 EUR) citing passage [1], which does not state it.',
        'Sentence 1 states "16 h 05" (hours 16:05) citing passage [1], which does not state it.',
    ]


def test_an_answer_whose_values_all_hold_is_returned_as_is() -> None:
    answer = "Ouvert de 9 h à 18 h 30 [1].\n\n\n- 357 miroirs [2]"
    result = check_values(answer, PASSAGES, language="fr")
    assert result.text == answer and result.removed == [] and result.all_verified


def test_value_kinds_are_those_of_the_answer_types() -> None:
    assert set(get_args(ValueKind)) == {kind.name for kind in answer_types()}


@pytest.mark.parametrize(
    "text",
    [
        "Ouvert de 9 h à 18 h 30",
        "Tarif : 21 €, gratuit le dimanche",
        "Le parc s'étend sur 800 hectares",
        "Le Grand Canal mesure 1 670 mètres",
        "Comptez 45 minutes de visite",
        "Tél. : 01 30 83 78 00",
        "Gratuit pour les moins de 26 ans",
        "Inauguré le 6 mai 1682",
    ],
)
def test_every_value_the_answer_types_see_is_read(text: str) -> None:
    seen = {
        kind.name for kind in answer_types() if kind.name != "count" and kind.value.search(fold_accents(text))
    }
    read = {kind for value in extract_values(text) for kind, _ in value.readings}
    assert seen and seen <= read


DISCOUNT = "Les groupes scolaires bénéficient de 30 % de réduction."


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("en", "School groups get a 50% discount [1]."),
        ("fr", "Les groupes scolaires ont 50 pour cent de réduction [1]."),
        ("de", "Schulgruppen erhalten 50 Prozent Rabatt [1]."),
        ("ja", "学校団体は50パーセント割引です[1]。"),
    ],
)
def test_an_invented_percentage_is_removed(language: str, answer: str) -> None:
    assert check_values(answer, {1: DISCOUNT}, language=language).removed == [answer]


@pytest.mark.parametrize(
    "answer", ["School groups get a 30% discount [1].", "Schulgruppen erhalten 30 Prozent Rabatt [1]."]
)
def test_a_percentage_the_passage_gives_is_kept_however_written(answer: str) -> None:
    assert kept(answer, {1: DISCOUNT})


@pytest.mark.parametrize("written", ["US$21", "21 $US", "USD 21", "CA$21", "R$ 21"])
def test_a_dollar_sign_with_its_country_is_a_price(written: str) -> None:
    [value] = extract_values(f"The ticket costs {written}.")
    assert value.kind == "price" and value.key.startswith("21 ")


def test_an_invented_price_in_us_dollars_is_removed() -> None:
    answer = "The Palace ticket costs US$99 [1]."
    assert check_values(answer, PASSAGES, language="en").removed == [answer]


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("fr", "Le billet Château coûte trente euros [1]."),
        ("en", "The Palace ticket costs thirty euros [1]."),
        ("de", "Das Schlossticket kostet dreißig Euro [1]."),
        ("es", "La entrada cuesta treinta euros [1]."),
        ("it", "Il biglietto costa trenta euro [1]."),
        ("pt", "O bilhete custa trinta euros [1]."),
        ("nl", "Het kaartje kost dertig euro [1]."),
        ("ja", "宮殿のチケットは三十ユーロです[1]。"),
        ("zh", "宫殿门票三十欧元[1]。"),
        ("en", "The palace opens at ten o'clock [1]."),
        ("de", "Das Schloss öffnet um zehn Uhr [1]."),
        ("ja", "宮殿は十時に開きます[1]。"),
        ("en", "The palace opened in seventeen eighty-nine [1]."),
        ("fr", "Le château a ouvert en mille sept cent quatre-vingt-neuf [1]."),
    ],
)
def test_an_invented_amount_time_or_year_in_words_is_removed(language: str, answer: str) -> None:
    assert check_values(answer, PASSAGES, language=language).removed == [answer]


@pytest.mark.parametrize(
    ("language", "answer"),
    [
        ("fr", "Le billet Château coûte vingt et un euros [1]."),
        ("en", "The Palace ticket costs twenty-one euros [1]."),
        ("de", "Das Schlossticket kostet einundzwanzig Euro [1]."),
        ("ja", "宮殿のチケットは二十一ユーロです[1]。"),
        ("en", "The palace opens at nine o'clock [1]."),
        ("es", "Los menores de veintiséis años entran gratis [3]."),
    ],
)
def test_an_amount_or_time_in_words_that_the_passage_gives_is_kept(language: str, answer: str) -> None:
    assert kept(answer, language=language)


def test_ordinary_words_that_spell_a_number_are_no_value() -> None:
    assert extract_values("One of the finest rooms, ten times larger.") == []
    assert extract_values("十分な時間があります。") == []
