"""``python -m rag``: index, search, stats and eval."""

from rag.cli import main

raise SystemExit(main())
