"""The console's month view of the visit calendar, one place at a time, and the rules not used.

``month_grid`` is pure (weeks × weekdays, one short cell per day); ``render_visit_calendar`` only
puts it on the page.
"""

from __future__ import annotations

import calendar as months
import datetime as dt
from typing import TYPE_CHECKING

import streamlit as st

from agents.visit_calendar.engine import DayReport, day_at
from agents.visit_calendar.rules import WEEKDAYS
from agents.visit_calendar.tool import CalendarService

if TYPE_CHECKING:
    from agents.service import AgentService


def cell(report: DayReport) -> str:
    """One day in a few words: "6 · 09:00–17:30 · free", "30 · closed (weekly)", "12 · ?"."""
    if report.status == "closed":
        return f"{report.date.day} · closed ({report.closed_why})"
    if report.status == "unknown":
        return f"{report.date.day} · ? see the knowledge base"
    free = " · free" if report.free else (" · free?" if report.free is None else "")
    events = f" · {', '.join(report.events)}" if report.events else ""
    return f"{report.date.day} · {report.opens}–{report.closes}{free}{events}"


def month_grid(service: CalendarService, place: str, year: int, month: int) -> list[dict[str, str]]:
    """The month as weeks (rows) of Monday-to-Sunday cells; days of other months are blank."""
    withheld = service.check().withheld
    weeks = months.Calendar(firstweekday=0).monthdatescalendar(year, month)
    return [
        {
            WEEKDAYS[day.weekday()]: cell(day_at(service.calendar, place, day, withheld))
            if day.month == month
            else ""
            for day in week
        }
        for week in weeks
    ]


def render_visit_calendar(service: AgentService | None) -> None:
    """An expander with a place, a month and its grid, and the rules the source check withholds."""
    calendar_service = service.visitor_tools.calendar if service else CalendarService()
    with st.expander("Visit calendar", icon=":material/calendar_month:"):
        places = list(calendar_service.calendar.places)
        place = st.selectbox("Place", places, key="calendar-place")
        first = st.date_input("Month", value=calendar_service.today().replace(day=1), key="calendar-month")
        if isinstance(first, dt.date) and place:
            st.table(month_grid(calendar_service, place, first.year, first.month))
        if problems := calendar_service.check().problems:  # inside the expander: a calendar for
            # another corpus withholds every rule, which is one fact, not a page of warnings
            lines = "\n".join(f"- {problem}" for problem in problems)
            st.markdown(
                f"**{len(problems)} rules not used** (`python -m agents.visit_calendar check`):\n{lines}"
            )
        st.caption(
            f"Rules and sources: {calendar_service.chosen().path.name}, chosen by the index (docs/tools.md)."
        )
