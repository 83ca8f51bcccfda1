"""The chat widget in a real browser, on a museum page of another origin, against ``langgraph dev`` and
against Aegra (the production server) on PostgreSQL.

The sample page (``widget/demo/index.html``) and the script are served from one 127.0.0.1 port, the
assistant (``langgraph dev`` serving ``langgraph.json``'s graph, or Aegra serving ``aegra.json``'s with
the page's origin allowed: bundled corpus, a hostile guide, the offline model) from another: every call
the widget makes is cross-origin. Each server starts once for the module. Debian's chromium, driven by
Playwright, must request nothing outside 127.0.0.1. Screenshots go to ``$E2E_SCREENSHOTS``; look at
them after a layout change.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx
import pytest

from agents.config import AgentSettings
from agents.insights.store import Database, QuestionLog
from app_ui.labels import Labels
from rag.config import RagSettings
from tests.conftest import PROVIDER_VARIABLES, REPO_ROOT
from tests.e2e.conftest import index_copy, index_env
from tests.e2e.test_browser import (
    DESKTOP,
    PHONE,
    _assert_stayed_local,
    _screens,
    _serious_violations,  # axe-core reads the widget's shadow root too
)
from tests.local_server import free_port, running_server
from tests.postgres_server import create_database
from tests.serving_servers import aegra, aegra_config, enter_together, offline_agent_env
from widget.labels import WIDGET_FILE

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Route

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGGRAPH_CONFIG = REPO_ROOT / "langgraph.json"
DEMO_PAGE = REPO_ROOT / "widget" / "demo" / "index.html"
ANSWER_TIMEOUT_MS = 120_000  # the first turn also loads the embedder in the server
WIDGET = ".versailles-visitor-widget"
VISITOR_KEY = "versailles-visitor-key"  # where the widget keeps its token (sessionStorage)


@pytest.fixture(scope="module")
def museum_origin() -> str:
    """Where the museum's page is served: the one origin the assistant allows (CORS)."""
    return f"http://127.0.0.1:{free_port()}"


@contextmanager
def dev_server(folder: Path, index: RagSettings, origin: str) -> Iterator[str]:
    """``langgraph dev`` serving the visitor graph over ``index`` to ``origin`` only; yields its URL."""
    langgraph = Path(sys.executable).with_name("langgraph")
    env = {name: value for name, value in os.environ.items() if name not in PROVIDER_VARIABLES}
    env.update(
        PYTHONPATH=str(REPO_ROOT),
        **index_env(index_copy(index, folder)),
        AGENT_PROVIDER="offline",
        AGENT_OFFLINE_WORD_SECONDS="0.005",  # streamed as a provider's answer
        TOOLS_OFFLINE="true",
        AGENT_CHECKPOINT_PATH=str(folder / "state" / "threads.sqlite"),  # the questions log lives beside it
        HF_HUB_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        LANGSMITH_TRACING="false",
        CORS_ALLOW_ORIGINS=origin,
        NO_PROXY="127.0.0.1,localhost",
    )
    port = free_port()
    command = [
        str(langgraph),
        "dev",
        "--config",
        str(LANGGRAPH_CONFIG),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-browser",
        "--no-reload",
    ]
    url = f"http://127.0.0.1:{port}"
    with (
        (folder / "langgraph.log").open("wb") as log,
        running_server(command, f"{url}/ok", timeout=240, cwd=REPO_ROOT, env=env, output=log),
    ):
        yield url


AEGRA_TURN_CAP = 1  # the second question of a conversation meets "conversation full"


@contextmanager
def aegra_server(folder: Path, database: str, index: RagSettings, origin: str) -> Iterator[str]:
    """Aegra on ``database`` serving the visitor graph over ``index`` to ``origin`` only; yields its URL."""
    env = offline_agent_env(
        index_copy(index, folder), folder, AGENT_CHECKPOINT_URL=database,
        AGENT_OFFLINE_WORD_SECONDS="0.005", AGENT_MAX_TURNS_PER_CONVERSATION=str(AEGRA_TURN_CAP),
    )  # fmt: skip
    with (
        (folder / "aegra.log").open("wb") as log,
        aegra(env, database, log, aegra_config(folder, [origin])) as url,
    ):
        yield url


