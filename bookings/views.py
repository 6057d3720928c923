"""Pages of bookings: /calendar (the user's visits by month or week, for everyone in their care
circles or one recipient, and their private calendar feed) and the feed itself,
/calendar/<token>.ics[?recipient=<id>], which calendar apps read without signing in."""

from __future__ import annotations

import calendar as pycalendar
import datetime as dt
import json
import zoneinfo
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_GET, require_POST
from rest_framework.renderers import JSONRenderer

from accounts.guards import login_required_page, queue_toast
from bookings import selectors, services
from bookings.api.serializers import ProviderProfileSerializer
from bookings.calendar import calendar_ics, series_label, time_off_shown, visit_parties
from circles.models import CareRecipient
from circles.selectors import recipient_get, recipient_list_for
from core.errors import NotFound
from providers.selectors import provider_for_user

VIEWS = ("month", "week")


def _feed_url(request: HttpRequest, token: str, recipient_id: int | None = None) -> str:
    url = request.build_absolute_uri(reverse("calendar-feed", args=[token]))
    return url if recipient_id is None else f"{url}?recipient={recipient_id}"


def _webcal(url: str) -> str:
    return "webcal://" + url.split("://", 1)[1]


def _page_url(view: str, day: dt.date, recipient_id: int | None) -> str:
    query = {"view": view, "date": day.isoformat()}
    if recipient_id is not None:
        query["recipient"] = recipient_id
    return f"{reverse('calendar')}?{urlencode(query)}"


def _day_param(value: str | None, today: dt.date) -> dt.date:
    """?date=YYYY-MM-DD; anything else (none, a typo, a year no one books in) shows today rather
    than an error page."""
    try:
        day = dt.date.fromisoformat(value or "")
    except ValueError:
        return today
    return day if 1900 <= day.year <= 2999 else today


def _recipient_param(request: HttpRequest) -> CareRecipient | None:
    """?recipient=<id>: a recipient in whose circle the user is (404 for any other); none or "all": everyone."""
    value = request.GET.get("recipient", "")
    if value in ("", "all"):
        return None
    try:
        return recipient_get(user=request.user, pk=value)
    except NotFound:
        raise Http404("Care recipient not found.") from None


def _period(view: str, day: dt.date) -> tuple[dt.date, dt.date, dt.date, dt.date]:
    """(first day, last day, the previous period's day, the next period's day) of the month or the
    week (Monday to Sunday) holding `day`."""
    if view == "week":
        first = day - dt.timedelta(days=day.weekday())
        return first, first + dt.timedelta(days=6), first - dt.timedelta(days=7), first + dt.timedelta(days=7)
    first = day.replace(day=1)
    last = first.replace(day=pycalendar.monthrange(first.year, first.month)[1])
    return first, last, (first - dt.timedelta(days=1)).replace(day=1), last + dt.timedelta(days=1)


def _period_title(view: str, first: dt.date, last: dt.date) -> str:
    """The month or the week shown, in the reader's words ("November 2026", "November 2 to 8, 2026")."""
    if view == "month":
        return date_format(first, pgettext("month and year", "F Y"))
    words = {
        "first_month": date_format(first, "F"),
        "first_day": first.day,
        "first_year": first.year,
        "last_month": date_format(last, "F"),
        "last_day": last.day,
        "last_year": last.year,
    }
    if first.month == last.month:
        return gettext("%(first_month)s %(first_day)s to %(last_day)s, %(last_year)s") % words
    if first.year == last.year:
        return gettext("%(first_month)s %(first_day)s to %(last_month)s %(last_day)s, %(last_year)s") % words
    return (
        gettext("%(first_month)s %(first_day)s, %(first_year)s to %(last_month)s %(last_day)s, %(last_year)s") % words
    )


def _weekday_names() -> list[str]:
    """Monday to Sunday in the reader's language (2024-01-01 was a Monday)."""
    return [date_format(dt.date(2024, 1, 1) + dt.timedelta(days=n), "l") for n in range(7)]


