"""Feedback and insights in a real browser: a German visitor marks an answer not helpful with a
comment; the operator's insights then list that question as a gap. Screenshots go to
``$E2E_SCREENSHOTS`` (the insights one is ``docs/screenshots/console-insights.png``). The app is the
one test_browser.py drives (conftest.py): its insights also hold the other tests' questions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app_ui.labels import Labels
from tests.e2e.test_browser import DESKTOP, _ask, _browser_page, _screens

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
QUESTION = "Was kostet ein Ticket für das Schloss?"


def test_feedback_from_the_visitor_page_reaches_the_insights(
    chromium: Browser, app_url: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    german = Labels("de")
    shots = _screens(tmp_path)
    with _browser_page(chromium, viewport=DESKTOP, locale="de-DE") as page:
        page.goto(app_url)
        expect(page.get_by_text(german["title"])).to_be_visible(timeout=60_000)
        answer = _ask(page, QUESTION, 1, german["sources"])
        expect(answer.get_by_text(german["feedback_question"])).to_be_visible()

        answer.get_by_role("button", name=german["not_helpful"]).click()
        comment = page.get_by_label(german["feedback_comment"])
        comment.fill("Der Preis für Kinder fehlt.")
        comment.press("Enter")
        page.get_by_role("button", name=german["feedback_send"], exact=True).click()
        expect(page.get_by_text(german["feedback_thanks"])).to_be_visible(timeout=20_000)
        page.screenshot(path=shots / "visitor-feedback-de.png")

    with _browser_page(chromium, viewport=DESKTOP, locale="en-GB") as page:
        page.goto(f"{app_url}/console")
        expect(page.get_by_text("Visitor insights")).to_be_visible(timeout=60_000)
        # Opened while the page's first run still draws (the chat input comes last), the expander was
        # seen drawn again closed: wait for the run to end.
        expect(page.get_by_test_id("stChatInputTextArea")).to_be_visible(timeout=60_000)
        expect(page.get_by_test_id("stStatusWidgetRunningIcon")).to_have_count(0, timeout=60_000)
        page.get_by_text("Visitor insights").click()
        page.get_by_role("button", name="Show insights").click()
        gaps = page.get_by_text("Content gaps (most often")
        expect(gaps).to_be_visible(timeout=120_000)
        expect(page.get_by_text("Der Preis für Kinder fehlt.", exact=False)).to_be_visible()
        page.get_by_test_id("stExpander").first.scroll_into_view_if_needed()
        for table in page.get_by_test_id("stDataFrame").all():  # drawn on a canvas once loaded
            table.scroll_into_view_if_needed()
            expect(table.locator("canvas").first).to_be_visible(timeout=20_000)
        page.get_by_test_id("stExpander").first.scroll_into_view_if_needed()
        page.wait_for_timeout(800)
        page.screenshot(path=shots / "console-insights.png", full_page=True)
