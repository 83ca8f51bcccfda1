"""The app in a real browser: ``streamlit run`` on 127.0.0.1, Debian's chromium driven by Playwright.

A Japanese visitor on a phone and a French visitor on a desktop ask over the bundled corpus (real
local embeddings, the offline model) and get cited answers in their language with clean sources;
an operator opens the console and the trace inspector. Every request the browser makes is
recorded: none may leave 127.0.0.1. Screenshots go to ``$E2E_SCREENSHOTS`` (default: a temporary
folder); look at them after a layout change. The app and its index are in conftest.py: the
feedback test (test_browser_feedback.py) runs against the same server.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from app_ui.labels import Labels

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ANSWER_TIMEOUT_MS = 60_000
FILE_PATH = re.compile(r"\b[\w-]+/[\w./ -]+\.(?:md|jsonl|txt)\b")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _ask(page: Any, question: str, turn: int, sources: str = "Sources") -> Any:
    """Type ``question``, send it, and wait for the ``turn``-th answer to list its sources and the
    page's run to end (while it runs, Streamlit may still show the elements of the run before)."""
    from playwright.sync_api import expect

    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    answer = page.get_by_test_id("stChatMessage").nth(2 * turn - 1)
    expect(answer).to_contain_text(sources, timeout=ANSWER_TIMEOUT_MS)
    expect(answer.get_by_test_id("stExpander").first).to_be_visible()
    expect(page.get_by_test_id("stStatusWidgetRunningIcon")).to_have_count(0, timeout=ANSWER_TIMEOUT_MS)
    return answer


def _scroll_to_top_of(element: Any) -> None:
    """Scroll ``element`` to the top of the view, once the page has settled (a chat sticks to its end)."""
    element.page.wait_for_timeout(400)
    element.evaluate("e => e.scrollIntoView({block: 'start'})")
    element.page.wait_for_timeout(200)


def _shoot_answer_and_first_source(answer: Any, answer_shot: Path, source_shot: Path) -> None:
    """The cited answer from its top, then its first source opened in place."""
    from playwright.sync_api import expect

    expect(answer).to_contain_text("[1]")
    _scroll_to_top_of(answer)
    answer.page.screenshot(path=answer_shot)
    source = answer.get_by_test_id("stExpander").first
    source.click()
    _scroll_to_top_of(source)
    answer.page.screenshot(path=source_shot)


def _visible_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def _labels_text(page: Any) -> str:
    """The page's text but the cited sources (their titles and passages): what the app itself writes."""
    return str(
        page.evaluate(
            """() => { const copy = document.body.cloneNode(true);
                copy.querySelectorAll('[data-testid="stExpander"]').forEach((e) => e.remove());
                return copy.textContent; }"""
        )
    )


def _screens(tmp_path: Path) -> Path:
    shots = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def test_a_japanese_visitor_on_a_phone_sees_only_japanese_and_clean_sources_and_the_page_passes_axe(
    chromium: Browser, axe: Path, app_url: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    japanese, english = Labels("ja"), Labels("en")
    shots = _screens(tmp_path)
    phone = {"viewport": PHONE, "locale": "ja-JP", "device_scale_factor": 2, "is_mobile": True}
    with _browser_page(chromium, **phone) as page:
        page.goto(app_url)
        expect(page.get_by_text(japanese["title"])).to_be_visible(timeout=60_000)
        expect(page.get_by_test_id("stChatInputTextArea")).to_have_attribute(
            "placeholder", japanese["placeholder"]
        )
        expect(page.get_by_text(japanese["examples"][0])).to_be_visible()
        assert page.evaluate("() => window.scrollY") == 0, "the page opened scrolled down"
        page.screenshot(path=shots / "phone-ja-1-start.png")

        answer = _ask(page, "宮殿の開館時間を教えてください。", 1, japanese["sources"])
        _shoot_answer_and_first_source(
            answer, shots / "phone-ja-2-answer.png", shots / "phone-ja-3-source-opened.png"
        )

        text = _visible_text(page)
        assert not FILE_PATH.search(text), FILE_PATH.search(text)
        labels = _labels_text(page)  # a source may be in English where no Japanese one exists
        for key in ("title", "subtitle", "sources", "new_conversation", "offline_notice", "thinking"):
            assert english[key] not in labels, key
        assert japanese["new_conversation"] in text
        expect(page.get_by_test_id("stChatInputTextArea")).to_have_attribute(
            "placeholder", japanese["placeholder"]
        )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], "overflow"
        assert not page.get_by_test_id("stSidebar").is_visible()

        problems = _serious_violations(page, axe)  # the answer, its first source opened
        lang = page.evaluate("() => document.documentElement.lang")
        announced = page.locator("#visitor-live[role=status][aria-live=polite]").text_content()
        skip = page.get_by_test_id("stSkipToContent").text_content()
        send = page.get_by_test_id("stChatInputSubmitButton").get_attribute("aria-label")
        names = [m.get_attribute("aria-label") for m in page.get_by_test_id("stChatMessageContent").all()]
    assert not problems, "\n".join(problems)
    assert lang == "ja"
    assert announced == japanese["answer_ready"]
    assert (skip, send) == (japanese["skip_link"], japanese["send_message"])
    assert names == [japanese["user_message"], japanese["assistant_message"]]


