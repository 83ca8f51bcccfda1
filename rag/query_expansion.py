"""Cross-language query expansion from the visitor-vocabulary glossary (rag.lexicon.glossary).

BM25 over a French corpus cannot match "opening hours" or "Öffnungszeiten". Each glossary concept
lists how visitors say it in several languages; a concept found in the query adds its terms in the
corpus' language to the lexical query. The original words stay (names of places match as is).
"""

from __future__ import annotations

from rag.lexicon.glossary import Glossary


def expand_query(query: str, language: str, target: str, glossary: Glossary | None) -> str:
    """``query`` plus the ``target``-language terms of the concepts it mentions."""
    if glossary is None or not language or language == target:
        return query
    sources = [language] if language == "en" else [language, "en"]
    terms = glossary.translate(query, sources, target)
    return f"{query} {' '.join(terms)}" if terms else query
