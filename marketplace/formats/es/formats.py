"""Spanish as Kindly's readers in the US write numbers (docs/glossary-es.md, "Dates, times, money"):
money stays in US dollars with a decimal point and a comma for thousands ("$1,234.50"), as on
their bank statements and as Spanish in the US writes it, and times stay on the 12-hour clock
("8:00 AM"). Everything else (day and month names, date formats) is Django's Spanish."""

from django.conf.locale.es.formats import *  # noqa: F403 (Django's Spanish formats, then ours on top)

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
TIME_FORMAT = "g:i A"