@pytest.fixture(scope="module")
def servers(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    hostile_index: RagSettings,
    museum_origin: str,
    aegra_origin: str,
) -> Iterator[dict[str, Any]]:
    """``langgraph dev`` and Aegra on a fresh PostgreSQL database, started at once, each serving the
    visitor graph over the bundled corpus and a hostile guide (conftest.py) to its museum page's origin
    only. Without PostgreSQL (never in CI) Aegra's entry is the reason its tests are skipped."""
    if not Path(sys.executable).with_name("langgraph").exists() or not LANGGRAPH_CONFIG.exists():
        message = f"`langgraph dev` or {LANGGRAPH_CONFIG.name} is absent: run `make setup-dev`."
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    dev = tmp_path_factory.mktemp("assistant")
    starting: dict[str, Any] = {"dev": dev_server(dev, hostile_index, museum_origin)}
    found: dict[str, Any] = {}
    try:
        database = create_database(request.getfixturevalue("postgres_server"))
    except pytest.skip.Exception as absent:
        found["aegra"] = str(absent)
    else:
        starting["aegra"] = aegra_server(
            tmp_path_factory.mktemp("aegra"), database, hostile_index, aegra_origin
        )
        questions = QuestionLog.for_settings(AgentSettings(_env_file=None, checkpoint_url=database))
    with ExitStack() as stack:
        urls = enter_together(stack, starting)
        found["dev"] = {"url": urls["dev"], "questions": dev / "state" / "threads.sqlite"}
        if "aegra" in urls:
            found["aegra"] = {"url": urls["aegra"], "questions": questions}
        yield found


@pytest.fixture(scope="module")
def assistant(servers: dict[str, Any]) -> dict[str, Any]:
    """``langgraph dev`` and where its questions log is."""
    return dict(servers["dev"])


@pytest.fixture(scope="module")
def aegra_origin() -> str:
    """Where the museum's page calling Aegra is served: the one origin Aegra allows there."""
    return f"http://127.0.0.1:{free_port()}"


@contextmanager
def museum_site(folder: Path, api: str, origin: str) -> Iterator[str]:
    """The sample museum page calling ``api``, and the widget script, served at ``origin``; its URL."""
    shutil.copy(WIDGET_FILE, folder / WIDGET_FILE.name)
    page = DEMO_PAGE.read_text(encoding="utf-8")
    page = re.sub(r'src="[^"]*visitor-widget\.js"', f'src="{WIDGET_FILE.name}"', page)
    page, replaced = re.subn(r'data-api="[^"]*"', f'data-api="{api}"', page)
    assert replaced == 1, "the demo page lost its data-api attribute"
    (folder / "index.html").write_text(page, encoding="utf-8")
    port = str(urlsplit(origin).port)
    command = [sys.executable, "-m", "http.server", port, "--bind", "127.0.0.1", "--directory", str(folder)]
    url = f"{origin}/index.html"
    with running_server(command, url, timeout=30):
        yield url


@pytest.fixture(scope="module")
def museum_page(
    tmp_path_factory: pytest.TempPathFactory, assistant: dict[str, Any], museum_origin: str
) -> Iterator[str]:
    """The sample museum page and the widget script, served from their own port (another origin)."""
    with museum_site(tmp_path_factory.mktemp("museum"), assistant["url"], museum_origin) as url:
        yield url


@pytest.fixture(scope="module")
def aegra_museum(
    tmp_path_factory: pytest.TempPathFactory, servers: dict[str, Any], aegra_origin: str
) -> Iterator[dict[str, Any]]:
    """Aegra, its questions log, and the museum page calling it."""
    if isinstance(servers["aegra"], str):
        pytest.skip(servers["aegra"])
    served = servers["aegra"]
    with museum_site(tmp_path_factory.mktemp("museum-aegra"), served["url"], aegra_origin) as page:
        yield {**served, "page": page}


class Visit:
    """A browser page on the museum site, with what it asked of the assistant."""

    def __init__(self, page: Any, api: str) -> None:
        self.page = page
        self.api = api
        self.responses: list[tuple[str, str, int]] = []
        page.on("response", lambda r: self.responses.append((r.request.method, r.url, r.status)))

    def widget(self) -> Any:
        return self.page.locator(WIDGET)

    def open(self) -> None:
        self.widget().locator(".launcher").click()

    def ask(self, question: str, turn: int) -> Any:
        """Type ``question`` and send it with Enter; return the ``turn``-th answer once it is complete."""
        from playwright.sync_api import expect

        box = self.widget().locator("textarea")
        box.fill(question)
        box.press("Enter")
        answer = self.widget().locator("article.answer").nth(turn - 1)
        expect(answer).to_have_attribute("aria-busy", "false", timeout=ANSWER_TIMEOUT_MS)
        return answer

    def calls(self, method: str, path: str) -> list[int]:
        """Statuses of the calls made to the assistant for ``path`` (a regular expression)."""
        return [
            status
            for m, url, status in self.responses
            if m == method and url.startswith(self.api) and re.fullmatch(path, urlsplit(url).path)
        ]


