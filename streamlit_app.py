"""The Streamlit app: a visitor page (``/``) and an operator console (``/console``) over one service.

Run it with ``make run`` or ``streamlit run streamlit_app.py``. The pages are drawn by ``app_ui/``;
behaviour lives in ``agents/`` (the service, presenters, visitor view, labels) and ``rag/``.
"""

from __future__ import annotations

import streamlit as st

from app_ui.labels import APP_ICON


def main() -> None:
    st.set_page_config(page_title="Versailles", page_icon=str(APP_ICON), layout="centered")
    pages = [
        st.Page("app_pages/visit.py", title="Versailles", default=True),
        st.Page("app_pages/console.py", title="Operator console", url_path="console"),
    ]
    st.navigation(pages, position="hidden").run()


main()
