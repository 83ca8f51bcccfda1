"""The console's insights: what visitors asked, grouped by meaning across languages, and the gaps.

Every visitor's word is untrusted: it is drawn as escaped Markdown or as table cells (text), never
as HTML, a link or an image.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import streamlit as st

from agents.insights.report import Insights, QuestionGroup, build_insights
from agents.official.store import MAX_ANSWER_CHARS, OfficialAnswer, OfficialAnswerError, add_official_answer
from agents.service import AgentService
from app_ui.presenters import escape
from rag.crawl.state import last_checked

logger = logging.getLogger(__name__)
DAY_CHOICES = (7, 30, 90)


def closest_pages(service: AgentService, question: str) -> list[dict[str, str]]:
    """The knowledge base's pages closest to a question, each once."""
    seen: dict[str, dict[str, str]] = {}
    for hit in service.retriever.search(question, k=6):
        seen.setdefault(hit.source, {"title": hit.title, "url": hit.source})
    return list(seen.values())


def load_insights(service: AgentService, days: int) -> Insights | str:
    """The report, or the sentence saying why there is none."""
    if service.questions is None:
        return "The questions log is off (AGENT_QUESTIONS_LOG=false): no insights to show."
    try:
        return build_insights(
            service.questions,
            service.retriever.embedder,
            days,
            search=lambda q: closest_pages(service, q),
            checked=last_checked(service.retriever.settings),
        )
    except Exception as error:  # noqa: BLE001 - the console stays usable; the log says what failed
        logger.warning("Insights could not be computed (%s).", type(error).__name__)
        return f"The insights could not be computed ({type(error).__name__}): see the app's log."


def group_rows(groups: list[QuestionGroup]) -> list[dict[str, object]]:
    """One table row per group: its commonest wording, size, languages and shares (text cells)."""
    return [
        {
            "group": group.id,
            "question": group.label,
            "size": group.size,
            "languages": ", ".join(f"{lang} {count}" for lang, count in group.languages.items()),
            "answered": f"{group.answered:.0%}",
            "partial": f"{group.partial:.0%}",
            "not found": f"{group.not_found:.0%}",
            "not helpful": f"{group.not_helpful:.0%}",
        }
        for group in groups
    ]


def add_official(service: AgentService, question: str, values: dict[str, object]) -> str:
    """Store the operator's official answer for ``question``; the sentence saying what was done."""
    try:
        answer = OfficialAnswer.model_validate({**values, "question": question})
        stored = add_official_answer(
            service.retriever.settings, service.retriever.embedder.embed_queries, answer
        )
    except (OfficialAnswerError, ValueError) as error:
        return f"Not added: {error}"
    if stored.replaced:
        return f"Added official answer {stored.answer.id}: it replaces the same text, source and dates."
    return f"Added official answer {stored.answer.id}: it is searched first from now on."


def render_official_form(service: AgentService, gap: QuestionGroup) -> None:
    """A form writing the official answer to a gap's question (one language; dates optional)."""
    with (
        st.popover("Write the official answer", icon=":material/verified:"),
        st.form(key=f"official-{gap.id}", clear_on_submit=False),
    ):
        text = st.text_area("Answer", max_chars=MAX_ANSWER_CHARS)
        source = st.text_input("Source (an http(s) link)")
        language = st.text_input("Language (ISO code, e.g. fr)", max_chars=5)
        start, end = st.columns(2)
        valid_from = start.date_input("Valid from", value=None)
        valid_until = end.date_input("Valid until", value=None)
        if st.form_submit_button("Add"):
            said = add_official(
                service,
                gap.label,
                {
                    "text": text,
                    "source": source,
                    "language": language.strip(),
                    "valid_from": valid_from,
                    "valid_until": valid_until,
                },
            )
            (st.success if said.startswith("Added") else st.error)(escape(said))


def render_gap(gap: QuestionGroup, service: AgentService | None = None) -> None:
    st.markdown(
        f"**{gap.id}. {escape(gap.label)}** · {gap.failing} failing of {gap.size} · "
        f"not found {gap.not_found:.0%}, partial {gap.partial:.0%}, not helpful {gap.not_helpful:.0%}"
    )
    for language, examples in gap.examples.items():
        st.caption(f"{escape(language)}: " + " · ".join(escape(example) for example in examples))
    if gap.missing:
        st.caption("Missing: " + "; ".join(escape(part) for part in gap.missing))
    if gap.comments:
        st.caption("Visitors said: " + "; ".join(escape(comment) for comment in gap.comments))
    if gap.pages:
        st.caption("Closest pages: " + "; ".join(escape(f"{p['title']} ({p['url']})") for p in gap.pages))
    if service is not None:
        render_official_form(service, gap)


def render_stale(report: Insights) -> None:
    """The pages visitors were shown most whose last check by the crawler is old (or unknown)."""
    st.markdown(f"**Cited pages not re-checked for {report.stale_after_days} days**")
    if not report.stale_sources:
        st.caption("None: every cited web page was checked recently.")
        return
    st.dataframe(
        [
            {
                "page": source.url,
                "citations": source.citations,
                "last checked": datetime.fromtimestamp(source.last_checked, UTC).date().isoformat()
                if source.last_checked
                else "never",
            }
            for source in report.stale_sources
        ],
        hide_index=True,
    )


def render_insights(service: AgentService | None) -> None:
    """An expander with the insights of the last N days, computed when the operator asks."""
    # open once insights were asked for: a rerun must not fold away what the operator asked to see
    opened = st.session_state.get("insights") is not None
    with st.expander("Visitor insights", icon=":material/insights:", expanded=opened):
        if service is None:
            st.caption("The assistant is not running: insights need its questions log.")
            return
        days = st.segmented_control("Last days", DAY_CHOICES, default=30, key="insights-days") or 30
        if st.button("Show insights", key="insights-show", icon=":material/query_stats:"):
            st.session_state.insights = load_insights(service, int(days))
            if not opened:
                st.rerun()  # drawn again, open, with the report
        report = st.session_state.get("insights")
        if report is None:
            return
        if isinstance(report, str):
            st.warning(report, icon=":material/warning:")
            return
        questions, groups, gaps = st.columns(3)
        questions.metric("Questions", report.questions)
        groups.metric("Groups", len(report.groups))
        gaps.metric("Content gaps", len(report.gaps))
        if report.by_day:
            st.bar_chart(report.by_day, x_label="day", y_label="questions")
        st.dataframe(
            [{"language": k, "questions": v} for k, v in report.by_language.items()], hide_index=True
        )
        st.markdown("**Questions grouped by meaning**")
        st.dataframe(group_rows(report.groups), hide_index=True)
        st.markdown("**Content gaps** (most often not found, partial or not helpful)")
        for gap in report.gaps:
            render_gap(gap, service)
        render_stale(report)
        st.caption("Export: `python -m agents insights --csv DIR` (same database).")
