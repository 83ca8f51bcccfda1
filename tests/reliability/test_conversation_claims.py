"""The served API's claim on a conversation (agents.serving.claims): granted to one request at a time, in
one process and across processes sharing PostgreSQL, released after the run whatever happened, and
never left behind by a process that died."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agents.serving.claims import ConversationClaims, run_claimed
from agents.serving.visitors import VisitorRefused


async def _idle() -> dict[str, Any]:
    return {"status": "idle"}


def test_requests_claiming_one_thread_at_once_in_one_process_get_one_claim() -> None:
    async def claim_at_once() -> tuple[list[bool], bool, bool]:
        claims = ConversationClaims()
        granted = await asyncio.gather(*(claims.claim("thread-1") for _ in range(20)))
        other = await claims.claim("thread-2")
        await claims.release("thread-1")
        return granted, other, await claims.claim("thread-1")

    granted, other, again = asyncio.run(claim_at_once())

    assert granted.count(True) == 1
    assert other and again


@pytest.mark.parametrize("failure", [RuntimeError("the server failed"), asyncio.CancelledError()])
def test_a_run_that_fails_or_whose_client_leaves_releases_its_claim(failure: BaseException) -> None:
    async def failed_run() -> tuple[bool, bool]:
        claims = ConversationClaims()
        assert await claims.claim("thread-1")

        async def forward() -> None:
            raise failure

        with pytest.raises(type(failure)):
            await run_claimed(claims, "thread-1", forward, _idle)
        held_during = claims.held("thread-1")
        for _ in range(50):
            await asyncio.sleep(0.01)
            if not claims.held("thread-1"):
                break
        return held_during, await claims.claim("thread-1")

    held_during, claimed_after = asyncio.run(failed_run())

    assert held_during  # released only once the server shows the run over
    assert claimed_after


def test_the_claim_waits_for_the_servers_run_to_end() -> None:
    async def background_run() -> tuple[bool, bool]:
        claims = ConversationClaims()
        statuses = iter(["busy", "busy", "busy", "idle"])

        async def read() -> dict[str, Any]:
            return {"status": next(statuses)}

        async def forward() -> None:  # a background run: the request ends before the run
            return None

        assert await claims.claim("thread-1")
        await run_claimed(claims, "thread-1", forward, read)
        await asyncio.sleep(0.15)
        during = await claims.claim("thread-1")
        await asyncio.sleep(0.4)
        return during, await claims.claim("thread-1")

    during, after = asyncio.run(background_run())

    assert not during and after


async def _claimed_within(claims: ConversationClaims, thread_id: str, seconds: float) -> bool:
    """Whether ``claims`` takes ``thread_id`` within ``seconds``: the server ends a closed
    connection's session, and frees its advisory locks, a moment after the client has gone."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not await claims.claim(thread_id):
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def test_processes_sharing_postgres_get_one_claim_and_a_dead_ones_goes_with_it(postgres_url: str) -> None:
    async def two_processes() -> tuple[bool, bool, bool]:
        first, second = ConversationClaims(postgres_url), ConversationClaims(postgres_url)
        try:
            assert await first.claim("thread-1")
            refused = await second.claim("thread-1")
            await first.close()  # the process holding it dies: PostgreSQL ends its session
            taken_over = await _claimed_within(second, "thread-1", seconds=5.0)
            await second.release("thread-1")
            return refused, taken_over, await second.claim("thread-1")
        finally:
            await second.close()

    refused, taken_over, again = asyncio.run(two_processes())

    assert refused is False
    assert taken_over and again


def test_an_unreachable_database_refuses_the_question_in_a_sentence_and_holds_nothing() -> None:
    async def unreachable() -> tuple[VisitorRefused, bool]:
        claims = ConversationClaims("postgresql://nobody@127.0.0.1:1/none")
        with pytest.raises(VisitorRefused) as refused:
            await claims.claim("thread-1")
        return refused.value, claims.held("thread-1")

    refused, held = asyncio.run(unreachable())

    assert refused.status == 503 and "ask again in a moment" in refused.message
    assert not held


def test_a_client_leaving_while_its_claim_is_asked_leaves_no_lock_behind(postgres_url: str) -> None:
    async def leave_mid_claim() -> bool:
        leaving, other = ConversationClaims(postgres_url), ConversationClaims(postgres_url)
        try:
            assert await leaving.claim("warm-up")  # connected: the next claim is one statement
            asking = asyncio.ensure_future(leaving.claim("thread-1"))
            await asyncio.sleep(0)  # the lock is being asked for
            asking.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asking
            for _ in range(50):
                await asyncio.sleep(0.02)
                if not leaving.held("thread-1"):
                    break
            return await other.claim("thread-1")
        finally:
            await leaving.close()
            await other.close()

    assert asyncio.run(leave_mid_claim())
