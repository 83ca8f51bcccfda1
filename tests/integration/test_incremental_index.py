"""Re-indexing touches only the chunks of documents that changed or disappeared."""

from __future__ import annotations

from pathlib import Path

from rag.config import RagSettings
from rag.indexer import index_corpus
from rag.retriever import HybridRetriever
from rag.store import ChunkStore, open_client
from tests.conftest import HashingEmbedder

EDITED = "plan-your-visit/tickets.en.md"
EDITED_WORDS = "passport ticket thirty two euros"


def _ids_by_source(settings: RagSettings) -> dict[str, set[str]]:
    store = ChunkStore.open(open_client(settings), settings.collection)
    by_source: dict[str, set[str]] = {}
    for chunk_id, meta in store.all_metadata().items():
        by_source.setdefault(meta["source"], set()).add(chunk_id)
    return by_source


def test_changing_one_document_replaces_only_its_chunks(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    before = _ids_by_source(settings)
    path = corpus / EDITED
    path.write_text(
        path.read_text(encoding="utf-8").replace("thirty two euros", "twenty one euros"), encoding="utf-8"
    )

    report = index_corpus([corpus], settings, embedder=fake_embedder)

    after = _ids_by_source(settings)
    assert {source: ids for source, ids in after.items() if source != EDITED} == {
        source: ids for source, ids in before.items() if source != EDITED
    }
    assert after[EDITED] != before[EDITED]
    assert report.embedded == len(after[EDITED] - before[EDITED]) > 0
    assert report.deleted == len(before[EDITED] - after[EDITED]) > 0


def test_a_file_no_longer_listed_keeps_its_chunks_unless_pruning(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    before = _ids_by_source(settings)
    (corpus / EDITED).unlink()

    kept = index_corpus([corpus], settings, embedder=fake_embedder)

    assert _ids_by_source(settings) == before
    assert kept.deleted == 0 and kept.kept_unlisted == len(before[EDITED])
    assert HybridRetriever(settings, embedder=fake_embedder).search(EDITED_WORDS, k=3)  # still searchable

    pruned = index_corpus([corpus], settings, embedder=fake_embedder, prune=True)

    assert _ids_by_source(settings) == {source: ids for source, ids in before.items() if source != EDITED}
    assert pruned.deleted == len(before[EDITED]) and pruned.kept_unlisted == 0
    assert pruned.embedded == 0


def test_pruning_keeps_the_chunks_of_a_file_that_failed_to_load(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    before = _ids_by_source(settings)
    (corpus / EDITED).write_bytes(b"# Broken\n\xff\xfe not text")

    report = index_corpus([corpus], settings, embedder=fake_embedder, prune=True)

    assert _ids_by_source(settings) == before
    assert report.kept_unlisted == len(before[EDITED]) and report.issues


def test_a_copy_under_a_new_name_only_adds_a_source(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    index_corpus([corpus], settings, embedder=fake_embedder)
    ids = {i for ids in _ids_by_source(settings).values() for i in ids}
    (corpus / "copy.md").write_text((corpus / EDITED).read_text(encoding="utf-8"), encoding="utf-8")

    report = index_corpus([corpus], settings, embedder=fake_embedder)

    store = ChunkStore.open(open_client(settings), settings.collection)
    metadata = store.all_metadata()
    assert set(metadata) == ids
    assert report.embedded == 0
    assert report.metadata_updated > 0
    assert any(sorted(meta["sources"]) == ["copy.md", EDITED] for meta in metadata.values())


def test_a_guide_given_an_official_page_gets_it_without_re_embedding_and_loses_it_when_removed(
    corpus: Path, settings: RagSettings, fake_embedder: HashingEmbedder
) -> None:
    url = "https://www.chateauversailles.fr/preparer-ma-visite/billets-tarifs"
    index_corpus([corpus], settings, embedder=fake_embedder)  # an index built before guides had links
    path = corpus / EDITED
    text = path.read_text(encoding="utf-8")
    path.write_text(f"---\nurl: {url}\n---\n{text}", encoding="utf-8")

    linked = index_corpus([corpus], settings, embedder=fake_embedder)

    assert linked.embedded == 0 and linked.deleted == 0 and linked.metadata_updated > 0
    hit = HybridRetriever(settings, embedder=fake_embedder).search(EDITED_WORDS, k=1)[0]
    assert (hit.source, hit.url, hit.page) == (EDITED, url, url)
    assert "url:" not in hit.text

    path.write_text(text, encoding="utf-8")
    unlinked = index_corpus([corpus], settings, embedder=fake_embedder)

    assert unlinked.embedded == 0 and unlinked.metadata_updated == linked.metadata_updated
    stored = ChunkStore.open(open_client(settings), settings.collection).all_metadata()
    assert not any("url" in meta for meta in stored.values())
    assert index_corpus([corpus], settings, embedder=fake_embedder).metadata_updated == 0
