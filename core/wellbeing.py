"""How the senior seemed at a visit: the visit report's 5-point scale, in words (translated), for
the report (bookings.models.VisitReport) and the circle's notice of it (core.notices.visits)."""

from django.db import models
from django.utils.translation import pgettext_lazy


class Wellbeing(models.IntegerChoices):
    VERY_LOW = 1, pgettext_lazy("wellbeing", "Not well at all")
    LOW = 2, pgettext_lazy("wellbeing", "A little low")
    OKAY = 3, pgettext_lazy("wellbeing", "Okay")
    GOOD = 4, pgettext_lazy("wellbeing", "Good")
    VERY_GOOD = 5, pgettext_lazy("wellbeing", "In great spirits")
