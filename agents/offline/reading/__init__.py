"""How the offline model reads a visitor's turn (``read.read_turn``) into a ``request.TurnRequest``: its
topics, the slots each needs and what it inherits from the previous turn. Only the offline model reads
turns so; the reply language every model needs is ``agents.answer.language``."""
