"""The tools the model calls, one package or module each: the knowledge base, weather/, travel/
(the visit calendar's tool lives with its facts, in agents/visit_calendar/); what they share: dates,
day phrases, the HTTP client and the one result shape."""
