"""The polite, incremental website crawler: scope, fetching, sitemaps, extraction, state."""
