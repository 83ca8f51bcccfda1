"""``python -m agents``: ask, chat and eval."""

from agents.cli import main

raise SystemExit(main())
