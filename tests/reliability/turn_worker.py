"""One app process for the concurrency tests: ``python -m tests.reliability.turn_worker``.

For each scenario it reads on stdin (a spec in one JSON line), it builds an :class:`AgentService`
over the test index with a slow echo model, prints ``ready``, waits for ``go`` (so both processes
start their turns together), asks its turns on the thread one after the other, prints one JSON line
per turn (the answer or the error), closes the service and prints ``done``. One process serves a
module's scenarios: starting one costs about 20 s of imports and first-turn warm-up.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from agents.config import AgentSettings
from agents.events import FinalAnswer
from agents.service import AgentService
from rag.retriever import HybridRetriever
from tests.conftest import HashingEmbedder, make_settings


class SlowEchoModel(BaseChatModel):
    """Answers ``Reply to Q (earlier questions: N)`` after ``delay`` seconds, calling no tool.

    N is what the model was shown of the thread, so a reply proves which history it continued.
    """

    delay: float = 0.1

    @property
    def _llm_type(self) -> str:
        return "slow-echo"

    def bind_tools(self, tools: Any, tool_choice: Any = None, **kwargs: Any) -> Any:
        return self.bind(**kwargs)

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        time.sleep(self.delay)
        questions = [message.content for message in messages if isinstance(message, HumanMessage)]
        reply = f"Reply to {questions[-1]} (earlier questions: {len(questions) - 1})"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(reply))])


def build_service(spec: dict[str, Any]) -> AgentService:
    """The service a spec describes: its index, its checkpoint store, the slow echo model."""
    rag_settings = make_settings(Path(spec["index_dir"]))
    settings = AgentSettings(_env_file=None, **spec.get("agent", {}))
    retriever = HybridRetriever(rag_settings, embedder=HashingEmbedder())
    return AgentService(settings, retriever=retriever, llm=SlowEchoModel(delay=spec.get("delay", 0.1)))


def answer_scenario(spec: dict[str, Any]) -> bool:
    """Ask the scenario's turns once ``go`` arrives; False if something else did."""
    service = build_service(spec)
    print("ready", flush=True)
    if sys.stdin.readline().strip() != "go":
        return False
    for number in range(1, spec["turns"] + 1):
        result = service.ask(f"{spec['label']}{number}", spec["thread"])
        outcome = {"answer": result.answer} if isinstance(result, FinalAnswer) else {"error": result.message}
        print(json.dumps(outcome), flush=True)
    service.close()
    print("done", flush=True)
    return True


def main() -> int:
    for line in iter(sys.stdin.readline, ""):  # until stdin is closed
        if not answer_scenario(json.loads(line)):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
