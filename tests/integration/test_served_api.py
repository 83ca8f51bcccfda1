"""The agent served the LangGraph way, called with the official client (langgraph-sdk) as a web page
would: against ``langgraph dev`` (``make api``) and against Aegra on a throwaway PostgreSQL cluster.

Each server starts once for the module, with the offline model (no key) over the bundled corpus; both
start at once.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient

from agents.config import AgentSettings
from agents.insights.store import QuestionLog
from agents.service import MAX_QUESTION_CHARS
from tests.conftest import BundledIndex
from tests.postgres_server import create_database
from tests.serving_servers import aegra, enter_together, langgraph_dev, offline_agent_env

pytestmark = pytest.mark.slow

PAGE_ORIGIN = "http://127.0.0.1:8080"  # the museum page of the tests (langgraph dev's CORS_ALLOW_ORIGINS)
AEGRA_ORIGIN = "https://www.example-museum.org"  # the origin aegra.json ships with
RATE_LIMIT = 40  # requests per visitor and minute: more than a test makes with one token
# New conversations per client address and minute: more than the module opens from 127.0.0.1. The
# servers trust 127.0.0.1 as their proxy, so a test names its own client in X-Forwarded-For.
CONVERSATIONS_PER_ADDRESS = 60
TURN_CAP = 2  # questions per conversation: the follow-up test asks two
PASSEPORT = "Combien coûte le billet Passeport ?"


class Served:
    """A running server, where its questions log and its own log are, and its database (Aegra's)."""

    def __init__(
        self, name: str, url: str, origin: str, questions: QuestionLog, log: Path, database: str | None = None
    ) -> None:
        self.name, self.url, self.origin, self.questions, self.log = name, url, origin, questions, log
        self.database = database


@pytest.fixture(scope="module")
def servers(
    request: pytest.FixtureRequest,
    bundled_index: BundledIndex,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Served | str]]:
    """Both servers, started at once, then each asked one question at once: a server's start and
    its first answer (the embedder loaded, the agent's vocabularies compiled) each keep one core busy
    for seconds.

    Aegra needs PostgreSQL: without it (never in CI) its entry is the reason its tests are skipped.
    """
    dev, production = tmp_path_factory.mktemp("langgraph-dev"), tmp_path_factory.mktemp("aegra")
    env = {
        "AGENT_API_RATE_LIMIT": f"{RATE_LIMIT}/minute",
        "AGENT_API_ADDRESS_CONVERSATION_LIMIT": f"{CONVERSATIONS_PER_ADDRESS}/minute",
        "AGENT_API_ADDRESS_RUN_LIMIT": "1000/minute",  # the module's questions all come from 127.0.0.1
        "AGENT_API_TRUSTED_PROXIES": "127.0.0.1",
        "AGENT_MAX_TURNS_PER_CONVERSATION": str(TURN_CAP),
    }
    dev_env = offline_agent_env(bundled_index, dev, CORS_ALLOW_ORIGINS=PAGE_ORIGIN, **env)
    dev_questions = QuestionLog.for_settings(
        AgentSettings(_env_file=None, checkpoint_path=dev / "threads.sqlite")
    )
    found: dict[str, Served | str] = {}
    with ExitStack() as stack:
        starting = {
            "langgraph dev": langgraph_dev(dev_env, stack.enter_context((dev / "server.log").open("wb")))
        }
        try:
            database = create_database(request.getfixturevalue("postgres_server"))
        except pytest.skip.Exception as absent:
            found["aegra"] = str(absent)
        else:  # the questions log beside Aegra's threads
            aegra_env = offline_agent_env(bundled_index, production, AGENT_CHECKPOINT_URL=database, **env)
            aegra_output = stack.enter_context((production / "server.log").open("wb"))
            starting["aegra"] = aegra(aegra_env, database, aegra_output)
            aegra_questions = QuestionLog.for_settings(AgentSettings(_env_file=None, checkpoint_url=database))
        urls = enter_together(stack, starting)
        found["langgraph dev"] = Served(
            "langgraph dev", urls["langgraph dev"], PAGE_ORIGIN, dev_questions, dev / "server.log"
        )
        if "aegra" in urls:
            found["aegra"] = Served(
                "aegra", urls["aegra"], AEGRA_ORIGIN, aegra_questions, production / "server.log", database
            )
        asyncio.run(first_answers([server for server in found.values() if isinstance(server, Served)]))
        yield found


