"""One module per vocabulary: languages, scripts, folding, transport modes and dates."""
