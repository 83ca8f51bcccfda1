"""A throwaway PostgreSQL cluster on 127.0.0.1 for tests and benchmarks: initdb in a temporary folder,
``pg_ctl start`` on a free port, stopped and deleted afterwards.

PostgreSQL refuses to run as root, so as root its commands run as the ``postgres`` user.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.local_server import free_port


def postgres_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (on PATH or Debian's), or None."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _as_postgres() -> list[str]:
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(
            f"{Path(command[len(_as_postgres())]).name} failed: {result.stderr.strip()[-500:]}"
        )


@contextmanager
def running_postgres(*, durable: bool = False) -> Iterator[str]:
    """A fresh cluster for the block; yields ``postgresql://postgres@127.0.0.1:PORT/postgres``.

    Args:
        durable: keep fsync on (benchmarks); tests switch it off for speed.
    """
    binaries = postgres_bin()
    if binaries is None:
        raise RuntimeError("PostgreSQL is not installed (initdb not found)")
    folder = Path(tempfile.mkdtemp(prefix="pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
    data, port = folder / "data", free_port()
    try:
        _run([*_as_postgres(), str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
              "-E", "UTF8", "--no-sync"])  # fmt: skip
        options = f"-h 127.0.0.1 -p {port} -k {folder} -c max_connections=200" + ("" if durable else " -F")
        _run([*_as_postgres(), str(binaries / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w",
              "-t", "60", "-o", options, "start"])  # fmt: skip
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            _run([*_as_postgres(), str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def create_database(server_url: str) -> str:
    """A new empty database on the server; its URL."""
    import psycopg

    name = f"db_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + f"/{name}"
