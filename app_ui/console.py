"""The operator console (``/console``): settings, knowledge base, indexing, live steps, trace inspector.

Closed unless an operator password is configured and entered; with none, open only where the
operator opted in, to a browser on the machine itself (see :func:`app_ui.support.console_access`).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from agents.events import ErrorOccurred
from agents.service import AgentService
from app_ui.accessibility import console_accessibility
from app_ui.calendar_view import render_visit_calendar
from app_ui.conversation import stream_answer
from app_ui.insights import render_insights
from app_ui.labels import Labels
from app_ui.login_guard import LoginGuard, client_address
from app_ui.presenters import (
    Turn,
    escape,
    graph_dot,
    payloads_by_name,
    retrieval_tables,
    timeline_rows,
    totals,
    visited_nodes,
)
from app_ui.session import ensure_session, render_answer, render_question, start_session, take_question
from app_ui.settings_view import current_settings, graph_mermaid, settings_summary
from app_ui.shared_service import get_service, load_service
from app_ui.support import (
    CONSOLE_CLOSED,
    INDEXING_ERRORS,
    OFFLINE_NOTICE,
    SERVICE_ERRORS,
    AppSettings,
    console_access,
    error_message,
    operator_password,
    password_matches,
)
from app_ui.upload_guard import allow_uploads
from rag.config import DEFAULT_CORPUS, RagSettings
from rag.crawl.state import CrawlStateError
from rag.stats import crawl_freshness, knowledge_base_stats
from rag.uploads import (
    UPLOAD_SUFFIXES,
    index_with_uploads,
    list_uploads,
    prune_preview,
    remove_upload,
    save_uploads,
)

ENGLISH = Labels("en")


def _secrets() -> dict[str, Any]:
    try:
        return dict(st.secrets.to_dict())
    except Exception:  # noqa: BLE001 - no secrets file is the usual case
        return {}


@st.cache_resource(show_spinner=False)
def login_guard() -> LoginGuard:
    """Failed logins of every session of this process (an attacker opens as many as they like)."""
    return LoginGuard()


def operator_allowed() -> bool:
    """Draw the password form or the closed notice unless this session may use the console."""
    password = operator_password(_secrets())
    headers = dict(st.context.headers)
    client = client_address(st.context.ip_address, headers)
    address = str(st.get_option("server.address") or "")
    access = console_access(password, address, st.context.ip_address, headers, AppSettings().local_console)
    if access == "open" or st.session_state.get("operator"):
        return True
    st.title("Operator console", anchor=False)
    if access == "closed" or password is None:
        st.error(CONSOLE_CLOSED, icon=":material/lock:")
        return False
    with st.form("login"):
        given = st.text_input("Operator password", type="password")
        if st.form_submit_button("Open the console", key="login"):
            _check_password(given, password, client)
    return False


def _check_password(given: str, password: str, client: str | None) -> None:
    """Open the console, or say the password is wrong; after a few failures, say when to retry."""
    keys = [f"session:{st.session_state.setdefault('login_key', uuid.uuid4().hex)}", f"client:{client}"]
    wait = login_guard().wait_seconds(keys)
    if wait:  # not even checked: a guess during the wait tells nothing
        st.error(f"Too many wrong passwords: try again in {wait} s.", icon=":material/timer:")
    elif password_matches(given, password):
        login_guard().succeeded(keys)
        st.session_state.operator = True
        st.rerun()
    else:
        login_guard().failed(keys)
        st.error("Wrong password.", icon=":material/lock:")


def render_inspector(turn: Turn, service: AgentService | None) -> None:
    timeline, retrieval, payloads, graph = st.tabs(["Timeline", "Retrieval", "Payloads", "Graph"])
    final = turn.final
    with timeline:
        figures = totals(turn)
        if figures:
            st.markdown(" · ".join(f"**{name}** {escape(value)}" for name, value in figures.items()))
        st.dataframe(timeline_rows(turn.events), hide_index=True)
    with retrieval:
        shown = final.reply.shown_numbers() if final else {}
        tables = retrieval_tables(turn.events, final.passage_numbers if final else {}, shown)
        if not tables:
            st.caption("No knowledge-base search this turn.")
        else:
            st.caption(
                "passage: the agent's evidence number, stable across searches; cited as: the answer's number."
            )
        for query, rows in tables:
            st.markdown(f"Query: **{escape(query)}**")
            st.dataframe(rows, hide_index=True)
    with payloads:
        st.caption(f"{len(turn.events)} events ({turn.answer_tokens} streamed answer tokens not listed).")
        st.json(payloads_by_name(turn.events), expanded=1)
    with graph:
        if service is None:
            st.caption("The graph is drawn once the service is running.")
            return
        st.graphviz_chart(graph_dot(service.graph.get_graph(), visited_nodes(turn)))
        st.caption("Nodes this turn ran are filled; dashed edges are conditional. LangGraph's Mermaid:")
        st.code(graph_mermaid(service), language="text", height=200)


def render_turn(turn: Turn, service: AgentService | None) -> None:
    render_question(turn.question)
    with st.chat_message("assistant"):
        if turn.steps:
            state: Any = "error" if turn.error is not None else "complete"
            with st.status(turn.status_label(), state=state, expanded=False):
                for line in turn.steps:
                    st.markdown(line)
        render_answer(turn, ENGLISH, operator=True)
        if turn.steps and (turn.final or len(turn.events) > 1):  # not for a turn refused before it began
            with st.expander("Trace inspector", icon=":material/troubleshoot:"):
                render_inspector(turn, service)


def run_turn(question: str, service: AgentService | None, problem: str | None) -> None:
    turn = Turn(question)
    st.session_state.turns.append(turn)
    render_question(question)
    with st.chat_message("assistant"):
        if service is None:
            turn.add(ErrorOccurred(message=problem or "The assistant is not available."))
            render_answer(turn, ENGLISH, operator=True)
            return
        stream_answer(turn, service, ENGLISH, operator=True)
        if turn.steps and (turn.final or len(turn.events) > 1):
            with st.expander("Trace inspector", icon=":material/troubleshoot:"):
                render_inspector(turn, service)


def render_knowledge_base(settings: RagSettings) -> None:
    st.subheader("Knowledge base")
    try:
        rows = knowledge_base_stats(settings)
    except SERVICE_ERRORS as error:
        st.warning(str(error), icon=":material/warning:")
        return
    for row in rows:
        documents, chunks = st.columns(2)
        documents.metric("Documents", row["documents"] if row["documents"] is not None else "?")
        chunks.metric("Chunks", row["chunks"])
        complete = "" if row["complete"] else " · **incomplete: index again**"
        st.caption(
            f"Collection `{row['collection']}` · embedding `{row['embedding_model']}` "
            f"({row['embedding_dimension']} dimensions) · corpus language "
            f"{', '.join(row['languages']) or '?'}{complete}"
        )


def render_crawl(settings: RagSettings) -> None:
    """When each crawled page was last fetched and what the last crawl run changed."""
    try:
        freshness = crawl_freshness(settings)
    except CrawlStateError as error:  # the sentence says which file to move aside
        st.warning(str(error), icon=":material/warning:")
        return
    if freshness is None:
        return
    with st.expander(f"Website crawl ({len(freshness.sources)} pages)", icon=":material/travel_explore:"):
        run = freshness.last_run
        if run is not None:
            started = datetime.fromtimestamp(run.started_at, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")
            outcomes = ", ".join(f"{count} {outcome}" for outcome, count in sorted(run.outcomes.items()))
            st.markdown(f"**Last run** {started} · {run.requests} requests · {escape(outcomes or 'nothing')}")
            for outcome, urls in sorted(run.changes.items()):
                st.caption(f"{outcome}: " + ", ".join(escape(url) for url in urls[:20]))
        st.dataframe(
            [
                {
                    "page": source.url,
                    "live": source.live,
                    "last fetched": source.last_fetched,
                    "last changed": source.last_changed,
                    "last outcome": source.last_outcome or "",
                }
                for source in freshness.sources
            ],
            hide_index=True,
        )


def _remove_uploaded(name: str, settings: RagSettings) -> None:
    try:
        removed = remove_upload(name, settings)
    except INDEXING_ERRORS as error:
        st.session_state.index_error = error_message(error)
        return
    get_service.clear()
    st.session_state.index_message = f"Removed {name} and its {removed} chunks."


def render_uploads(settings: RagSettings) -> None:
    uploads = list_uploads(settings)
    with st.expander(f"Uploaded files ({len(uploads)} of {settings.upload_max_files})"):
        st.caption(f"At most {settings.upload_max_mb:g} MB a file.")
        for number, upload in enumerate(uploads):
            name, remove = st.columns([4, 1])
            name.markdown(f"{escape(upload.name)} · {upload.size / 1024:.0f} KB")
            remove.button(
                "Remove",
                key=f"remove-upload-{number}",
                icon=":material/delete:",
                on_click=_remove_uploaded,
                args=(upload.name, settings),
            )


def _default_folder() -> str:
    try:
        return str(DEFAULT_CORPUS.relative_to(Path.cwd()))
    except ValueError:
        return str(DEFAULT_CORPUS)


def _listed(folders: str) -> list[Path]:
    return [Path(line.strip()) for line in folders.splitlines() if line.strip()]


def _run_indexing(
    folders: list[Path], settings: RagSettings, service: AgentService | None, prune: bool = False
) -> None:
    bar = st.progress(0.0, text="Reading the documents…")
    try:
        report = index_with_uploads(
            folders,
            settings,
            lambda fraction, text: bar.progress(fraction, text=text),
            embedder=service.retriever.embedder if service else None,
            prune=prune,
        )
    except INDEXING_ERRORS as error:
        bar.empty()
        st.session_state.index_error = error_message(error)
        st.rerun()
        return
    get_service.clear()
    st.session_state.index_message = (
        f"Indexed {report.documents} documents into {report.chunks} chunks: {report.embedded} embedded, "
        f"{report.deleted} removed, {report.kept_unlisted} kept from documents not listed, "
        f"in {report.seconds:.1f} s."
    )
    st.rerun()


def render_removal(settings: RagSettings, service: AgentService | None) -> None:
    """Removing documents not listed: a separate action that says how many chunks go, then asks."""
    with st.expander("Remove documents not listed", icon=":material/delete_sweep:"):
        folders = st.text_area(
            "Keep only these folders (and the uploads)", value=_default_folder(), key="keep-folders"
        )
        if st.button("Count what would be removed", key="prune-preview"):
            try:
                st.session_state.prune_plan = (folders, prune_preview(_listed(folders), settings))
            except INDEXING_ERRORS as error:
                st.session_state.pop("prune_plan", None)
                st.error(error_message(error))
        plan = st.session_state.get("prune_plan")
        if not plan or plan[0] != folders:
            return
        if plan[1] == 0:
            st.info("Every indexed document is listed: nothing to remove.")
            return
        st.warning(f"This removes {plan[1]} chunks of documents not listed above.", icon=":material/warning:")
        if st.button(f"Remove {plan[1]} chunks", key="prune-confirm", type="primary"):
            st.session_state.pop("prune_plan", None)
            _run_indexing(_listed(folders), settings, service, prune=True)


def render_indexing(settings: RagSettings, service: AgentService | None) -> None:
    st.subheader("Index documents")
    if message := st.session_state.pop("index_message", None):
        st.success(message)
    if problem := st.session_state.pop("index_error", None):
        st.error(problem)
    with st.form("index", clear_on_submit=True, border=False):
        files = st.file_uploader("Upload files", type=UPLOAD_SUFFIXES, accept_multiple_files=True)
        folders = st.text_area(
            "Local folders or files, one per line",
            value=_default_folder(),
            help="Adds and updates only; documents not listed stay indexed. Only folders under "
            "RAG_APP_INDEX_ROOTS (by default the bundled corpus) and the uploads can be indexed here.",
        )
        submitted = st.form_submit_button("Index", icon=":material/database_upload:", key="index")
    render_uploads(settings)
    render_removal(settings, service)
    if not submitted:
        return
    try:
        save_uploads([(file.name, file.getvalue()) for file in files or []], settings)
    except INDEXING_ERRORS as error:
        st.error(error_message(error))
        return
    _run_indexing(_listed(folders), settings, service)


def render_sidebar(service: AgentService | None) -> None:
    summary = settings_summary(service)
    assistant = summary["Assistant"]
    with st.sidebar:
        st.header("Assistant")
        if assistant["offline"]:
            st.badge("Offline model", icon=":material/cloud_off:", color="orange")
        st.markdown(f"**Provider** {assistant['provider']}  \n**Model** `{assistant['model']}`")
        st.caption(f"Conversation `{st.session_state.thread_id}`")
        st.button(
            "New conversation", icon=":material/add_comment:", key="new-conversation", on_click=start_session
        )
        st.subheader("Retrieval")
        st.markdown(
            "\n".join(f"- **{name}**: {escape(str(value))}" for name, value in summary["Retrieval"].items())
        )
        settings = current_settings(service)[1]
        render_knowledge_base(settings)
        render_crawl(settings)
        render_indexing(settings, service)


def console_page() -> None:
    """The console: the operator's own conversation with every step shown, and the sidebar tools."""
    st.set_page_config(layout="wide")
    ensure_session()
    if not operator_allowed():
        return
    console_accessibility()
    if (context := get_script_run_ctx()) is not None:
        allow_uploads(context.session_id)  # only an opened console may upload (app_ui.upload_guard)
    service, problem = load_service()
    render_sidebar(service)
    st.title("Operator console", anchor=False)
    st.caption("Ask as a visitor would and inspect what the agent did; settings and indexing in the sidebar.")
    offline = service.offline if service else settings_summary(None)["Assistant"]["offline"]
    if offline:
        st.info(OFFLINE_NOTICE, icon=":material/cloud_off:")
    if problem:
        st.warning(problem, icon=":material/warning:")
    render_insights(service)
    render_visit_calendar(service)
    question = take_question(st.chat_input("Ask as a visitor would", key="console-question"))
    for turn in st.session_state.turns:
        render_turn(turn, service)
    if question is not None:
        run_turn(question, service, problem)
