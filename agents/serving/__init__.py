"""The agent served the LangGraph way (Agent Protocol): the graph factory the server configuration
files point at (``langgraph.json`` for ``langgraph dev``, ``aegra.json`` for Aegra), and the rules that
keep visitors apart from operators (authentication, rate limits)."""