@require_GET
@login_required_page
def calendar_page(request: HttpRequest) -> HttpResponse:
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    today = timezone.localdate()
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else "month"
    day = _day_param(request.GET.get("date"), today)
    recipient = _recipient_param(request)
    recipient_id = recipient.pk if recipient is not None else None
    first, last, previous, following = _period(view, day)

    visits = selectors.calendar_visits(
        user=request.user,
        recipient_id=recipient_id,
        start=dt.datetime.combine(first, dt.time.min, tzinfo=zone),
        end=dt.datetime.combine(last + dt.timedelta(days=1), dt.time.min, tzinfo=zone),
    )
    by_day: dict[dt.date, list] = {}
    for visit in visits:
        # On the clock of the person cared for, named when it is not the site's.
        visit.local_start = visit.starts_at.astimezone(visit.time_zone)
        visit.local_end = visit.ends_at.astimezone(visit.time_zone)
        visit.zone_name = visit.recipient.zone_name if visit.recipient.time_zone != settings.SITE_TIME_ZONE else ""
        visit.as_provider, visit.for_whom, visit.helper = visit_parties(visit, request.user)
        visit.series = series_label(visit)
        by_day.setdefault(visit.local_start.date(), []).append(visit)
    # Her own time off, beside her visits (not when the page shows one recipient's visits).
    time_off = [] if recipient is not None else time_off_shown(user=request.user, first_day=first, last_day=last)
    days = [
        {
            "date": d,
            "visits": by_day.get(d, []),
            "is_today": d == today,
            "time_off": next((t for t in time_off if t.first_day <= d <= t.last_day), None),
        }
        for d in (first + dt.timedelta(days=n) for n in range((last - first).days + 1))
    ]

    recipients = list(recipient_list_for(user=request.user))
    # The choice is worth a control only when there is more than one whose visits to tell apart.
    show_filter = len(recipients) > 1 or (bool(recipients) and provider_for_user(user=request.user) is not None)
    token = services.calendar_feed_token(user=request.user)
    feed_url = _feed_url(request, token)
    recipient_feed_url = _feed_url(request, token, recipient_id) if recipient is not None else ""
    context = {
        "view": view,
        "title": _period_title(view, first, last),
        "days": days,
        "visit_count": sum(len(d["visits"]) for d in days),
        "time_off_count": len(time_off),
        "first_weekday": first.weekday() + 1,  # the month grid's column of its first day (1 = Monday)
        "weekdays": _weekday_names(),
        "previous_url": _page_url(view, previous, recipient_id),
        "next_url": _page_url(view, following, recipient_id),
        "today_url": _page_url(view, today, recipient_id),
        "month_url": _page_url("month", day, recipient_id),
        "week_url": _page_url("week", day, recipient_id),
        "period_holds_today": first <= today <= last,
        "date": day.isoformat(),
        "recipients": recipients,
        "recipient": recipient,
        "show_filter": show_filter,
        "feed_url": feed_url,
        "webcal_url": _webcal(feed_url),
        "recipient_feed_url": recipient_feed_url,
        "recipient_webcal_url": _webcal(recipient_feed_url) if recipient_feed_url else "",
    }
    return render(request, "pages/calendar.html", context)


@require_GET
@login_required_page
def provider_profile_page(request: HttpRequest, pk: int) -> HttpResponse:
    """/providers/<id>: what a family sees of a helper (who may: selectors.provider_profile)."""
    try:
        provider = selectors.provider_profile(provider_id=pk, viewer=request.user)
    except NotFound:
        raise Http404("Provider not found.") from None
    profile = json.loads(JSONRenderer().render(ProviderProfileSerializer(provider).data))  # as the API sends it
    name = " ".join(filter(None, [provider.user.first_name, provider.user.last_name])) or "Kindly helper"
    return render(request, "pages/provider-profile.html", {"name": name, "props": {"profile": profile}})


@require_POST
@login_required_page
def calendar_feed_reset(request: HttpRequest) -> HttpResponse:
    services.calendar_feed_reset(user=request.user)
    queue_toast(
        request,
        title=gettext("New calendar address"),
        description=gettext("The old address no longer works. Subscribe again with the new one."),
    )
    return HttpResponseRedirect(reverse("calendar"))


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The whole feed, or one recipient's visits with ?recipient=<id> (a recipient in whose circle
    the feed's owner is now: once they leave it, that address is a 404 and the whole feed drops
    the recipient's visits)."""
    try:
        user = selectors.calendar_feed_owner(token=token)
        value = request.GET.get("recipient", "")
        recipient = recipient_get(user=user, pk=value) if value else None
    except NotFound:
        raise Http404("Calendar feed not found.") from None
    body = calendar_ics(user=user, page_url=request.build_absolute_uri(reverse("calendar")), recipient=recipient)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="kindly-visits.ics"'
    response["Cache-Control"] = "private, max-age=300"
    return response
