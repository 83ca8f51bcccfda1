"""Aegra killed mid-answer (a crash, an OOM kill) and started again: the conversation takes its next
question; and the running server deletes conversations past their retention by itself, with no cron.

One Aegra on the session's PostgreSQL, killed once and started again for the module (issue 48).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import psycopg
import pytest
from langgraph_sdk import get_client

from tests.conftest import BundledIndex
from tests.postgres_server import create_database
from tests.serving_servers import aegra_process, offline_agent_env

pytestmark = pytest.mark.slow


class Restarted(NamedTuple):
    """The server started again, and what the killed one left."""

    url: str
    database: str
    headers: dict[str, str]
    thread_id: str
    killed_status: str  # the thread's status once the first server was dead


def _ask(question: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": question}]}


def _row(database: str, query: str, *values: object) -> Any:
    with psycopg.connect(database, autocommit=True) as connection:
        row = connection.execute(query, values).fetchone()
    return row[0] if row else None


async def _kill_mid_answer(url: str, headers: dict[str, str], kill: Any) -> str:
    """Start a streamed answer and kill the server at its first word; the thread's id."""
    client = get_client(url=url, headers=headers)
    thread_id = str((await client.threads.create())["thread_id"])
    try:
        async for part in client.runs.stream(
            thread_id, "visitor", input=_ask("Quels sont les horaires ?"), stream_mode="messages-tuple"
        ):
            if part.event == "messages":
                kill()
    except Exception:  # noqa: BLE001 - the server is gone mid-stream: that is the point
        pass
    return thread_id


@pytest.fixture(scope="module")
def restarted(
    postgres_server: str, bundled_index: BundledIndex, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Restarted]:
    folder = tmp_path_factory.mktemp("aegra-restart")
    database = create_database(postgres_server)
    env = offline_agent_env(
        bundled_index, folder, AGENT_CHECKPOINT_URL=database, AGENT_OFFLINE_WORD_SECONDS="0.05",
        AGENT_API_UPKEEP_SECONDS="1",
    )  # fmt: skip
    headers = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
    with (folder / "server.log").open("wb") as output:
        with aegra_process(env, database, output) as (url, server):
            thread_id = asyncio.run(_kill_mid_answer(url, headers, server.kill))
            server.wait(timeout=30)
        status = _row(database, "SELECT status FROM thread WHERE thread_id = %s", thread_id)
        with aegra_process(env, database, output) as (url, _):
            yield Restarted(url, database, headers, thread_id, status)


async def _status_once_settled(client: Any, thread_id: str) -> str:
    for _ in range(50):
        status = str((await client.threads.get(thread_id))["status"])
        if status != "busy":
            return status
        await asyncio.sleep(0.2)
    return status


def test_aegra_killed_mid_answer_and_restarted_takes_the_conversations_next_question(
    restarted: Restarted,
) -> None:
    async def next_question() -> tuple[str, dict[str, Any]]:
        client = get_client(url=restarted.url, headers=restarted.headers)
        status = await _status_once_settled(client, restarted.thread_id)
        answer = await client.runs.wait(
            restarted.thread_id, "visitor", input=_ask("Combien coûte le billet ?")
        )
        return status, dict(answer)  # type: ignore[arg-type]

    status, answer = asyncio.run(next_question())

    assert restarted.killed_status == "busy"  # the kill came mid-answer
    assert status == "idle"
    assert answer["reply"]["kind"] == "answered" and answer["reply"]["text"]
    killed_runs = _row(
        restarted.database,
        "SELECT count(*) FROM runs WHERE thread_id = %s AND status = 'error'",
        restarted.thread_id,
    )
    assert killed_runs == 1  # the killed run is marked failed, not left running


def test_the_server_deletes_a_conversation_unused_past_the_retention_by_itself(restarted: Restarted) -> None:
    async def two_conversations() -> tuple[str, str]:
        client = get_client(url=restarted.url, headers=restarted.headers)
        old, recent = [str((await client.threads.create())["thread_id"]) for _ in range(2)]
        for thread_id in (old, recent):
            await client.runs.wait(thread_id, "visitor", input=_ask("Les chiens sont-ils admis ?"))
        return old, recent

    old, recent = asyncio.run(two_conversations())
    database = restarted.database
    runs = [_row(database, "SELECT run_id FROM runs WHERE thread_id = %s", old)]
    with psycopg.connect(database, autocommit=True) as connection:  # unused for 100 days
        connection.execute(
            "UPDATE thread SET updated_at = now() - interval '100 days' WHERE thread_id = %s", (old,)
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _row(
        database, "SELECT count(*) FROM thread WHERE thread_id = %s", old
    ):
        time.sleep(0.5)

    left = {
        table: _row(database, f"SELECT count(*) FROM {table} WHERE thread_id = %s", old)
        for table in ("thread", "runs", "checkpoints", "checkpoint_blobs", "checkpoint_writes")
    }
    assert left == dict.fromkeys(left, 0)
    assert _row(database, "SELECT count(*) FROM run_events WHERE run_id = ANY(%s)", runs) == 0
    assert _row(database, "SELECT count(*) FROM thread WHERE thread_id = %s", recent) == 1
    assert _row(database, "SELECT count(*) FROM checkpoints WHERE thread_id = %s", recent) > 0
