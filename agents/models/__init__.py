"""Chat models of any LangChain provider (``llm``, the only place they are built), the bounds every
provider call runs under, and how a provider's failure reaches the turn."""
