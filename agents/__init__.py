"""The LangGraph visitor agent (tools, gap analysis, self-critique, cited answers): issue 3."""
