"""The visit calendar: opening days, hours, free days and prices per place, rules checked on their source."""
