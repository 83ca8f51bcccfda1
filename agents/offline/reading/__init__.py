"""Reading a visitor turn (``read.read_turn``) into a ``request.TurnRequest``: its topics, the slots
each needs, its reply language and what it inherits from the previous turn."""
