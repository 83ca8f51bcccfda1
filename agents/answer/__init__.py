"""The answer a turn produces: its typed shape, its citations and the check of the values it states."""