def test_a_french_visitor_on_a_desktop_passes_axe_then_a_hostile_passage(
    chromium: Browser, axe: Path, app_url: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    french = Labels("fr")
    shots = _screens(tmp_path)
    with _browser_page(chromium, viewport=DESKTOP, locale="fr-FR") as page:
        page.goto(app_url)
        expect(page.get_by_text(french["title"])).to_be_visible(timeout=60_000)
        page.screenshot(path=shots / "desktop-fr-1-start.png")

        answer = _ask(page, "Quels sont les horaires d'ouverture du château ?", 1, french["sources"])
        _shoot_answer_and_first_source(
            answer, shots / "desktop-fr-2-answer.png", shots / "desktop-fr-3-source-opened.png"
        )
        assert not FILE_PATH.search(_visible_text(page))
        problems = _serious_violations(page, axe)  # the answer, its first source opened
        lang = page.evaluate("() => document.documentElement.lang")

        hostile = _ask(page, "Quand ouvre le pavillon des essais ?", 2, french["sources"])
        hostile.get_by_test_id("stExpander").first.click()
        expect(hostile).to_contain_text("attacker.example")  # shown as text, never fetched
        expect(hostile.locator("img")).to_have_count(0)
        expect(hostile.locator("a[href^='data:'], a[href^='javascript:']")).to_have_count(0)
        _scroll_to_top_of(hostile)
        page.screenshot(path=shots / "desktop-fr-4-hostile-passage.png")
    assert not problems, "\n".join(problems)
    assert lang == "fr"


# Records the text of the newest assistant bubble at every change of the page, while it streams.
RECORD_STREAM = """() => {
  window.streamed = [];
  new MutationObserver(() => {
    const bubbles = document.querySelectorAll('[data-testid="stChatMessage"]');
    const last = bubbles[bubbles.length - 1];
    if (last) window.streamed.push(last.innerText);
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""
CITED = re.compile(r"\[(\d+)\]")


def test_the_citation_numbers_shown_while_streaming_are_the_final_ones(
    chromium: Browser, app_url: str
) -> None:
    from playwright.sync_api import expect

    with _browser_page(chromium, viewport=DESKTOP, locale="en-GB") as page:
        page.goto(app_url)
        expect(page.get_by_test_id("stChatInputTextArea")).to_be_visible(timeout=60_000)
        page.evaluate(RECORD_STREAM)
        answer = _ask(page, "What are the opening hours of the palace and how much is a ticket?", 1)
        final = CITED.findall(answer.inner_text().split(Labels("en")["sources"])[0])
        streamed = [CITED.findall(text) for text in page.evaluate("() => window.streamed") if "▌" in text]

    partial = [numbers for numbers in streamed if numbers]
    assert len(final) >= 2 and len(set(final)) >= 2, final
    assert partial, "no citation was seen while the answer streamed"
    for numbers in partial:  # each state seen while streaming reads as the start of the final answer
        assert numbers == final[: len(numbers)], (numbers, final)


def test_a_weather_question_after_a_travel_question_gets_a_weather_answer(
    chromium: Browser, app_url: str
) -> None:
    with _browser_page(chromium, viewport=PHONE, locale="fr-FR") as page:
        page.goto(app_url)
        page.get_by_test_id("stChatInputTextArea").wait_for(timeout=60_000)
        travel = _answer(page, "Comment venir au château en train depuis la gare Montparnasse ?", 1)
        weather = _answer(page, "Et la météo prévue pour samedi à Versailles ?", 2)
        hours = _answer(page, "À quelle heure ouvre le château ?", 3)

    assert "Montparnasse" in travel
    assert "°C" in weather and "Montparnasse" not in weather
    assert "°C" not in hours and "Montparnasse" not in hours


def test_a_question_the_knowledge_base_does_not_answer_is_declined_with_related_passages(
    chromium: Browser, app_url: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from rag.lexicon.phrases import replies

    declined = replies("fr")["abstain"].split("{url}")[0].strip()
    with _browser_page(chromium, viewport=DESKTOP, locale="fr-FR") as page:
        page.goto(app_url)
        page.get_by_test_id("stChatInputTextArea").wait_for(timeout=60_000)
        answer = _ask(
            page, "Combien de visiteurs japonais sont venus au château en 2019 ?", 1, Labels("fr")["related"]
        )  # the passages offered are listed as related pages, not as the answer's sources
        expect(answer).to_contain_text(declined)
        expect(answer).to_contain_text(replies("fr")["related"].split("{")[0].strip()[:20])
        answer.get_by_test_id("stExpander").first.click()
        _scroll_to_top_of(answer)
        page.screenshot(path=_screens(tmp_path) / "desktop-fr-5-declined-with-related.png")


def _answer(page: Any, question: str, turn: int) -> str:
    """Send ``question`` and return the text of the ``turn``-th answer once it is complete."""
    from playwright.sync_api import expect

    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    answer = page.get_by_test_id("stChatMessage").nth(2 * turn - 1)
    expect(answer).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
    still_writing = re.compile("▌|" + re.escape(Labels("fr")["thinking"]))
    before = ""
    for _ in range(ANSWER_TIMEOUT_MS // 500):  # written, and the same twice in a row
        page.wait_for_timeout(500)
        text = str(answer.inner_text())
        if text == before and len(text) > 40 and not still_writing.search(text):
            return text
        before = text
    raise AssertionError(f"answer {turn} did not finish: {before!r}")


def test_an_operator_opens_the_console_and_the_trace_and_it_passes_axe(
    chromium: Browser, axe: Path, app_url: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    shots = _screens(tmp_path)
    with _browser_page(chromium, viewport=DESKTOP, locale="en-GB") as page:
        page.goto(f"{app_url}/console")
        expect(page.get_by_text("Offline model: extractive answers")).to_be_visible(timeout=60_000)
        expect(page.get_by_test_id("stSidebar")).to_contain_text("Chunks")
        page.screenshot(path=shots / "console-1-start.png")

        english = _ask(page, "How much is a ticket for the Palace?", 1)
        steps = english.get_by_test_id("stExpander").first
        steps.get_by_text("steps in").click()
        expect(steps).to_contain_text("Critique, round 1")
        page.screenshot(path=shots / "console-2-steps.png")

        english.get_by_text("Trace inspector").click()
        inspector = english.get_by_test_id("stExpander").last
        expect(inspector.get_by_role("tab", name="Timeline")).to_be_visible()
        expect(inspector).to_contain_text("Visitor's wait")
        inspector.scroll_into_view_if_needed()
        page.screenshot(path=shots / "console-3-trace-timeline.png")
        inspector.get_by_role("tab", name="Retrieval").click()
        expect(inspector).to_contain_text("Query:")
        expect(inspector.locator("[data-testid=stDataFrame]:visible").first).to_be_visible()
        page.wait_for_timeout(500)
        page.screenshot(path=shots / "console-4-trace-retrieval.png")
        inspector.get_by_role("tab", name="Graph").click()
        drawing = inspector.get_by_test_id("stGraphVizChart")
        expect(drawing.locator("svg")).to_be_visible(timeout=20_000)
        drawing.scroll_into_view_if_needed()
        page.screenshot(path=shots / "console-5-trace-graph.png")
        problems = _serious_violations(page, axe)  # the steps and the trace inspector's graph opened
    assert not problems, "\n".join(problems)


@contextmanager
def _browser_page(chromium: Browser, **options: Any) -> Iterator[Any]:
    """A page in a fresh context of the browser; every request it makes must stay on 127.0.0.1."""
    requested: list[str] = []
    context = chromium.new_context(**options)
    try:
        page = context.new_page()
        page.on("request", lambda request: requested.append(request.url))
        yield page
    finally:
        context.close()
    _assert_stayed_local(requested)


def _before_any(text: str, markers: tuple[str, ...]) -> str:
    """``text`` up to the first of ``markers`` it holds."""
    for marker in markers:
        text = text.split(marker)[0]
    return text.strip()


def _assert_stayed_local(requested: list[str]) -> None:
    elsewhere = sorted({url for url in requested if urlsplit(url).hostname != "127.0.0.1"})
    assert not elsewhere, f"the browser requested other hosts: {elsewhere}"
    assert requested, "no request was recorded"


def test_two_questions_100_ms_apart_are_both_answered_and_a_reload_keeps_them(
    chromium: Browser, app_url: str
) -> None:
    from playwright.sync_api import expect

    english = Labels("en")
    first, second = english["examples"][0], english["examples"][1]
    with _browser_page(chromium, viewport=DESKTOP, locale="en-GB") as page:
        page.goto(app_url)
        box = page.get_by_test_id("stChatInputTextArea")
        box.wait_for(timeout=60_000)
        box.fill(first)
        box.press("Enter")
        page.wait_for_timeout(100)
        # Sent 100 ms later as a visitor would: into the box if it still takes input (the server
        # queues it), else as soon as the box takes input again. Forcing a disabled box open with a
        # script raced the page's own redraw; the queue itself is tested in tests/unit/test_turn_worker.py.
        box.fill(second, timeout=ANSWER_TIMEOUT_MS)
        box.press("Enter")
        messages = page.get_by_test_id("stChatMessage")
        expect(messages).to_have_count(4, timeout=ANSWER_TIMEOUT_MS)
        for answer in (messages.nth(1), messages.nth(3)):
            expect(answer).to_contain_text(english["sources"], timeout=ANSWER_TIMEOUT_MS)
        expect(messages.nth(0)).to_contain_text(first)
        expect(messages.nth(2)).to_contain_text(second)
        expect(box).to_be_enabled()
        # The last run redraws the page and clears what the interrupted runs left: wait for it.
        expect(page.get_by_test_id("stStatusWidgetRunningIcon")).to_have_count(0, timeout=ANSWER_TIMEOUT_MS)
        page.wait_for_timeout(500)
        before = [messages.nth(n).inner_text() for n in range(4)]
        assert "c=web-" in page.url

        page.reload()
        expect(messages).to_have_count(4, timeout=60_000)
        # The page draws a restored answer in steps: read it once its suggested questions, drawn last, show.
        expect(messages.nth(3)).to_contain_text(english["follow_ups"], timeout=60_000)
        after = [messages.nth(n).inner_text() for n in range(4)]
    # Each question and answer as shown (an older turn's sources may be pruned with its checkpoints),
    # and each answer with its feedback buttons again.
    answer_ends = (english["sources"], english["feedback_question"])
    for shown, restored in zip(before, after, strict=True):
        assert _before_any(restored, answer_ends) == _before_any(shown, answer_ends)
    assert all(english["feedback_question"] in after[n] for n in (1, 3))
    ends = (english["feedback_question"], english["follow_ups"])  # what follows the answer itself
    newest = [_before_any(text, ends) for text in (after[3], before[3])]
    assert newest[0] == newest[1]  # the newest answer: its sources too
    assert english["follow_ups"] in after[3]  # and its suggested questions


AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def _serious_violations(page: Any, axe: Path) -> list[str]:
    """axe-core's serious and critical WCAG 2.2 AA violations on the page as it is now."""
    page.add_script_tag(path=str(axe))
    violations = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}})).violations",
        AXE_RULES,
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[node['target'] for node in v['nodes']][:4]}"
        for v in violations
        if v["impact"] in {"serious", "critical"}
    ]