class _Browser:
    """A visit in a fresh context of the browser; unless the visit failed, every request it made
    must have stayed on 127.0.0.1."""

    def __init__(self, browser: Browser, options: dict[str, Any], api: str) -> None:
        self.browser, self.options, self.api = browser, options, api

    def __enter__(self) -> Visit:
        self.requested: list[str] = []
        self.context = self.browser.new_context(**self.options)
        page = self.context.new_page()
        page.on("request", lambda request: self.requested.append(request.url))
        return Visit(page, self.api)

    def __exit__(self, *exc: object) -> None:
        self.context.close()
        if exc[0] is None:
            _assert_stayed_local(self.requested)


# Records whether the answer was seen half written (streamed), and every text it showed meanwhile.
RECORD_STREAM = """() => {
  window.streamed = [];
  const root = document.querySelector('.versailles-visitor-widget').shadowRoot;
  new MutationObserver(() => {
    const live = root.querySelector('.streaming');
    if (live) window.streamed.push(live.textContent);
  }).observe(root, {childList: true, subtree: true, characterData: true});
}"""


# The element with the focus inside the widget's shadow root, as "TAG.class".
FOCUSED_IN_WIDGET = """() => {
  const inner = document.activeElement.shadowRoot?.activeElement;
  return inner ? inner.tagName + '.' + inner.className : '';
}"""


def _assert_cited_with_web_sources(answer: Any) -> None:
    """Every [n] and every source link opens an http(s) page; every source has a number and a title."""
    citations = answer.locator(".answer-text a.cite")
    assert citations.count() >= 1, "no citation in the answer"
    links = answer.locator("a")
    hrefs = [links.nth(n).get_attribute("href") or "" for n in range(links.count())]
    assert hrefs and all(re.match(r"^https?://", href) for href in hrefs), hrefs
    summaries = answer.locator(".sources summary").all_inner_texts()
    assert summaries and all(re.match(r"^\[\d+\] \S", text) for text in summaries), summaries
    assert not any(re.search(r"\.(md|jsonl|txt)\b", text) for text in summaries), summaries


