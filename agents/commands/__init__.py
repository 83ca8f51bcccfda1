"""The sub-commands of ``python -m agents``, one module each, imported only for the one that runs."""
