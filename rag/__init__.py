"""Knowledge base: loading, chunking, embedding, Chroma indexing and hybrid retrieval."""
