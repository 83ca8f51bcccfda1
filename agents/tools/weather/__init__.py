"""The weather tool: forecasts and climate normals for a place and a day, and the advice they give."""
