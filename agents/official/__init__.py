"""Official answers: texts operators write for what visitors ask, searched before the knowledge base."""
