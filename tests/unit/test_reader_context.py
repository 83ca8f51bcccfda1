"""The reader credits a sentence with what the sentence before it in its section names, at half
weight, as it credits its passage's headings: an answer often follows the sentence naming its
subject ("The Passeport + show ticket covers the estate. It opens the Palace at 9:30.")."""

from __future__ import annotations

from agents.answer.sentences import Candidate, needs_of, stems
from agents.offline.reader import need_coverage


def candidate(text: str, label: str, position: int, number: int = 1) -> Candidate:
    return Candidate(number, text, label, "en", stems(text, "en"), frozenset(), "", 1.0, position)


def test_a_need_met_only_by_the_sentence_before_counts_half() -> None:
    pool = [
        candidate("The Passeport and show ticket covers the whole estate.", "Tickets", 0),
        candidate("It opens the palace doors at 9:30.", "Tickets", 1),
        candidate("The palace doors close at 18:30.", "Hours", 2, number=2),
    ]
    needs = needs_of([], ["show", "palace"], "en")
    alone = need_coverage(needs, pool)
    read_in_context = need_coverage(needs, pool, pool)
    assert read_in_context[1] > alone[1]
    assert read_in_context[1] > read_in_context[2]  # the same words, no subject before them
    assert read_in_context[2] == alone[2]  # another section's sentence lends nothing


def test_a_sentence_meeting_no_need_itself_gets_nothing_from_the_one_before() -> None:
    pool = [
        candidate("The Passeport and show ticket covers the whole estate.", "Tickets", 0),
        candidate("Book ahead in summer.", "Tickets", 1),
    ]
    needs = needs_of([], ["show", "palace"], "en")
    assert need_coverage(needs, pool, pool)[1] == 0.0
