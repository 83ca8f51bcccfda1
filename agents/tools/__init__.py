"""Tools the agent's LLM can call: the knowledge base (weather and travel come with issue 4)."""
