"""A rebuild beside the live collection: built under another name, swapped in only when complete."""

from __future__ import annotations

import logging
import shutil
from typing import Any

from rag.config import RagSettings, location_of
from rag.snapshot import replace_folder, snapshot_folder
from rag.store import ChunkStore, DiskFullError, full_disk

logger = logging.getLogger(__name__)

# The rebuild is written under the first name and the old collection set aside under the second
# while they swap: until then searches read the old collection whole.
REBUILD_SUFFIX = "--rebuild"
PREVIOUS_SUFFIX = "--previous"


def staging_settings(settings: RagSettings) -> RagSettings:
    """The settings that write the rebuild beside the collection."""
    return settings.model_copy(update={"collection": f"{settings.collection}{REBUILD_SUFFIX}"})


def rebuild_stopped_sentence(settings: RagSettings, old: ChunkStore | None) -> str:
    """A rebuild stopped by a full disk: nothing changed, and a rebuild needs room for two copies."""
    kept = "nothing was changed"
    if old is not None:
        kept = f"the index collection {settings.collection!r} is unchanged"
        try:
            kept += f" ({old.count()} chunks) and still answers searches"
        except DiskFullError:
            kept += " and still answers searches"
    return (
        f"{full_disk(settings)}: the rebuild stopped and its partial copy was removed, {kept}; free "
        "some space (a rebuild needs room for a second copy of the index), then run the same command again."
    )


def collection_named(client: Any, name: str) -> Any | None:
    """The collection called ``name``, or None."""
    from chromadb.errors import NotFoundError

    try:
        return client.get_collection(name, embedding_function=None)
    except (NotFoundError, ValueError):
        return None


def discard(client: Any, settings: RagSettings) -> None:
    """Drop a collection and its lexical snapshot (a rebuild's staging copy)."""
    drop_collection(client, settings.collection)
    shutil.rmtree(snapshot_folder(settings.index_dir, location_of(settings), settings.collection), True)


def restore_previous(client: Any, name: str) -> None:
    """Finish a swap a crash interrupted: the set-aside collection comes back if none replaced it."""
    previous = collection_named(client, f"{name}{PREVIOUS_SUFFIX}")
    if previous is None:
        return
    if collection_named(client, name) is None:
        logger.warning("Restoring collection %s set aside by an interrupted rebuild.", name)
        previous.modify(name=name)
    else:
        drop_collection(client, previous.name)


def swap_in(client: Any, staging: RagSettings, settings: RagSettings) -> None:
    """Rename the complete staging collection to the collection's name, the old one set aside
    first and dropped last; its lexical snapshot follows."""
    name, previous_name = settings.collection, f"{settings.collection}{PREVIOUS_SUFFIX}"
    old = collection_named(client, name)
    if old is not None:
        old.modify(name=previous_name)
    try:
        client.get_collection(staging.collection, embedding_function=None).modify(name=name)
    except BaseException:
        if old is not None:
            old.modify(name=name)
        raise
    location = location_of(settings)
    built = snapshot_folder(settings.index_dir, location, staging.collection)
    if built.exists():
        built.parent.mkdir(parents=True, exist_ok=True)
        replace_folder(built, snapshot_folder(settings.index_dir, location, name))
    if old is not None:
        drop_collection(client, previous_name)


def drop_collection(client: Any, name: str) -> None:
    """Drop ``name`` if it exists."""
    try:
        client.delete_collection(name)
    except Exception as error:  # noqa: BLE001 - chroma raises several types for "absent"
        logger.debug("No collection %s to drop: %s", name, error)