ZOOMED = {"width": 640, "height": 450}  # a 1280 x 900 desktop window at 200 % zoom, in CSS pixels


def test_at_200_percent_zoom_the_answer_its_official_link_and_the_input_fit_and_a_follow_up_is_keyboard_asked(
    chromium: Browser, app_url: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    french = Labels("fr")
    zoomed = {"viewport": ZOOMED, "locale": "fr-FR", "device_scale_factor": 2}
    with _browser_page(chromium, **zoomed) as page:
        page.goto(app_url)
        answer = _ask(page, "Combien coûte un billet pour le château ?", 1, french["sources"])
        expect(answer).to_contain_text(french["follow_ups"])
        source = answer.get_by_test_id("stExpander").first
        source.click()
        link = source.get_by_role("link", name=french.say("open_page", site="chateauversailles.fr"))
        expect(link).to_have_attribute(
            "href", re.compile(r"^https://www\.chateauversailles\.fr/preparer-ma-visite/")
        )
        _scroll_to_top_of(answer)
        page.screenshot(path=_screens(tmp_path) / "zoom-200-fr-answer.png")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        box = page.get_by_test_id("stChatInputTextArea")
        expect(box).to_be_in_viewport()
        wide = page.evaluate(
            """(limit) => [...document.querySelectorAll('[data-testid="stChatMessage"] *')]
                 .filter((e) => e.getBoundingClientRect().right > limit + 1 && e.offsetParent !== null)
                 .map((e) => e.tagName + ' ' + (e.getAttribute('data-testid') || '') + ' ' +
                      Math.round(e.getBoundingClientRect().right))""",
            ZOOMED["width"],
        )
        follow_up = answer.locator("[class*='st-key-follow-up-0'] button")
        follow_up.scroll_into_view_if_needed()
        expect(follow_up).to_be_in_viewport()
        question = follow_up.locator("p").inner_text()  # without the icon's ligature name
        follow_up.focus()
        page.keyboard.press("Enter")  # the keyboard asks it, as a click would
        second = page.get_by_test_id("stChatMessage").nth(3)
        expect(page.get_by_test_id("stChatMessage").nth(2)).to_contain_text(
            question, timeout=ANSWER_TIMEOUT_MS
        )
        expect(second).to_contain_text(french["sources"], timeout=ANSWER_TIMEOUT_MS)
        expect(box).to_be_in_viewport()
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at 200 %"
    assert not wide, wide