def test_a_french_visitor_asks_streams_cites_gives_feedback_and_starts_again(
    chromium: Browser, axe: Path, museum_page: str, assistant: dict[str, Any], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    french = Labels("fr")
    shots = _screens(tmp_path)
    with _Browser(chromium, {"viewport": DESKTOP, "locale": "fr-FR"}, assistant["url"]) as visit:
        page = visit.page
        page.goto(museum_page)
        assert urlsplit(page.url).port != urlsplit(assistant["url"]).port  # another origin
        visit.open()
        widget = visit.widget()
        expect(widget.locator("h2")).to_have_text(french["title"])
        expect(widget.locator(".example").first).to_have_text(french["examples"][0])
        page.screenshot(path=shots / "widget-desktop-fr-1-open.png")

        page.evaluate(RECORD_STREAM)
        answer = visit.ask("Quels sont les horaires d'ouverture du château ?", 1)
        streamed = [text for text in page.evaluate("() => window.streamed") if text.strip()]
        assert streamed, "the answer was not seen while it streamed"
        assert not any(re.search(r"\[\d", text) for text in streamed), "a raw citation number was shown"
        expect(answer.locator(".sources-title")).to_have_text(french["sources"])
        _assert_cited_with_web_sources(answer)
        expect(widget.locator("[role=status]")).to_have_text(french["answer_ready"])
        answer.locator(".sources summary").first.click()
        expect(answer.locator("blockquote").first).to_be_visible()
        page.screenshot(path=shots / "widget-desktop-fr-2-answer.png")
        problems = _serious_violations(page, axe)

        answer.get_by_role("button", name=french["not_helpful"]).click()
        comment = widget.get_by_label(french["feedback_comment"])
        expect(comment).to_be_focused()
        comment.fill("Il manque les horaires des jardins.")
        comment.press("Enter")
        expect(answer.locator(".thanks")).to_have_text(french["feedback_thanks"])
        expect(answer.locator(".thanks")).to_be_focused()
        page.screenshot(path=shots / "widget-desktop-fr-3-feedback.png")

        widget.get_by_role("button", name=french["new_conversation"]).click()
        expect(widget.locator("article")).to_have_count(0)
        expect(widget.locator(".example")).to_have_count(3)
        expect(widget.locator("textarea")).to_be_focused()
        visit.ask("Combien coûte un billet pour le château ?", 1)
        feedback_calls = visit.calls("POST", r".*/feedback")
        created = visit.calls("POST", r"/threads")
    assert not problems, "\n".join(problems)
    assert created == [200, 200], "a new conversation is a new thread"
    assert feedback_calls and all(200 <= status < 300 for status in feedback_calls), feedback_calls
    logged = QuestionLog(Database(sqlite_path=assistant["questions"])).questions()
    commented = [row for row in logged if row.comment]
    assert [(row.feedback, row.comment) for row in commented] == [
        ("not_helpful", "Il manque les horaires des jardins.")
    ]


def test_a_japanese_visitor_on_a_phone_reads_japanese_and_the_widget_passes_axe(
    chromium: Browser, axe: Path, museum_page: str, assistant: dict[str, Any], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    japanese = Labels("ja")
    phone = {
        "viewport": PHONE,
        "locale": "ja-JP",
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    }
    with _Browser(chromium, phone, assistant["url"]) as visit:
        page = visit.page
        page.goto(museum_page)  # a French page (data-lang="fr"): the widget opens in French
        visit.open()
        widget = visit.widget()
        answer = visit.ask("宮殿の開館時間を教えてください。", 1)
        expect(widget.locator(".root")).to_have_attribute("lang", "ja")  # then speaks the answer's language
        expect(widget.locator("h2")).to_have_text(japanese["title"])
        expect(answer.locator(".sources-title")).to_have_text(japanese["sources"])
        expect(widget.locator("textarea")).to_have_attribute("placeholder", japanese["placeholder"])
        _assert_cited_with_web_sources(answer)
        box = widget.locator(".panel").bounding_box()
        page.screenshot(path=_screens(tmp_path) / "widget-phone-ja-answer.png")
        answer.locator(".sources summary").first.click()
        page.screenshot(path=_screens(tmp_path) / "widget-phone-ja-source-opened.png")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        outside = 0
        for _ in range(2 * 12):  # the panel fills the screen: the keyboard stays in it
            page.keyboard.press("Tab")
            outside += page.evaluate(f"() => !document.activeElement.matches('{WIDGET}')")
        problems = _serious_violations(page, axe)
        small = page.evaluate(
            """() => [...document.querySelector('.versailles-visitor-widget').shadowRoot
                 .querySelectorAll('button, select, summary, textarea, input')]
                 .filter((e) => e.offsetParent !== null)
                 .map((e) => e.getBoundingClientRect())
                 .filter((r) => r.width < 24 || r.height < 24).length"""
        )
    assert box == {"x": 0, "y": 0, "width": PHONE["width"], "height": PHONE["height"]}, box
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    assert not problems, "\n".join(problems)
    assert small == 0, "a control is smaller than 24 x 24 px"
    assert outside == 0, "the focus left the full-screen panel for the page hidden behind it"


def test_the_widget_is_used_with_the_keyboard_alone_and_keeps_still_with_reduced_motion(
    chromium: Browser, museum_page: str, assistant: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    reduced = {"viewport": DESKTOP, "locale": "en-GB", "reduced_motion": "reduce"}
    with _Browser(chromium, reduced, assistant["url"]) as visit:
        page = visit.page
        page.goto(museum_page)
        widget = visit.widget()
        launcher = widget.locator(".launcher")
        for _ in range(10):  # Tab through the page until the bubble has the focus
            page.keyboard.press("Tab")
            if launcher.evaluate("(e) => e.getRootNode().activeElement === e"):
                break
        expect(launcher).to_be_focused()
        expect(launcher).to_have_attribute("aria-expanded", "false")
        page.keyboard.press("Enter")
        expect(launcher).to_have_attribute("aria-expanded", "true")
        box = widget.locator("textarea")
        expect(box).to_be_focused()
        motion = widget.locator(".panel").evaluate("(e) => getComputedStyle(e).animationName")
        page.keyboard.type("How much is a ticket for the Palace?")
        page.keyboard.press("Enter")
        answer = widget.locator("article.answer").first
        expect(answer).to_have_attribute("aria-busy", "false", timeout=ANSWER_TIMEOUT_MS)
        expect(widget.locator(".root")).to_have_attribute("lang", "en")
        reached = set()
        for _ in range(12):  # back from the input: the answer's feedback, sources and citations
            page.keyboard.press("Shift+Tab")
            reached.add(page.evaluate(FOCUSED_IN_WIDGET))
            if "SUMMARY." in reached and "A.cite" in reached:
                break
        page.keyboard.press("Tab")  # forward again, onto the first source
        page.keyboard.press("Enter")  # opens it, as a click would
        expect(answer.locator("details[open]")).to_have_count(1)
        page.keyboard.press("Escape")
        expect(widget.locator(".panel")).to_be_hidden()
        expect(launcher).to_be_focused()
    assert {"SUMMARY.", "A.cite"} <= reached, reached
    assert motion == "none", "the panel moves although the visitor asked for reduced motion"


def test_a_hostile_passage_is_shown_as_text_and_fetches_nothing(
    chromium: Browser, museum_page: str, assistant: dict[str, Any], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    with _Browser(chromium, {"viewport": DESKTOP, "locale": "fr-FR"}, assistant["url"]) as visit:
        page = visit.page
        page.goto(museum_page)
        visit.open()
        answer = visit.ask("Quand ouvre le pavillon des essais ?", 1)
        answer.locator(".sources summary").first.click()
        expect(answer).to_contain_text("attacker.example")  # written as text, never fetched
        expect(answer.locator("img")).to_have_count(0)
        expect(answer.locator("a[href^='data:'], a[href^='javascript:']")).to_have_count(0)
        page.screenshot(path=_screens(tmp_path) / "widget-desktop-fr-hostile.png")


def test_a_full_conversation_is_worded_in_the_visitors_language_and_its_question_waits_in_a_new_one(
    chromium: Browser,
) -> None:
    """The front door's refusal (409, ``kind`` ``conversation_full``) as the widget draws it; the
    page, the script and the API are played by the browser's routes (no server)."""
    from playwright.sync_api import expect

    full = {"detail": "This conversation has reached its limit…", "kind": "conversation_full"}
    runs: list[str] = []

    def api(path: str, route: Route) -> None:
        if path == "/threads":
            route.fulfill(json={"thread_id": "t-full"})
        elif path.endswith("/runs/stream"):
            runs.append(path)
            route.fulfill(status=409, json=full)
        else:
            route.fulfill(status=404, json={"detail": "not found"})

    french = Labels("fr")
    with _routed_widget(chromium, api) as visit:
        answer_shown = visit.ask("Les chiens sont-ils admis ?", 1)
        expect(answer_shown.locator(".error")).to_have_text(french.error("conversation_full"))
        expect(answer_shown.locator(".kept")).to_have_count(0)  # nothing to ask again here

        answer_shown.get_by_role("button", name=french["new_conversation"]).click()
        widget = visit.widget()
        expect(widget.locator("article")).to_have_count(0)
        expect(widget.locator("textarea")).to_have_value("Les chiens sont-ils admis ?")
        expect(widget.locator("textarea")).to_be_focused()
    assert runs == ["/threads/t-full/runs/stream"]


def test_on_aegra_a_visitor_is_answered_gives_feedback_and_a_full_conversation_goes_on_in_a_new_one(
    chromium: Browser, aegra_museum: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    french = Labels("fr")
    with _Browser(chromium, {"viewport": DESKTOP, "locale": "fr-FR"}, aegra_museum["url"]) as visit:
        page = visit.page
        page.goto(aegra_museum["page"])
        assert urlsplit(page.url).port != urlsplit(aegra_museum["url"]).port  # another origin
        visit.open()
        widget = visit.widget()
        answer = visit.ask("Combien coûte un billet pour le château ?", 1)
        _assert_cited_with_web_sources(answer)
        answer.get_by_role("button", name=french["helpful"], exact=True).click()
        expect(answer.locator(".thanks")).to_have_text(french["feedback_thanks"])

        full = visit.ask("Les chiens sont-ils admis dans les jardins ?", 2)  # past AEGRA_TURN_CAP
        expect(full.locator(".error")).to_have_text(french.error("conversation_full"))
        full.get_by_role("button", name=french["new_conversation"]).click()
        expect(widget.locator("textarea")).to_have_value("Les chiens sont-ils admis dans les jardins ?")
        widget.locator("textarea").press("Enter")
        again = widget.locator("article.answer").first
        expect(again).to_have_attribute("aria-busy", "false", timeout=ANSWER_TIMEOUT_MS)
        expect(again.locator(".error:visible")).to_have_count(0)
        _assert_cited_with_web_sources(again)
        feedback_calls = visit.calls("POST", r"/visitor/feedback")
        created = visit.calls("POST", r"/threads")
        refused_runs = [s for s in visit.calls("POST", r"/threads/[^/]+/runs/stream") if s != 200]
    assert feedback_calls == [204]
    assert created == [200, 200] and refused_runs == [409]
    helpful = [row for row in aegra_museum["questions"].questions() if row.feedback == "helpful"]
    assert len(helpful) == 1 and "billet" in helpful[0].question


def test_on_aegra_a_conversation_the_server_forgot_goes_on_in_a_new_one(
    chromium: Browser, aegra_museum: dict[str, Any]
) -> None:
    with _Browser(chromium, {"viewport": DESKTOP, "locale": "en-GB"}, aegra_museum["url"]) as visit:
        page = visit.page
        page.goto(aegra_museum["page"])
        visit.open()
        visit.ask("How much is a ticket for the Palace?", 1)
        token = page.evaluate(f"() => sessionStorage.getItem('{VISITOR_KEY}')")
        with httpx.Client(base_url=aegra_museum["url"], headers={"Authorization": f"Bearer {token}"}) as api:
            [thread] = api.post("/threads/search", json={}).json()
            assert api.delete(f"/threads/{thread['thread_id']}").status_code in (200, 204)
        answer = visit.ask("Are dogs allowed in the gardens?", 2)
        errors = answer.locator(".error:visible").count()
        _assert_cited_with_web_sources(answer)
        runs = visit.calls("POST", r"/threads/[^/]+/runs/stream")
        created = visit.calls("POST", r"/threads")
    assert errors == 0
    assert runs == [200, 404, 200] and created == [200, 200]  # "unknown conversation": a new one


def test_feedback_the_server_did_not_keep_is_not_thanked_and_can_be_sent_again(chromium: Browser) -> None:
    """The page, the script and the API are played by the browser's routes (no server): the first
    verdict fails (503), the second is kept."""
    from playwright.sync_api import expect

    answered = (
        'event: updates\ndata: {"synthesize": {"reply": {"text": "Le billet coûte 32 €.", "citations": []},'
        ' "language": "fr", "turn_id": "turn-1"}}\n\n'
    )
    verdicts: list[int] = []

    def api(path: str, route: Route) -> None:
        if path == "/threads":
            route.fulfill(json={"thread_id": "t-1"})
        elif path.endswith("/runs/stream"):
            route.fulfill(body=answered, content_type="text/event-stream")
        elif path == "/visitor/feedback":
            verdicts.append(503 if not verdicts else 204)
            route.fulfill(status=verdicts[-1], body=b"" if verdicts[-1] == 204 else b'{"detail": "down"}')
        else:
            route.fulfill(status=404, json={"detail": "not found"})

    french = Labels("fr")
    with _routed_widget(chromium, api) as visit:
        shown = visit.ask("Combien coûte le billet ?", 1)
        helpful = shown.get_by_role("button", name=french["helpful"], exact=True)
        helpful.click()
        expect(shown.locator(".feedback .error")).to_have_text(french["error_other"])
        expect(shown.locator(".thanks")).to_have_count(0)
        helpful.click()
        expect(shown.locator(".thanks")).to_have_text(french["feedback_thanks"])
    assert verdicts == [503, 204]


@contextmanager
def _routed_widget(chromium: Browser, api: Callable[[str, Route], None]) -> Iterator[Visit]:
    """The demo page and the widget, in French on a desktop, with every request answered by the
    browser's own routes (nothing listens on the origin): the page and the script as shipped, the
    API by ``api(path, route)``."""
    origin = f"http://127.0.0.1:{free_port()}"
    page_html = re.sub(r'src="[^"]*visitor-widget\.js"', 'src="visitor-widget.js"', DEMO_PAGE.read_text())
    page_html = re.sub(r'data-api="[^"]*"', f'data-api="{origin}"', page_html)

    def answer(route: Route) -> None:
        path = urlsplit(route.request.url).path
        if path == "/index.html":
            route.fulfill(body=page_html, content_type="text/html")
        elif path == "/visitor-widget.js":
            route.fulfill(body=WIDGET_FILE.read_text(encoding="utf-8"), content_type="text/javascript")
        else:
            api(path, route)

    context = chromium.new_context(viewport=DESKTOP, locale="fr-FR")
    try:
        page = context.new_page()
        page.route(f"{origin}/**", answer)
        page.goto(f"{origin}/index.html")
        visit = Visit(page, origin)
        visit.open()
        yield visit
    finally:
        context.close()