@pytest.fixture(scope="module", params=["langgraph dev", "aegra"])
def served(request: pytest.FixtureRequest, servers: dict[str, Served | str]) -> Served:
    server = servers[request.param]
    if isinstance(server, str):
        pytest.skip(server)
    return server


async def first_answers(servers: list[Served]) -> None:
    """One visitor question to each server, all at once."""

    async def first_answer(served: Served) -> None:
        client = visitor(served)
        thread = await client.threads.create()
        await client.runs.wait(thread["thread_id"], "visitor", input=ask("Quels sont les horaires ?"))

    await asyncio.gather(*(first_answer(served) for served in servers))


def token_header() -> dict[str, str]:
    """A fresh visitor token, as the widget draws one per browser."""
    return {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}


def visitor(served: Served, headers: dict[str, str] | None = None) -> LangGraphClient:
    """The official client, for one visitor."""
    return get_client(url=served.url, headers=headers or token_header())


def ask(question: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": question}]}


async def streamed_turn(client: LangGraphClient, thread_id: str, question: str) -> tuple[int, dict[str, Any]]:
    """Stream one run: the number of answer-token events, then the thread's values."""
    tokens = 0
    async for part in client.runs.stream(
        thread_id, "visitor", input=ask(question), stream_mode=["messages-tuple", "values"]
    ):
        if part.event == "messages":
            tokens += 1
        assert part.event != "error", part.data
    state = await client.threads.get_state(thread_id)
    return tokens, state["values"]


def test_a_visitor_streams_an_answer_with_sources_then_asks_a_follow_up(served: Served) -> None:
    async def conversation() -> tuple[str, list[tuple[int, dict[str, Any]]], int]:
        client = visitor(served)
        thread = await client.threads.create()
        first = await streamed_turn(client, thread["thread_id"], PASSEPORT)
        second = await streamed_turn(
            client, thread["thread_id"], "Les chiens sont-ils admis dans les jardins ?"
        )
        checkpoints = len(await client.threads.get_history(thread["thread_id"], limit=100))
        return thread["thread_id"], [first, second], checkpoints

    thread_id, turns, checkpoints = asyncio.run(conversation())

    (tokens, first), (_, second) = turns
    assert tokens > 0  # the answer arrived as a stream, not in one piece
    reply = first["reply"]
    assert first["language"] == "fr" and reply["kind"] == "answered"
    assert "32 €" in reply["text"]
    assert reply["citations"] and all(c["number"] >= 1 for c in reply["citations"])
    assert any((c["url"] or c["source"]).startswith("https://") for c in reply["citations"])
    # the follow-up ran on the same thread: both questions are in its history, the answer is new
    humans = [m for m in second["messages"] if m["type"] == "human"]
    assert len(humans) == 2
    assert "chien" in second["reply"]["text"].lower()
    assert second["turn_id"] and second["turn_id"] != first["turn_id"]
    logged = served.questions.thread_turns(thread_id)
    assert [turn.id for turn in logged] == [first["turn_id"], second["turn_id"]]  # once each, in order
    if served.name == "aegra":  # a turn is saved when it ends (langgraph dev: as the request asks)
        assert checkpoints == 2


def test_a_second_question_on_a_busy_thread_is_refused_and_the_first_is_answered(served: Served) -> None:
    async def two_questions() -> tuple[str, int, dict[str, Any]]:
        client = visitor(served)
        thread_id = (await client.threads.create())["thread_id"]
        first = await client.runs.create(thread_id, "visitor", input=ask(PASSEPORT))
        second = await _status(_drain(client.runs.stream(thread_id, "visitor", input=ask("Et un enfant ?"))))
        await client.runs.join(thread_id, first["run_id"])
        return thread_id, second, (await client.threads.get_state(thread_id))["values"]

    thread_id, second, values = asyncio.run(two_questions())

    assert second == 409  # the widget tells the visitor to wait
    assert [m["content"] for m in values["messages"] if m["type"] == "human"] == [PASSEPORT]
    assert "32 €" in values["reply"]["text"]
    assert [turn.id for turn in served.questions.thread_turns(thread_id)] == [values["turn_id"]]


def test_a_full_conversation_refuses_the_next_question_before_any_run_and_keeps_what_it_holds(
    served: Served,
) -> None:
    async def conversation() -> tuple[httpx.Response, dict[str, Any], list[Any]]:
        headers = token_header()
        client = visitor(served, headers)
        thread_id = (await client.threads.create())["thread_id"]
        for question in ("Quels sont les horaires ?", PASSEPORT)[:TURN_CAP]:
            await client.runs.wait(thread_id, "visitor", input=ask(question))
        async with httpx.AsyncClient(base_url=served.url, headers=headers) as http:
            refused = await http.post(
                f"/threads/{thread_id}/runs/stream",
                json={"assistant_id": "visitor", "input": ask("Et les chiens ?")},
            )
        values = (await client.threads.get_state(thread_id))["values"]
        return refused, values, await client.runs.list(thread_id)

    refused, values, runs = asyncio.run(conversation())

    assert refused.status_code == 409 and refused.json()["kind"] == "conversation_full"
    assert "start a new conversation" in refused.json()["detail"]
    assert len([m for m in values["messages"] if m["type"] == "human"]) == TURN_CAP
    assert len(runs) == TURN_CAP  # the refused question started no run


def _checkpoint_rows(database: str, thread_id: str) -> int:
    import psycopg

    with psycopg.connect(database) as connection:
        row = connection.execute(
            "SELECT (SELECT COUNT(*) FROM checkpoints WHERE thread_id = %(t)s)"
            " + (SELECT COUNT(*) FROM checkpoint_blobs WHERE thread_id = %(t)s)"
            " + (SELECT COUNT(*) FROM checkpoint_writes WHERE thread_id = %(t)s)",
            {"t": thread_id},
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_visitor_deleting_their_conversation_deletes_its_checkpoints(served: Served) -> None:
    async def delete() -> tuple[str, int]:
        client = visitor(served)
        thread_id = (await client.threads.create())["thread_id"]
        await client.runs.wait(thread_id, "visitor", input=ask(PASSEPORT))
        before = _checkpoint_rows(served.database, thread_id) if served.database else 1
        assert before > 0
        await client.threads.delete(thread_id)
        return thread_id, await _status(client.threads.get_state(thread_id))

    thread_id, read_after = asyncio.run(delete())

    assert read_after == 404
    if served.database:  # langgraph dev deletes them itself, in memory
        assert _checkpoint_rows(served.database, thread_id) == 0


def test_forget_erases_a_served_conversation_with_aegras_thread_and_runs(served: Served) -> None:
    if served.database is None:
        pytest.skip("langgraph dev keeps threads in memory: forget has nothing of its to erase")
    from agents.runtime.erasure import Erased, forget_conversation

    async def forget() -> tuple[Erased, int]:
        client = visitor(served)
        thread_id = (await client.threads.create())["thread_id"]
        await client.runs.wait(thread_id, "visitor", input=ask(PASSEPORT))
        erased = forget_conversation(AgentSettings(_env_file=None, checkpoint_url=served.database), thread_id)
        return erased, await _status(client.threads.get(thread_id))

    erased, read_after = asyncio.run(forget())

    assert (erased.server_threads, erased.server_runs, erased.logged_turns) == (1, 1, 1)
    assert erased.checkpoints > 0 and _checkpoint_rows(served.database, erased.thread_id) == 0
    assert read_after == 404


def test_the_questions_log_masks_what_the_visitor_wrote(served: Served) -> None:
    async def turn() -> tuple[str, dict[str, Any]]:
        client = visitor(served)
        thread = await client.threads.create()
        _, values = await streamed_turn(
            client,
            thread["thread_id"],
            "Puis-je réserver une visite guidée ? Écrivez à jean.dupont@example.org",
        )
        return thread["thread_id"], values

    thread_id, values = asyncio.run(turn())

    [logged] = served.questions.thread_turns(thread_id)
    assert logged.id == values["turn_id"]
    assert "jean.dupont" not in logged.question and "[email]" in logged.question


def test_a_visitor_cannot_reach_another_visitors_thread(served: Served) -> None:
    async def attempts() -> dict[str, int | str]:
        owner, other = visitor(served), visitor(served)
        thread = await owner.threads.create()
        thread_id = thread["thread_id"]
        outcomes: dict[str, int | str] = {"owner_metadata": str(thread["metadata"]["owner"])}
        calls = {
            "read": other.threads.get(thread_id),
            "state": other.threads.get_state(thread_id),
            "delete": other.threads.delete(thread_id),
            "run": other.runs.wait(thread_id, "visitor", input=ask("Bonjour")),
            "stream": _drain(other.runs.stream(thread_id, "visitor", input=ask("Bonjour"))),
        }
        for name, call in calls.items():
            outcomes[name] = await _status(call)
        outcomes["listed"] = len(await other.threads.search())
        outcomes["own_listed"] = len(await owner.threads.search())
        return outcomes

    outcomes = asyncio.run(attempts())

    assert outcomes["owner_metadata"].startswith("visitor:")  # the server's
    for name in ("read", "state", "delete", "run", "stream"):
        assert outcomes[name] == 404, (name, outcomes[name])
    assert outcomes["listed"] == 0 and outcomes["own_listed"] == 1


def test_visitors_cannot_change_assistants_or_reach_the_store(served: Served) -> None:
    async def attempts() -> dict[str, int]:
        client = visitor(served)
        [assistant] = await client.assistants.search(graph_id="visitor")
        return {
            "create": await _status(client.assistants.create("visitor")),
            "update": await _status(client.assistants.update(assistant["assistant_id"], metadata={"x": "y"})),
            "delete": await _status(client.assistants.delete(assistant["assistant_id"])),
            "store": await _status(client.store.search_items(("visitors",))),
            "stateless run": await _status(client.runs.wait(None, "visitor", input=ask("Bonjour"))),
        }

    outcomes = asyncio.run(attempts())

    assert outcomes == {"create": 403, "update": 403, "delete": 403, "store": 403, "stateless run": 403}


def test_a_visitor_can_send_a_question_but_not_an_operators_fields(served: Served) -> None:
    """The official client's own arguments, refused before any run starts or any state is written."""

    async def attempts() -> tuple[dict[str, int], list[Any]]:
        client = visitor(served)
        thread_id = (await client.threads.create())["thread_id"]
        calls = {
            "config": _drain(
                client.runs.stream(thread_id, "visitor", input=ask("Bonjour"), config={"recursion_limit": 1})
            ),
            "command": client.runs.wait(thread_id, "visitor", command={"goto": "synthesize"}),
            "state field": client.runs.wait(thread_id, "visitor", input={**ask("Bonjour"), "reply": {}}),
            "update_state": client.threads.update_state(thread_id, {"reply": {"text": "Gratuit"}}),
            "owner": client.threads.create(metadata={"owner": "someone else"}),
        }
        outcomes = {name: await _status(call) for name, call in calls.items()}
        return outcomes, await client.runs.list(thread_id)

    outcomes, runs = asyncio.run(attempts())

    assert outcomes == {"config": 403, "command": 403, "state field": 403, "update_state": 403, "owner": 403}
    assert runs == []  # refused before a run started


@pytest.mark.parametrize("token", ["short", "a" * 22])
def test_a_request_without_a_visitor_token_or_with_a_guessable_one_is_refused(
    served: Served, token: str
) -> None:
    response = httpx.post(f"{served.url}/threads", json={}, headers={"Authorization": f"Bearer {token}"})

    assert response.status_code == 401
    assert "visitor token" in response.text


@pytest.mark.parametrize(
    ("question", "sentence"), [(" \u200b ", "empty"), ("?" * (MAX_QUESTION_CHARS + 1), "too long")]
)
def test_a_question_the_visitor_page_refuses_is_refused_in_a_sentence(
    served: Served, question: str, sentence: str
) -> None:
    async def attempt() -> httpx.Response:
        headers = token_header()
        thread = await visitor(served, headers).threads.create()
        async with httpx.AsyncClient(base_url=served.url, headers=headers) as http:
            return await http.post(
                f"/threads/{thread['thread_id']}/runs/wait",
                json={"assistant_id": "visitor", "input": ask(question)},
            )

    response = asyncio.run(attempt())

    assert response.status_code == 422 and sentence in response.json()["detail"]


def test_only_the_operators_origins_may_call_it_from_a_page(served: Served) -> None:
    def preflight(origin: str) -> str | None:
        request = urllib.request.Request(
            f"{served.url}/threads",
            method="OPTIONS",
            headers={"Origin": origin, "Access-Control-Request-Method": "POST",
                     "Access-Control-Request-Headers": "authorization,content-type"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.headers.get("access-control-allow-origin")
        except urllib.error.HTTPError as error:
            return error.headers.get("access-control-allow-origin")

    assert preflight(served.origin) == served.origin
    assert preflight("https://elsewhere.example") is None


def test_a_visitor_past_the_rate_limit_is_asked_to_wait(served: Served) -> None:
    with httpx.Client(base_url=served.url, headers=token_header()) as http:
        statuses = [http.post("/threads/search", json={}).status_code for _ in range(RATE_LIMIT + 1)]
    other = httpx.post(f"{served.url}/threads/search", json={}, headers=token_header())

    assert statuses[:RATE_LIMIT] == [200] * RATE_LIMIT
    assert statuses[RATE_LIMIT] == 429
    assert other.status_code == 200  # per visitor: another one is not slowed down


async def _drain(stream: Any) -> None:
    async for _ in stream:
        pass


async def _status(call: Any) -> int:
    """The HTTP status a client call ended with (200 when it succeeded)."""
    try:
        await call
    except httpx.HTTPStatusError as error:
        return error.response.status_code
    return 200


def test_the_configuration_files_name_the_same_graph() -> None:
    import json

    from tests.conftest import REPO_ROOT

    dev = json.loads(Path(REPO_ROOT / "langgraph.json").read_text())
    production = json.loads(Path(REPO_ROOT / "aegra.json").read_text())
    assert dev["graphs"] == production["graphs"] == {"visitor": "./agents/serving/graph.py:visitor_graph"}
    assert dev["auth"]["path"] == production["auth"]["path"]
    assert dev["http"]["app"] == production["http"]["app"]


# Issue 48: the conversation's lifecycle (one question at a time, failures, erasure).


async def _ask_raw(http: httpx.AsyncClient, thread_id: str, question: str, wait: float = 0) -> httpx.Response:
    await asyncio.sleep(wait)
    return await http.post(
        f"/threads/{thread_id}/runs/wait", json={"assistant_id": "visitor", "input": ask(question)}
    )


def test_questions_sent_at_once_on_one_conversation_run_one_at_a_time_and_never_pass_the_cap(
    served: Served,
) -> None:
    async def bursts() -> tuple[list[httpx.Response], list[httpx.Response], dict[str, Any], str]:
        headers = token_header()
        thread_id = (await visitor(served, headers).threads.create())["thread_id"]
        async with httpx.AsyncClient(base_url=served.url, headers=headers, timeout=120) as http:
            at_once = await asyncio.gather(*(_ask_raw(http, thread_id, f"Question {n} ?") for n in range(8)))
            delays = enumerate((0, 0.02, 0.05, 0.2))  # 20-200 ms apart
            staggered = await asyncio.gather(*(_ask_raw(http, thread_id, f"Et {n} ?", d) for n, d in delays))
        state = await visitor(served, headers).threads.get_state(thread_id)
        return at_once, staggered, state["values"], thread_id

    at_once, staggered, values, thread_id = asyncio.run(bursts())

    assert [r.status_code for r in at_once].count(200) == 1
    assert {r.json().get("kind") for r in at_once if r.status_code != 200} == {"busy"}
    accepted = [r for r in [*at_once, *staggered] if r.status_code == 200]
    assert all(r.status_code == 409 for r in [*at_once, *staggered] if r.status_code != 200)
    humans = [m for m in values["messages"] if m["type"] == "human"]
    assert len(humans) == len(accepted) <= TURN_CAP  # every accepted question kept, none past the cap
    assert len(served.questions.thread_turns(thread_id)) == len(accepted)


@pytest.mark.parametrize("question", ["Les horaires\u0000 ?", "Les horaires \ud800 ?"])
def test_after_a_question_the_server_fails_on_the_conversation_takes_the_next_one(
    served: Served, question: str
) -> None:
    async def fail_then_ask() -> tuple[int, dict[str, Any], httpx.Response]:
        headers = token_header()
        client = visitor(served, headers)
        thread_id = (await client.threads.create())["thread_id"]
        async with httpx.AsyncClient(base_url=served.url, headers=headers, timeout=120) as http:
            body = '{"assistant_id": "visitor", "input": {"messages": [{"role": "user", "content": %s}]}}'
            failed = await http.post(
                f"/threads/{thread_id}/runs/wait",
                content=body % json.dumps(question),  # a lone surrogate as JSON writes it
                headers={"content-type": "application/json"},
            )
            for _ in range(15):  # the claim goes once the server has finished with the run
                thread = await client.threads.get(thread_id)
                if thread["status"] != "busy":
                    break
                await asyncio.sleep(0.2)
            return failed.status_code, thread, await _ask_raw(http, thread_id, PASSEPORT)

    _, thread, after = asyncio.run(fail_then_ask())

    assert thread["status"] != "busy"
    assert after.status_code == 200 and "32 €" in after.json()["reply"]["text"]


def _marker() -> str:
    """Letters only: the questions log masks no word of it, so a copy anywhere would be found."""
    return "zq" + "".join(secrets.choice("bcdfghjklmnpqrstvwxz") for _ in range(14))


def _tables_holding(database: str, text: str) -> list[str]:
    """Every ``table.column`` of the database (text, JSON or bytes) holding ``text``."""
    import psycopg
    from psycopg import sql

    found = []
    with psycopg.connect(database, autocommit=True) as connection:
        columns = connection.execute(
            "SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') "
            "AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'bytea', 'ARRAY')"
        ).fetchall()
        for schema, table, column, data_type in columns:
            value = sql.Identifier(column)
            test = (
                sql.SQL("position(convert_to(%s, 'UTF8') in {}) > 0").format(value)
                if data_type == "bytea"
                else sql.SQL("{}::text LIKE '%%' || %s || '%%'").format(value)
            )
            query = sql.SQL("SELECT count(*) FROM {} WHERE {}").format(sql.Identifier(schema, table), test)
            row = connection.execute(query, (text,)).fetchone()
            if row and row[0]:
                found.append(f"{table}.{column}")
    assert columns, "no column was searched"
    return found


@pytest.mark.parametrize("erasure", ["the visitor's DELETE", "agents forget", "both"])
def test_after_an_erasure_no_table_holds_the_visitors_question(served: Served, erasure: str) -> None:
    marker = _marker()

    async def erase() -> tuple[str, list[str], list[str]]:
        client = visitor(served)
        thread_id = (await client.threads.create())["thread_id"]
        await streamed_turn(client, thread_id, f"Puis-je venir avec mon chien {marker} ?")
        before = _tables_holding(served.database, marker) if served.database else []
        if erasure != "agents forget":
            await client.threads.delete(thread_id)
        if erasure != "the visitor's DELETE" and served.database:
            from agents.runtime.erasure import forget_conversation

            forget_conversation(AgentSettings(_env_file=None, checkpoint_url=served.database), thread_id)
        after = _tables_holding(served.database, marker) if served.database else []
        return thread_id, before, after

    if served.database is None and erasure != "the visitor's DELETE":
        pytest.skip("langgraph dev keeps threads in its own files: only the visitor's DELETE reaches them")
    thread_id, before, after = asyncio.run(erase())

    assert not served.questions.thread_turns(thread_id)  # the questions log and its feedback
    if served.database:
        assert {"runs.input", "run_events.data", "visitor_questions.question"} <= set(before), before
        assert after == []


async def _answered_thread(client: LangGraphClient, question: str = PASSEPORT) -> tuple[str, dict[str, Any]]:
    """A new thread of ``client`` holding one answered question; its id and values."""
    thread_id = (await client.threads.create())["thread_id"]
    await client.runs.wait(thread_id, "visitor", input=ask(question))
    return thread_id, (await client.threads.get_state(thread_id))["values"]


def test_a_visitor_cannot_read_another_conversation_through_a_checkpoint_of_their_own(served: Served) -> None:
    """Aegra merged the body's ``checkpoint`` into the history's configuration: another thread's id
    there returned its every checkpoint."""
    secret = "Mon numéro de réservation est VERS-4412, est-il valable ?"

    async def attempts() -> tuple[list[httpx.Response], int]:
        victim, attacker_headers = visitor(served), token_header()
        attacker = visitor(served, attacker_headers)
        victims_thread, _ = await _answered_thread(victim, secret)
        own_thread, _ = await _answered_thread(attacker, "Quels sont les horaires ?")
        async with httpx.AsyncClient(base_url=served.url, headers=attacker_headers) as http:
            answers = [
                await http.post(
                    f"/threads/{own_thread}/history", json={"checkpoint": {"thread_id": victims_thread}}
                ),
                await http.post(
                    f"/threads/{own_thread}/state/checkpoint",
                    json={"checkpoint": {"thread_id": victims_thread, "checkpoint_ns": ""}},
                ),
            ]
        own = len(await attacker.threads.get_history(own_thread, limit=10))
        return answers, own

    answers, own_history = asyncio.run(attempts())

    for answer in answers:
        assert answer.status_code == 403 and "VERS-4412" not in answer.text
        assert "leave 'thread_id' out" in answer.json()["detail"]
    assert own_history >= 1  # one's own history still reads


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/threads/{thread}/runs/wait", b"[" * 50_000),
        ("/threads/search", b'{"metadata":' * 3_000 + b"{}" + b"}" * 3_000),
        ("/threads/{thread}/history", b"[" * 50_000),
        ("/visitor/feedback", b'{"thread_id": ' + b"[" * 50_000),
    ],
)
def test_a_deeply_nested_body_is_one_sentence_on_every_route(served: Served, path: str, body: bytes) -> None:
    headers = token_header()
    thread_id = asyncio.run(visitor(served, headers).threads.create())["thread_id"]

    response = httpx.post(served.url + path.format(thread=thread_id), content=body, headers=headers)

    assert response.status_code == 422 and "nests too deeply" in response.json()["detail"]


@pytest.mark.parametrize("path", ["/threads/search", "/threads/{thread}/history", "/visitor/feedback"])
def test_a_body_over_64_kb_is_refused_on_every_route(served: Served, path: str) -> None:
    headers = token_header()
    thread_id = asyncio.run(visitor(served, headers).threads.create())["thread_id"]

    response = httpx.post(
        served.url + path.format(thread=thread_id), json={"x": "x" * 70_000}, headers=headers
    )

    assert response.status_code == 413 and "too large" in response.json()["detail"]


def test_a_control_character_in_a_question_is_refused_before_the_server_sees_it(served: Served) -> None:
    """On Aegra a NUL made PostgreSQL fail: a 500 holding the SQL statement, the question in its log."""
    marker = "ZX-NUL-QUESTION-7"

    async def attempt() -> list[httpx.Response]:
        headers = token_header()
        thread = await visitor(served, headers).threads.create()
        async with httpx.AsyncClient(base_url=served.url, headers=headers) as http:
            return [
                await http.post(
                    f"/threads/{thread['thread_id']}/runs/{mode}",
                    json={"assistant_id": "visitor", "input": ask(f"{marker}\u0000 horaires ?")},
                )
                for mode in ("wait", "stream")
            ]

    answers = asyncio.run(attempt())

    for answer in answers:
        assert answer.status_code == 422 and "U+0000" in answer.json()["detail"]
        assert marker not in answer.text
    assert marker not in served.log.read_text(errors="replace")


def test_a_field_sent_as_null_is_no_server_error(served: Served) -> None:
    async def attempt() -> httpx.Response:
        headers = token_header()
        thread = await visitor(served, headers).threads.create()
        async with httpx.AsyncClient(base_url=served.url, headers=headers, timeout=120) as http:
            return await http.post(
                f"/threads/{thread['thread_id']}/runs/wait",
                json={"assistant_id": "visitor", "input": ask(PASSEPORT), "config": None, "context": None},
            )

    answer = asyncio.run(attempt())

    assert answer.status_code == 200 and "32 €" in answer.json()["reply"]["text"]


def test_feedback_from_another_origin_reaches_the_turn_and_only_the_owners(served: Served) -> None:
    """On Aegra the route answered 401 to everyone (its authentication never ran on custom routes)."""

    async def feedback() -> tuple[str, dict[str, Any], httpx.Response, httpx.Response, httpx.Response]:
        headers = token_header()
        thread_id, values = await _answered_thread(visitor(served, headers))
        verdict = {
            "thread_id": thread_id,
            "turn_id": values["turn_id"],
            "verdict": "not_helpful",
            "comment": "Trop court",
        }
        async with httpx.AsyncClient(base_url=served.url, headers={"Origin": served.origin}) as http:
            preflight = await http.options(
                "/visitor/feedback",
                headers={"Access-Control-Request-Method": "POST",
                         "Access-Control-Request-Headers": "authorization,content-type"},
            )  # fmt: skip
            stranger = await http.post("/visitor/feedback", json=verdict, headers=token_header())
            owner = await http.post("/visitor/feedback", json=verdict, headers=headers)
        return thread_id, values, preflight, stranger, owner

    thread_id, values, preflight, stranger, owner = asyncio.run(feedback())

    assert preflight.headers.get("access-control-allow-origin") == served.origin
    assert stranger.status_code == 404
    assert owner.status_code == 204 and owner.headers.get("access-control-allow-origin") == served.origin
    [logged] = served.questions.thread_turns(thread_id)
    assert (logged.id, logged.feedback, logged.comment) == (values["turn_id"], "not_helpful", "Trop court")


def test_the_front_doors_refusals_are_readable_by_the_museums_page(served: Served) -> None:
    """Without CORS headers the widget could not read "unknown conversation" and asked to retry."""
    headers = {**token_header(), "Origin": served.origin}
    unknown = "00000000-0000-4000-8000-000000000000"

    refusals = [
        httpx.post(f"{served.url}/threads/{unknown}/runs/stream", headers=headers,
                   json={"assistant_id": "visitor", "input": ask(PASSEPORT)}),
        httpx.post(f"{served.url}/threads", headers=headers, json={"metadata": {"owner": "x"}}),
        httpx.post(f"{served.url}/threads/search", headers=headers, content=b"[" * 1000),
    ]  # fmt: skip

    assert [r.status_code for r in refusals] == [404, 403, 422]
    for refusal in refusals:
        assert refusal.headers.get("access-control-allow-origin") == served.origin
        assert len(refusal.headers.get_list("access-control-allow-origin")) == 1
    elsewhere = httpx.post(f"{served.url}/threads", headers={**headers, "Origin": "https://elsewhere.example"},
                           json={"metadata": {"owner": "x"}})  # fmt: skip
    assert "access-control-allow-origin" not in elsewhere.headers


def test_the_servers_metrics_are_closed_to_visitors(served: Served) -> None:
    response = httpx.get(f"{served.url}/metrics", headers=token_header())

    assert response.status_code == 403


def test_a_visitor_cancels_their_own_run_and_no_one_elses(served: Served) -> None:
    async def cancel() -> tuple[int, int]:
        owner = visitor(served)
        thread_id = (await owner.threads.create())["thread_id"]
        run = await owner.runs.create(thread_id, "visitor", input=ask(PASSEPORT))
        stranger = await _status(visitor(served).runs.cancel(thread_id, run["run_id"]))
        own = await _status(owner.runs.cancel(thread_id, run["run_id"]))
        await owner.runs.join(thread_id, run["run_id"])
        return stranger, own

    stranger, own = asyncio.run(cancel())

    assert stranger == 404
    assert own == 200


def test_a_client_drawing_a_new_token_per_request_is_limited_by_its_address(served: Served) -> None:
    """Tokens are the client's to draw: 150 requests with 150 tokens opened 672 conversations in 20 s."""
    address = {"langgraph dev": "203.0.113.10", "aegra": "203.0.113.11"}[served.name]

    def new_conversation(client: str) -> httpx.Response:
        forwarded = {"X-Forwarded-For": f"198.51.100.99, {client}"}  # the proxy appended the last
        return httpx.post(f"{served.url}/threads", json={}, headers={**token_header(), **forwarded})

    answers = [new_conversation(address) for _ in range(CONVERSATIONS_PER_ADDRESS + 1)]
    neighbour = new_conversation("203.0.113.12")

    assert [a.status_code for a in answers[:-1]] == [200] * CONVERSATIONS_PER_ADDRESS
    assert answers[-1].status_code == 429 and int(answers[-1].headers["retry-after"]) >= 1
    assert "new conversations from your network" in answers[-1].json()["detail"]
    assert neighbour.status_code == 200
