"""py3langid's model, read in a tenth of the time: its file is an LZMA-compressed NumPy archive, and
decompressing it took 0.5 s of every process's first turn. The archive is decompressed once into the
tables folder (named by py3langid's version, so a new model is a new file) and read from there with
NumPy, pickles refused; a failure of any kind falls back to py3langid's own loader.
"""

from __future__ import annotations

import hashlib
import logging
import lzma
import os
import shutil
import tempfile
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from rag.lexicon.table_cache import CACHE_DIR

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

logger = logging.getLogger(__name__)


def load_identifier(folder: Path = CACHE_DIR) -> LanguageIdentifier:
    """py3langid's identifier over all its languages, probabilities normalised."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    source = MODEL_DIR / MODEL_FILE
    try:
        from py3langid.modelio import _to_array

        with np.load(_decompressed(source, folder), allow_pickle=False) as data:
            return LanguageIdentifier(
                np.asarray(data["ptc"]), np.asarray(data["pc"]), data["classes"].tolist(),
                _to_array(data["nextmove"]), data["out_feat"].tolist(), norm_probs=True,
                tk_row=_to_array(data["nextmove_row"]),
            )  # fmt: skip
    except Exception as error:  # noqa: BLE001 - any surprise of another version: the library's own way
        logger.info("py3langid's model read its own way (%s: %s).", type(error).__name__, error)
        return LanguageIdentifier.from_modelpath(source, norm_probs=True)


def _decompressed(source: Path, folder: Path) -> Path:
    """The decompressed copy of ``source`` in ``folder``, written now when absent (whole or not at
    all: another process may be reading it)."""
    key = hashlib.sha256(f"{source.name}\n{version('py3langid')}".encode()).hexdigest()[:16]
    path = folder / f"py3langid-{key}.npz"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, delete=False) as handle:
            try:
                with lzma.open(source) as src:
                    shutil.copyfileobj(src, handle, length=1 << 20)
            except BaseException:
                Path(handle.name).unlink(missing_ok=True)  # no half-written copy left behind
                raise
        os.replace(handle.name, path)
    return path
