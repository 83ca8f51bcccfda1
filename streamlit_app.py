"""Streamlit chat over the agent service: it renders the service's events and holds no logic of its own.

Run it with ``make run`` or ``streamlit run streamlit_app.py``. Behaviour lives in
``agents/app_support.py`` (the service), ``agents/presenters.py`` (what events look like),
``rag/stats.py`` and ``rag/uploads.py`` (the knowledge base in the sidebar).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from agents import app_support
from agents.app_support import (
    APP_ICON,
    EXAMPLE_QUESTIONS,
    INDEXING_ERRORS,
    OFFLINE_NOTICE,
    SERVICE_ERRORS,
    current_settings,
    error_message,
    graph_mermaid,
    new_thread_id,
    service_key,
    settings_summary,
    stream_turn,
)
from agents.events import AnswerToken, ErrorOccurred, NodeStarted
from agents.presenters import (
    Turn,
    answer_markdown,
    escape,
    graph_dot,
    passage_markdown,
    retrieval_tables,
    running_label,
    sources_markdown,
    timeline_rows,
    totals,
    visited_nodes,
)
from agents.service import AgentService
from rag.config import DEFAULT_CORPUS, RagSettings
from rag.stats import knowledge_base_stats
from rag.uploads import UPLOAD_SUFFIXES, index_with_uploads, list_uploads, remove_upload, save_uploads


@st.cache_resource(show_spinner="Loading the knowledge base and the model…")
def get_service(key: str) -> AgentService:
    """One service per configuration, shared by every browser session (threads keep them apart)."""
    return app_support.build_service()


def load_service() -> tuple[AgentService | None, str | None]:
    try:
        return get_service(service_key()), None
    except SERVICE_ERRORS as error:
        return None, error_message(error)


def start_new_conversation() -> None:
    st.session_state.thread_id = new_thread_id()
    st.session_state.turns = []


def ask_example(question: str) -> None:
    st.session_state.pending_question = question


def render_inspector(turn: Turn, service: AgentService | None) -> None:
    timeline, retrieval, payloads, graph = st.tabs(["Timeline", "Retrieval", "Payloads", "Graph"])
    with timeline:
        figures = totals(turn)
        if figures:
            st.markdown(" · ".join(f"**{name}** {escape(value)}" for name, value in figures.items()))
        st.dataframe(timeline_rows(turn.events), hide_index=True)
    with retrieval:
        tables = retrieval_tables(turn.events)
        if not tables:
            st.caption("No knowledge-base search this turn.")
        for query, rows in tables:
            st.markdown(f"Query: **{escape(query)}**")
            st.dataframe(rows, hide_index=True)
    with payloads:
        st.caption(f"{len(turn.events)} events ({turn.answer_tokens} streamed answer tokens not listed).")
        st.json(turn.events, expanded=1)
    with graph:
        if service is None:
            st.caption("The graph is drawn once the service is running.")
            return
        st.graphviz_chart(graph_dot(service.graph.get_graph(), visited_nodes(turn)))
        st.caption("Nodes this turn ran are filled; dashed edges are conditional. LangGraph's Mermaid:")
        st.code(graph_mermaid(service), language="text", height=200)


def render_body(turn: Turn, service: AgentService | None) -> None:
    if turn.error is not None:
        st.error(turn.error, icon=":material/error:")
        st.caption("Your conversation is kept: ask again when this is fixed.")
    elif turn.final is not None:
        final = turn.final
        st.markdown(answer_markdown(final.answer, final.sources))
        if final.sources:
            st.markdown("**Sources**\n\n" + sources_markdown(final.sources, final.evidence))
        if final.evidence:
            with st.expander(f"Cited passages ({len(final.evidence)})", icon=":material/format_quote:"):
                for item in final.evidence:
                    st.markdown(passage_markdown(item))
    if turn.steps and (turn.final or len(turn.events) > 1):  # not for a turn refused before it began
        with st.expander("Trace inspector", icon=":material/troubleshoot:"):
            render_inspector(turn, service)


def render_turn(turn: Turn, service: AgentService | None) -> None:
    with st.chat_message("user"):
        st.markdown(escape(turn.question))
    with st.chat_message("assistant"):
        if turn.steps:
            state: Any = "error" if turn.error is not None else "complete"
            with st.status(turn.status_label(), state=state, expanded=False):
                for line in turn.steps:
                    st.markdown(line)
        render_body(turn, service)


def run_turn(question: str, service: AgentService | None, problem: str | None) -> None:
    turn = Turn(question)
    st.session_state.turns.append(turn)
    with st.chat_message("user"):
        st.markdown(escape(question))
    with st.chat_message("assistant"):
        if service is None:
            turn.add(ErrorOccurred(message=problem or "The assistant is not available."))
            render_body(turn, service)
            return
        status = st.status("Thinking…", expanded=True)
        answer = st.empty()
        for event in stream_turn(service, question, st.session_state.thread_id):
            line = turn.add(event)
            if isinstance(event, NodeStarted):
                status.update(label=running_label(event))
            elif isinstance(event, AnswerToken):
                answer.markdown(turn.streamed + " ▌")
            if line:
                status.markdown(line)
        status.update(label=turn.status_label(), state="error" if turn.error else "complete", expanded=False)
        with answer.container():
            render_body(turn, service)


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


def remove_uploaded(name: str, settings: RagSettings) -> None:
    try:
        removed = remove_upload(name, settings)
    except INDEXING_ERRORS as error:
        st.session_state.index_message = error_message(error)
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
                on_click=remove_uploaded,
                args=(upload.name, settings),
            )


def render_indexing(settings: RagSettings, service: AgentService | None) -> None:
    st.subheader("Index documents")
    if message := st.session_state.pop("index_message", None):
        st.success(message)
    with st.form("index", clear_on_submit=True, border=False):
        files = st.file_uploader("Upload files", type=UPLOAD_SUFFIXES, accept_multiple_files=True)
        try:
            default = str(DEFAULT_CORPUS.relative_to(Path.cwd()))
        except ValueError:
            default = str(DEFAULT_CORPUS)
        folders = st.text_area(
            "Local folders or files, one per line",
            value=default,
            help="Adds and updates only; documents not listed stay indexed. Only folders under "
            "RAG_APP_INDEX_ROOTS (by default the bundled corpus) and the uploads can be indexed here.",
        )
        submitted = st.form_submit_button("Index", icon=":material/database_upload:", key="index")
    render_uploads(settings)
    if not submitted:
        return
    bar = st.progress(0.0, text="Reading the documents…")
    try:
        save_uploads([(file.name, file.getvalue()) for file in files or []], settings)
        report = index_with_uploads(
            [Path(line.strip()) for line in folders.splitlines() if line.strip()],
            settings,
            lambda fraction, text: bar.progress(fraction, text=text),
            embedder=service.retriever.embedder if service else None,
        )
    except INDEXING_ERRORS as error:
        bar.empty()
        st.error(error_message(error))
        return
    get_service.clear()
    st.session_state.index_message = (
        f"Indexed {report.documents} documents into {report.chunks} chunks: {report.embedded} embedded, "
        f"{report.deleted} removed, {report.kept_unlisted} kept from documents not listed, "
        f"in {report.seconds:.1f} s."
    )
    st.rerun()


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
            "New conversation",
            icon=":material/add_comment:",
            key="new-conversation",
            on_click=start_new_conversation,
        )
        st.subheader("Retrieval")
        st.markdown(
            "\n".join(f"- **{name}**: {escape(str(value))}" for name, value in summary["Retrieval"].items())
        )
        settings = current_settings(service)[1]
        render_knowledge_base(settings)
        render_indexing(settings, service)


def render_examples() -> None:
    st.markdown("**Ask in your language**, or start from one of these:")
    columns = st.columns(2)
    for number, (language, question) in enumerate(EXAMPLE_QUESTIONS):
        columns[number % 2].button(
            question, key=f"example-{number}", help=language, on_click=ask_example, args=(question,)
        )


def main() -> None:
    st.set_page_config(page_title="Versailles visitor assistant", page_icon=str(APP_ICON), layout="wide")
    if "thread_id" not in st.session_state:
        start_new_conversation()
    service, problem = load_service()
    render_sidebar(service)

    st.title("Palace of Versailles · visitor assistant")
    st.caption("Opening hours, tickets, access, gardens, rooms and services: answers cite their sources.")
    offline = service.offline if service else settings_summary(None)["Assistant"]["offline"]
    if offline:
        st.info(OFFLINE_NOTICE, icon=":material/cloud_off:")
    if problem:
        st.warning(problem, icon=":material/warning:")

    prompt = st.chat_input("Ask about your visit, in your language")
    pending = st.session_state.pop("pending_question", None)
    question = prompt if prompt is not None else pending
    for turn in st.session_state.turns:
        render_turn(turn, service)
    if not st.session_state.turns and question is None:
        render_examples()
    if question is not None:
        run_turn(question, service, problem)


main()
