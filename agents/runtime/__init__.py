"""A turn's lifecycle around the graph: the parts it is built from, the warm-up, the events a turn
streams, recording it in the questions log, and erasing a conversation."""
