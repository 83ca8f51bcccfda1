"""What the operator is told of the PostgreSQL server in AGENT_CHECKPOINT_URL: where it is, never its
credentials."""

from __future__ import annotations


def describe_postgres(url: str) -> str:
    """``PostgreSQL at host:port/db``: enough to find the server, nothing secret."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except Exception:  # noqa: BLE001 - any parse failure: say less rather than show the URL
        return "PostgreSQL (AGENT_CHECKPOINT_URL)"
    host, port, dbname = (
        parts.get("host") or "localhost",
        parts.get("port") or 5432,
        parts.get("dbname") or "",
    )
    return f"PostgreSQL at {host}:{port}/{dbname}"
