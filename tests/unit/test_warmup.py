"""The warm-up: run once per process, waited for by turns, started by the app and the servers."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from agents.runtime.warmup import WarmUp, warm_up_questions
from rag.lexicon.languages import SUPPORTED_LANGUAGES


def test_one_question_per_language_warms_every_language() -> None:
    questions = warm_up_questions()

    assert len(questions) == len(SUPPORTED_LANGUAGES) and len(set(questions)) == len(questions)


def test_the_work_runs_once_however_many_doors_ask() -> None:
    runs: list[int] = []
    release = threading.Event()
    warming = WarmUp(lambda: (release.wait(5), runs.append(1)))

    warming.start()
    assert not warming.ready
    others = [threading.Thread(target=warming.run) for _ in range(3)]
    for thread in others:
        thread.start()
    release.set()
    assert warming.wait(5)
    for thread in others:
        thread.join(5)

    assert runs == [1] and warming.ready


def test_nothing_started_is_nothing_to_wait_for() -> None:
    warming = WarmUp(lambda: pytest.fail("never run"))

    assert warming.ready and warming.wait(0)


def test_a_failed_warm_up_is_logged_and_turns_go_on(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> None:
        raise RuntimeError("no index")

    warming = WarmUp(broken)
    warming.run()

    assert warming.ready and "no index" in caplog.text


def test_the_servers_graph_factory_warms_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.serving import served_graph as served

    warmed: list[Any] = []
    monkeypatch.setattr(served, "warm_up", warmed.append)
    monkeypatch.setattr(served, "served_recorder", lambda settings: None)
    monkeypatch.setattr(served, "turn_graph", lambda parts, **kwargs: _Compiled())
    monkeypatch.setattr(served, "build_parts", lambda settings: _Parts())
    served._visitor_graph.cache_clear()
    try:
        first, second = served.built_graph(), served.built_graph()
    finally:
        served._visitor_graph.cache_clear()

    assert first is second and len(warmed) == 1


def test_the_apps_service_factory_starts_the_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    from app_ui import shared_service, support

    service = _Service()
    monkeypatch.setattr(support, "build_service", lambda: service)
    shared_service.get_service.clear()
    try:
        assert shared_service.get_service("key") is service
    finally:
        shared_service.get_service.clear()

    assert service.warmed == [True]  # in the background: the page is drawn meanwhile


class _Parts:
    deps = None


class _Compiled:
    def with_config(self, **kwargs: Any) -> _Compiled:
        return self


class _Service:
    def __init__(self) -> None:
        self.warmed: list[bool] = []

    def warm_up(self, background: bool = False) -> None:
        self.warmed.append(background)


def test_turns_wait_for_the_first_stage_only_and_the_next_one_follows_it() -> None:
    order: list[str] = []
    release_next = threading.Event()
    first = WarmUp(lambda: order.append("shared"))
    following = WarmUp(lambda: (release_next.wait(5), order.append("other languages")))

    first.start(then=following)

    assert first.wait(5)  # a turn goes on while the other languages still load
    assert not following.ready and order == ["shared"]
    release_next.set()
    assert following.wait(5) and order == ["shared", "other languages"]
