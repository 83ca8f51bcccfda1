"""The agent's evaluation: the question sets, the scores, and the flat record of one answer shared
with ``python -m agents ask --json``."""
