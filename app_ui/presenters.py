"""The service's events turned into what the Streamlit app shows: step lines, answer Markdown, tables.

Pure functions and one record per turn; the app only puts their output on the page. Lines use
Streamlit's Markdown dialect (``:material/...:`` icons).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from agents.answer.citations import CITATION_GROUP, group_numbers
from agents.events import (
    AgentEvent,
    AnswerToken,
    CritiqueGiven,
    ErrorOccurred,
    FinalAnswer,
    GapAnalysed,
    ModelCalled,
    NodeFinished,
    NodeStarted,
    ToolCalled,
    ToolReturned,
)
from app_ui.bare_urls import link_bare_urls
from app_ui.labels import Labels
from app_ui.visitor_view import VisitorAnswer, VisitorPassage, VisitorSource, clean_title
from rag.crawl.scope import is_web

NODE_LABELS = {
    "prepare": "Choosing the reply language",
    "agent": "Choosing tools",
    "tools": "Running tools",
    "collect": "Collecting evidence",
    "gap_analysis": "Gap analysis",
    "self_critique": "Self-critique",
    "follow_up": "Follow-up searches",
    "synthesize": "Writing the answer",
    "direct_reply": "Replying",
}
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]{}<>#|~$])")


# What Markdown would turn into a link by itself (GFM autolink literals): a scheme's "//" or "www.".
_LINKABLE = re.compile(r"(?:[a-zA-Z][\w+.-]*://|www\.)[^\s`]*", re.IGNORECASE)


def escape(text: str) -> str:
    """``text`` shown literally in Markdown, on one line (no emphasis, links, LaTeX or headings); a
    bare URL is shown as code, so Markdown never makes it a link an operator could click."""
    flat = " ".join(str(text).split())
    parts, last = [], 0
    for url in _LINKABLE.finditer(flat):
        parts += [_MARKDOWN_SPECIALS.sub(r"\\\1", flat[last : url.start()]), f"`{url.group(0)}`"]
        last = url.end()
    return "".join([*parts, _MARKDOWN_SPECIALS.sub(r"\\\1", flat[last:])])


_IMAGE = re.compile(r"!(?=\[)")
_REFERENCE_DEFINITION = re.compile(r"^(\s{0,3})\[(?=[^\]]+\]:)", re.M)
_INLINE_LINK = re.compile(r"\[([^\]]*)\]\(\s*(<[^>]*>|[^)\s]*)[^)]*\)")
_AUTOLINK = re.compile(r"<([a-zA-Z][\w+.-]*:[^>\s]*)>")


def safe_url(url: str) -> str:
    """An http(s) URL with the characters that could end a Markdown link escaped; "" otherwise."""
    url = url.strip()
    return quote(url, safe=":/?#[]@!$&'()*+,;=%~-._") if is_web(url) and not re.search(r"\s", url) else ""


def safe_markdown(text: str) -> str:
    """Markdown from the knowledge base or a model, made harmless: images are shown as text (the
    browser never fetches them), reference definitions are inert, a link survives only for an
    http(s) URL (escaped so it cannot break out) and becomes its text otherwise, and ``$`` never
    turns into LaTeX. Streamlit already shows raw HTML as text."""
    text = _REFERENCE_DEFINITION.sub(r"\1\\[", _IMAGE.sub("\\!", text.replace("$", "\\$")))

    def link(match: re.Match[str]) -> str:
        url = safe_url(match.group(2).strip("<>"))
        return f"[{match.group(1)}](<{url}>)" if url else match.group(1)

    def autolink(match: re.Match[str]) -> str:
        url = safe_url(match.group(1))
        return f"<{url}>" if url else escape(match.group(0))

    def bare(url: str) -> str:
        safe = safe_url(url)
        return f"<{safe}>" if safe else url

    return link_bare_urls(_AUTOLINK.sub(autolink, _INLINE_LINK.sub(link, text)), bare)


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def _arguments(args: dict[str, Any]) -> str:
    return ", ".join(f"{name}={json.dumps(value, ensure_ascii=False)}" for name, value in args.items())


def _tokens(event: ModelCalled) -> str:
    if event.input_tokens is None and event.output_tokens is None:
        return ""
    return f" · {event.input_tokens or 0} in / {event.output_tokens or 0} out tokens"


def step_line(event: AgentEvent, round_number: int = 0) -> str | None:
    """One Markdown line for the live status, or None for events that are not steps."""
    if isinstance(event, NodeFinished):
        timing = f" · {event.ms:.0f} ms" if event.ms is not None else ""
        return f":material/check: **{NODE_LABELS.get(event.node, event.node)}** {_code(event.node)}{timing}"
    if isinstance(event, ToolCalled):
        return f":material/build: call {_code(f'{event.tool}({_arguments(event.args)})')}"
    if isinstance(event, ToolReturned):
        timing = f" · {event.ms:.0f} ms" if event.ms is not None else ""
        top = f" · top: {escape(event.hits[0].title)}" if event.hits else ""
        summary = escape(event.summary[:160]) if event.summary else ""
        source = event.result.get("source")
        status = f"{event.status} ({escape(str(source))})" if source and source != "none" else event.status
        return f":material/description: {_code(event.tool)} → {status}: {summary}{top}{timing}"
    if isinstance(event, GapAnalysed):
        missing = "; ".join(escape(m) for m in event.missing) or "nothing"
        follow = "; ".join(escape(q) for q in event.follow_up_queries) or "none"
        title = f"**Gap analysis, round {round_number}**"
        return f":material/search: {title}: missing {missing} · follow-ups {follow}"
    if isinstance(event, CritiqueGiven):
        verdict = "sufficient" if event.sufficient else "not sufficient"
        return f":material/gavel: **Critique, round {round_number}**: {verdict}: {escape(event.reason)}"
    if isinstance(event, ModelCalled):
        calls = f"{event.calls} model calls" if event.calls > 1 else "model call"
        return f":material/psychology: {calls} by {_code(event.node)}{_tokens(event)}"
    if isinstance(event, ErrorOccurred):
        return f":material/error: {escape(event.message)}"
    if isinstance(event, FinalAnswer):
        return f":material/task_alt: answered in {event.seconds:.2f} s with {event.model_calls} model calls"
    return None


@dataclass
class Turn:
    """One question and everything shown about its answer, kept in the browser session."""

    question: str
    steps: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    streamed: str = ""
    answer_tokens: int = 0
    final: FinalAnswer | None = None
    error: str | None = None
    error_kind: str = "other"
    rounds: int = 0
    started: float = field(default_factory=time.perf_counter)

    def add(self, event: AgentEvent) -> str | None:
        """Record ``event`` (its full payload, timed from the turn's start); return its step line."""
        if isinstance(event, AnswerToken):
            self.streamed += event.text
            self.answer_tokens += 1
            return None
        self.events.append(
            {"t_ms": round((time.perf_counter() - self.started) * 1000, 1), **event.model_dump()}
        )
        if isinstance(event, FinalAnswer):
            self.final = event
        elif isinstance(event, ErrorOccurred):
            self.error, self.error_kind = event.message, event.kind
        elif isinstance(event, GapAnalysed):
            self.rounds += 1
        line = step_line(event, max(self.rounds, 1))
        if line:
            self.steps.append(line)
        return line

    @property
    def waited(self) -> float:
        """Seconds from the question to the turn's last event, as the visitor waited them."""
        return (self.events[-1]["t_ms"] / 1000) if self.events else 0.0

    def status_label(self) -> str:
        """The collapsed status' title once the turn is over."""
        if self.error is not None:
            return "The assistant could not answer"
        seconds = f" in {self.final.seconds:.1f} s" if self.final else ""
        return f"{len(self.steps)} steps{seconds}: inspect what the agent did"


def running_label(event: NodeStarted) -> str:
    """The live status' title while ``event.node`` runs."""
    return f"{NODE_LABELS.get(event.node, event.node)}…"


def answer_markdown(view: VisitorAnswer) -> str:
    """The answer with each ``[n]`` linked to its web source; ``$`` kept from turning into LaTeX."""
    urls = {source.number: source.url or "" for source in view.sources}

    def cite(number: int) -> str:
        url = safe_url(urls.get(number, ""))
        label = f"\\[{number}\\]"
        return f"[{label}](<{url}>)" if url else f"**{label}**"

    def cite_group(match: re.Match[str]) -> str:
        return "".join(cite(number) for number in group_numbers(match))

    return CITATION_GROUP.sub(cite_group, safe_markdown(view.text))


def source_label(source: VisitorSource) -> str:
    """A source's one-line label: its number, clean title and, for a web page, the site. Escaped:
    Streamlit renders an expander's label as Markdown, images and links included."""
    site = f" · {escape(source.site)}" if source.site else ""
    return f"\\[{source.number}\\] {escape(source.title)}{site}"


def source_markdown(source: VisitorSource, labels: Labels, operator: bool = False) -> str:
    """What opens under a source: a link to the page (web only), then its cited passages quoted.

    The operator console adds where the source is indexed (a file path, a URL) and the agent's
    passage numbers; the visitor page shows neither.
    """
    parts = []
    url = safe_url(source.url or "")
    if url:
        parts.append(f":material/open_in_new: [{escape(labels.say('open_page', site=source.site))}](<{url}>)")
    if operator:
        numbers = ", ".join(f"#{p.passage}" for p in source.passages)
        parts.append(f"{_code(source.location)} · passages {numbers}")
    parts.extend(passage_markdown(passage, labels) for passage in source.passages)
    return "\n\n".join(parts)


_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")


def passage_markdown(passage: VisitorPassage, labels: Labels) -> str:
    """A cited passage: the section it comes from, then its text quoted (headings in bold)."""
    lines = []
    for line in passage.text.splitlines():
        if not line.strip():
            continue
        heading = _HEADING.match(line)
        lines.append(
            f"> **{escape(clean_title(heading.group(1)))}**" if heading else f"> {safe_markdown(line)}"
        )
    where = f"*{escape(labels.say('passage_in', section=passage.section))}*\n\n" if passage.section else ""
    return where + "\n>\n".join(lines)


def _detail(event: dict[str, Any]) -> str:
    kind = event["type"]
    if kind == "tool_call":
        return _arguments(event["args"])
    if kind == "tool_result":
        return f"{event['status']}: {event['summary']}"
    if kind == "gap_analysis":
        missing, follow = "; ".join(event["missing"]), "; ".join(event["follow_up_queries"])
        return f"missing: {missing or 'nothing'}; follow-ups: {follow or 'none'}"
    if kind == "critique":
        return f"{'sufficient' if event['sufficient'] else 'not sufficient'}: {event['reason']}"
    if kind == "model_call":
        tokens = event["input_tokens"], event["output_tokens"]
        return f"{event['calls']} call(s); tokens " + (
            "not reported" if tokens == (None, None) else f"{tokens[0]} in / {tokens[1]} out"
        )
    if kind == "error":
        return str(event["message"])
    if kind == "final_answer":
        reply = event["reply"]
        return f"{len(reply['text'])} characters, citations {[c['number'] for c in reply['citations']]}"
    return ""


def timeline_rows(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per event but node starts: when, what, which node or tool, how long, a short detail."""
    return [
        {
            "t (ms)": event["t_ms"],
            "event": event["type"],
            "node / tool": event.get("node") or event.get("tool", ""),
            "took (ms)": f"{event['ms']:.1f}" if event.get("ms") is not None else "",
            "detail": _detail(event),
        }
        for event in events
        if event["type"] != "node_started"
    ]


def retrieval_tables(
    events: Iterable[dict[str, Any]],
    passage_numbers: dict[str, int] | None = None,
    shown_numbers: dict[int, int] | None = None,
) -> list[tuple[str, list[dict[str, Any]]]]:
    """Per search: its query and one row per passage.

    A row carries the passage's number in the agent's evidence (stable across searches and
    rounds), the citation number the answer shows for it when cited, its title and section, the
    score of every ranking stage in its own column, and the full source.
    """
    passage_numbers = passage_numbers or {}
    shown_numbers = shown_numbers or {}
    tables = []
    for event in events:
        if event["type"] != "tool_result" or event["tool"] != "search_knowledge_base":
            continue
        rows = []
        for rank, hit in enumerate(event["hits"], 1):
            passage = passage_numbers.get(str(hit.get("chunk_id", "")))
            stages = {name: round(float(value), 4) for name, value in hit.get("scores", {}).items()}
            rows.append(
                {
                    "rank": rank,
                    "passage": f"#{passage}" if passage else "",
                    "cited as": f"[{shown_numbers[passage]}]" if passage in shown_numbers else "",
                    "title › section": " › ".join(
                        p for p in (hit.get("title", ""), hit.get("headings", "")) if p
                    ),
                    **(stages or {"score": round(float(hit.get("score", 0.0)), 4)}),
                    "source": hit.get("source", ""),
                }
            )
        tables.append((str(event["args"].get("query", "")), rows))
    return tables


def payloads_by_name(events: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every event's payload under a name saying when, what and where: "03 · 12.5 ms · tool_call · agent"."""
    named = {}
    for index, event in enumerate(events, 1):
        where = event.get("node") or event.get("tool") or ""
        name = f"{index:02d} · {event['t_ms']} ms · {event['type']}" + (f" · {where}" if where else "")
        named[name] = {key: value for key, value in event.items() if key != "t_ms"}
    return named


def totals(turn: Turn) -> dict[str, str]:
    """The turn's figures: what the visitor waited, the agent's time, model calls, tokens, tools."""
    final = turn.final
    if final is None:
        return {}
    tokens = (
        "not reported by the provider"
        if final.input_tokens is None and final.output_tokens is None
        else f"{final.input_tokens or 0} in / {final.output_tokens or 0} out"
    )
    return {
        "Visitor's wait": f"{turn.waited:.2f} s",
        "Agent time": f"{final.seconds:.2f} s",
        "Model calls": str(final.model_calls),
        "Tokens": tokens,
        "Graph overhead": f"{final.graph_overhead_ms:.0f} ms",
        "Tools": ", ".join(final.tools) or "none",
        "Rounds": str(turn.rounds),
    }


def graph_dot(graph_view: Any, visited: Iterable[str] = ()) -> str:
    """Graphviz DOT of LangGraph's own drawing (``graph.get_graph()``); this turn's nodes filled."""
    seen = set(visited)
    lines = [
        "digraph agent {",
        '  graph [rankdir=LR, bgcolor="transparent", nodesep=0.25, ranksep=0.35];',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=11, fillcolor="white"];',
        '  edge [color="#888888"];',
    ]
    for node_id in graph_view.nodes:
        if node_id in {"__start__", "__end__"}:
            lines.append(f'  "{node_id}" [label="{node_id.strip("_")}", shape=ellipse, fillcolor="#eeeeee"];')
        else:
            fill = "#ffd27a" if node_id in seen else "white"
            lines.append(f'  "{node_id}" [fillcolor="{fill}"];')
    for edge in graph_view.edges:
        style = ', style="dashed"' if edge.conditional else ""
        lines.append(f'  "{edge.source}" -> "{edge.target}" [arrowsize=0.7{style}];')
    lines.append("}")
    return "\n".join(lines)


def visited_nodes(turn: Turn) -> list[str]:
    """The nodes this turn ran, in order."""
    return [event["node"] for event in turn.events if event["type"] == "node_finished"]
