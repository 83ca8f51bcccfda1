"""The sub-commands of ``python -m rag``, one module each, imported only for the one that runs."""
