"""One graph node per module; each module exposes a ``make_*`` factory taking ``AgentDeps``."""
