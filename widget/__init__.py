"""The chat widget a museum puts on its own pages (``visitor-widget.js``) and what keeps it in step."""
