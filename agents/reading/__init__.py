"""How a visitor turn is read: its topics, the slots each needs, what it inherits from the last turn."""
