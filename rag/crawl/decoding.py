"""Undo a response's Content-Encoding as it streams, never holding more than a cap of decoded bytes.

httpx decodes each received piece whole, so 3 KB of stacked gzip can expand to gigabytes before
a size check runs. Here every stage (gzip, deflate, zstd; stacked in any order) writes its output
in pieces of at most ``PIECE_BYTES`` and counts them: the first byte past its cap stops it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any, Protocol

from rag.errors import RagError

PIECE_BYTES = 64 * 1024
GZIP_WBITS = zlib.MAX_WBITS | 16
DEFLATE_WBITS = zlib.MAX_WBITS


class BodyTooLarge(RagError):
    """The decoded body (or one stage of it) passed its cap; nothing more is decoded."""


class BodyEncodingError(RagError):
    """The body is in an encoding this crawler does not read, or is not valid in its own."""


class _Stage(Protocol):
    def write(self, data: bytes) -> None: ...


class _Sink:
    """The last stage: keeps the decoded bytes, up to ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.body = bytearray()

    def write(self, data: bytes) -> None:
        if len(self.body) + len(data) > self.limit:
            raise BodyTooLarge
        self.body.extend(data)


class _Counted:
    """Passes pieces on to ``target`` while their total stays within ``limit`` (intermediate stages)."""

    def __init__(self, target: _Stage, limit: int) -> None:
        self.target = target
        self.limit = limit
        self.total = 0

    def write(self, data: bytes) -> int:
        self.total += len(data)
        if self.total > self.limit:
            raise BodyTooLarge
        self.target.write(data)
        return len(data)


class _Zlib:
    """gzip or deflate: ``max_length`` bounds every piece, the rest of the input waits its turn."""

    def __init__(self, wbits: int, target: _Counted) -> None:
        self.wbits = wbits
        self.target = target
        self.decoder = zlib.decompressobj(wbits)
        self.first = True

    def write(self, data: bytes) -> None:
        try:
            while data:
                piece = self._decompress(data)
                data = self.decoder.unconsumed_tail
                if piece:
                    self.target.write(piece)
                if self.decoder.eof:  # another gzip member may follow (RFC 1952); else trailing junk
                    rest = self.decoder.unused_data
                    if self.wbits != GZIP_WBITS or not rest.startswith(b"\x1f\x8b"):
                        return
                    data, self.decoder = rest, zlib.decompressobj(self.wbits)
        except zlib.error as error:
            name = "gzip" if self.wbits == GZIP_WBITS else "deflate"
            raise BodyEncodingError(f"not valid {name} ({error})") from error

    def _decompress(self, data: bytes) -> bytes:
        if self.first and self.wbits == DEFLATE_WBITS:
            self.first = False
            try:
                return self.decoder.decompress(data, PIECE_BYTES)
            except zlib.error:  # servers send "deflate" both with and without the zlib header
                self.wbits = -zlib.MAX_WBITS
                self.decoder = zlib.decompressobj(self.wbits)
        return self.decoder.decompress(data, PIECE_BYTES)


class _Zstd:
    """zstd: the decompressor writes pieces of ``PIECE_BYTES`` to the next stage as it goes."""

    def __init__(self, target: _Counted) -> None:
        import zstandard

        self.error = zstandard.ZstdError
        self.writer = zstandard.ZstdDecompressor().stream_writer(
            target,  # type: ignore[arg-type]  # only write() is called
            write_size=PIECE_BYTES,
            write_return_read=True,
            closefd=False,
        )

    def write(self, data: bytes) -> None:
        try:
            self.writer.write(data)
        except self.error as error:
            raise BodyEncodingError(f"not valid zstd ({error})") from error


def _zstd_available() -> bool:
    try:
        import zstandard  # noqa: F401
    except ImportError:
        return False
    return True


STAGES: dict[str, Callable[[_Counted], Any]] = {
    "gzip": lambda target: _Zlib(GZIP_WBITS, target),
    "x-gzip": lambda target: _Zlib(GZIP_WBITS, target),
    "deflate": lambda target: _Zlib(DEFLATE_WBITS, target),
}
if _zstd_available():
    STAGES["zstd"] = _Zstd

ACCEPT_ENCODING = ", ".join(name for name in STAGES if name != "x-gzip")


class BoundedDecoder:
    """Feed raw body pieces; ``body`` holds at most ``limit`` decoded bytes, else BodyTooLarge.

    Each intermediate stage of stacked encodings is capped too (``stage_limit``): an inner stream
    of empty blocks expands to nothing at the end but could fill memory on the way.
    """

    def __init__(self, content_encoding: str, limit: int, stage_limit: int | None = None) -> None:
        names = [name.strip().lower() for name in content_encoding.split(",") if name.strip()]
        names = [name for name in names if name != "identity"]
        if unknown := [name for name in names if name not in STAGES]:
            raise BodyEncodingError(f"compressed as {', '.join(unknown)}, which this crawler does not read")
        self.sink = _Sink(limit)
        stage: _Stage = self.sink
        for name in names:  # the first encoding listed was applied first, so it is undone last
            stage = STAGES[name](_Counted(stage, stage_limit or 2 * limit + PIECE_BYTES))
        self.first = stage

    def feed(self, raw: bytes) -> None:
        self.first.write(raw)

    @property
    def body(self) -> bytes:
        return bytes(self.sink.body)
