"""The operator console (``/console``); drawn by :func:`app_ui.console.console_page`."""

from app_ui.console import console_page

console_page()
