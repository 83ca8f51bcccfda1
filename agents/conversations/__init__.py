"""Where conversations are kept: the checkpoint store keyed by thread id, one turn at a time per
conversation, and how long a conversation is kept."""
