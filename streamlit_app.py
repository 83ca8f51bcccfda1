"""The Streamlit app: a visitor page (``/``) and an operator console (``/console``) over one service.

Run it with ``make run`` or ``streamlit run streamlit_app.py``. The pages are drawn by ``app_ui/``;
behaviour lives in ``agents/`` (the service, presenters, visitor view, labels) and ``rag/``.

``streamlit run`` finds ``app`` below and serves it: Streamlit with :class:`UploadGuard` in front,
so only an opened console can upload (``app_ui.upload_guard``). Each browser session runs this
file again as ``__main__`` and draws the pages.
"""

from __future__ import annotations

import streamlit as st
from starlette.middleware import Middleware

from app_ui.labels import APP_ICON
from app_ui.upload_guard import UploadGuard


def main() -> None:
    st.set_page_config(page_title="Versailles", page_icon=str(APP_ICON), layout="centered")
    pages = [
        st.Page("app_pages/visit.py", title="Versailles", default=True),
        st.Page("app_pages/console.py", title="Operator console", url_path="console"),
    ]
    st.navigation(pages, position="hidden").run()


if __name__ == "__main__":  # a browser session's run (and AppTest's)
    main()
else:  # imported by `streamlit run` to be served
    app = st.App(__file__, middleware=[Middleware(UploadGuard)])
