"""The settings a command's options ask for: index folder, collection, crawl rate."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rag.config import RagSettings


def settings_from(args: argparse.Namespace) -> RagSettings:
    """The settings, with what the command line gives over the environment and the defaults."""
    overrides: dict[str, Any] = {}
    if getattr(args, "index", None):
        overrides["index_dir"] = Path(args.index)
    for option in ("crawl_requests_per_second", "crawl_concurrency"):
        if getattr(args, option, None) is not None:
            overrides[option] = getattr(args, option)
    if getattr(args, "collection", None) and args.command in ("index", "crawl"):
        if len(args.collection) > 1:
            raise SystemExit(f"error: {args.command} writes one collection: give --collection once")
        overrides["collection"] = args.collection[0]
    return RagSettings(**overrides)
