"""The visitor page (``/``); drawn by :func:`app_ui.visitor.visitor_page`."""

from app_ui.visitor import visitor_page

visitor_page()
