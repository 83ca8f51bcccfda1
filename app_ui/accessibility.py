"""What Streamlit leaves out for assistive technology, added to the visitor page (WCAG 2.2 AA).

Streamlit writes ``<html lang="en">`` and English accessible names ("Skip to main content",
"Send message", "Chat message from assistant") whatever the page's language, announces nothing
when an answer arrives, and greys captions and quotes below 4.5:1. One small script in the page
sets the document's language and those names in the visitor's language (again whenever Streamlit
redraws them), and says "the answer is ready" in a polite live region; one style sheet raises the
contrast and shows the keyboard focus.
"""

from __future__ import annotations

import json

import streamlit as st

from app_ui.labels import Labels

# Captions and quoted passages keep the page's own text colour (light or dark theme) and are
# faded by opacity only as far as 4.5:1 allows (about 6:1 on white at 0.82).
STYLE = """<style>
[data-testid="stCaptionContainer"], [data-testid="stMarkdownContainer"] blockquote {
  color: inherit !important; opacity: 0.82; }
[data-testid="stCaptionContainer"] *, [data-testid="stMarkdownContainer"] blockquote * {
  color: inherit !important; }
a:focus-visible, button:focus-visible, textarea:focus-visible, summary:focus-visible,
[tabindex]:focus-visible { outline: 3px solid #1b4f9c !important; outline-offset: 2px; }
#visitor-live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  white-space: nowrap; }
</style>"""

SCRIPT = """<script>
(() => {
  window.visitorPage = %s;
  const page = window.visitorPage;
  const set = (element, name, value) => {
    if (element.getAttribute(name) !== value) element.setAttribute(name, value);
  };
  const apply = () => {
    const labels = window.visitorPage;
    set(document.documentElement, "lang", labels.lang);
    document.querySelectorAll('[data-testid="stSkipToContent"]').forEach((link) => {
      if (link.textContent !== labels.skip) link.textContent = labels.skip;
    });
    document.querySelectorAll('[data-testid="stChatInputSubmitButton"]').forEach((button) =>
      set(button, "aria-label", labels.send));
    document.querySelectorAll('[data-testid="stChatMessageContent"]').forEach((content) => {
      const message = content.closest('[data-testid="stChatMessage"]');
      const user = message && message.querySelector('[data-testid="stChatMessageAvatarUser"]');
      set(content, "aria-label", user ? labels.user : labels.assistant);
    });
  };
  let live = document.getElementById("visitor-live");
  if (!live) {
    live = document.createElement("div");
    live.id = "visitor-live";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    document.body.appendChild(live);
  }
  // A reload restores answers already read: only an answer finished in this page is announced.
  if (window.visitorAnswered !== undefined && page.answered > window.visitorAnswered) {
    live.textContent = "";
    setTimeout(() => { live.textContent = page.ready; }, 200);
    // The input was disabled while the answer was written, which took its focus: give it back
    // to a keyboard and mouse user (on a phone that would pop the keyboard over the answer).
    if (window.matchMedia("(pointer: fine)").matches) {
      setTimeout(() => {
        const box = document.querySelector('[data-testid="stChatInputTextArea"]');
        if (box && !box.disabled && document.activeElement === document.body) box.focus();
      }, 400);
    }
  }
  window.visitorAnswered = page.answered;
  if (!window.visitorObserver) {
    window.visitorObserver = new MutationObserver(apply);
    window.visitorObserver.observe(document.documentElement, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["lang", "aria-label"],
    });
  }
  apply();
})();
</script>"""


def page_accessibility(labels: Labels, answered: int) -> None:
    """The page's language, accessible names and announcements; ``answered``: answers shown."""
    settings = {
        "lang": labels.locale,
        "skip": str(labels["skip_link"]),
        "send": str(labels["send_message"]),
        "assistant": str(labels["assistant_message"]),
        "user": str(labels["user_message"]),
        "ready": str(labels["answer_ready"]),
        "answered": answered,
    }
    # Our own constant script with JSON-encoded labels (no visitor text): safe to run.
    payload = json.dumps(settings, ensure_ascii=True).replace("<", "\\u003c")
    st.html(STYLE + SCRIPT % payload, unsafe_allow_javascript=True)


CONSOLE_SCRIPT = """<script>
(() => {
  // A scrollable block (the graph's source, long payloads) must be reachable with the keyboard.
  const focusable = () => document.querySelectorAll("pre:not([tabindex])").forEach((block) =>
    block.setAttribute("tabindex", "0"));
  if (!window.consoleObserver) {
    window.consoleObserver = new MutationObserver(focusable);
    window.consoleObserver.observe(document.body, {childList: true, subtree: true});
  }
  focusable();
})();
</script>"""


def console_accessibility() -> None:
    """The console's contrast, keyboard focus and keyboard access to scrollable blocks."""
    st.html(STYLE + CONSOLE_SCRIPT, unsafe_allow_javascript=True)
