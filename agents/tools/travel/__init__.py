"""The travel tool: how to get to a place, by which mode, how long it takes (no fares)."""
