"""The LangGraph graph of one turn: its wiring (``builder``), state, routing, the nodes, and what a
node hands every model (the gathered context, the prompts, the structured-output schemas)."""
