"""py3langid's model read from a decompressed copy kept in the tables folder: the same identifier as
the library's own loader, the copy written once, and the library's loader when the copy is unusable."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.language_model import load_identifier

TEXTS = [
    "Quels sont les horaires du château ?", "How much is a ticket for the gardens?",
    "¿Se puede hacer un pícnic en el parque?", "Wie viel kostet der Eintritt?",
    "Il parco è gratuito la domenica?", "Os jardins são gratuitos?", "Mag mijn hond mee?",
    "宮殿は何時に開きますか？", "花园几点关门？", "Czy mogę wejść z psem?",
]  # fmt: skip


def _library() -> object:
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)


def test_the_copy_classifies_as_the_librarys_loader_and_is_written_once(tmp_path: Path) -> None:
    expected = [_library().classify(text) for text in TEXTS]  # type: ignore[attr-defined]
    first = load_identifier(tmp_path)
    (copy,) = tmp_path.glob("py3langid-*.npz")
    written = copy.stat().st_mtime_ns
    second = load_identifier(tmp_path)

    assert [first.classify(text) for text in TEXTS] == expected
    assert [second.classify(text) for text in TEXTS] == expected
    assert copy.stat().st_mtime_ns == written


def test_an_unusable_copy_falls_back_to_the_librarys_loader(tmp_path: Path) -> None:
    load_identifier(tmp_path)
    (copy,) = tmp_path.glob("py3langid-*.npz")
    copy.write_bytes(b"not an archive")

    assert load_identifier(tmp_path).classify(TEXTS[0]) == pytest.approx(_library().classify(TEXTS[0]))  # type: ignore[attr-defined]
