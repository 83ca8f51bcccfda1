"""How a visitor turn is read: its topic, the slots each topic needs, and what it inherits from the previous turn."""
