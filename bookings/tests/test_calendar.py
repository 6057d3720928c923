"""/calendar and the private iCalendar feed: the feed parses with the icalendar
library and holds exactly the user's visits (those they make, those of every recipient in their
circles; one recipient's with ?recipient=), in the site's zone; its address can be reset; the page
shows a month or a week, for everyone or one recipient."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone
from icalendar import Calendar

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.services import booking_cancel_by_client, calendar_feed_reset, calendar_feed_token
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from circles.services import member_remove, recipient_for_self
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

ZONE = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)


def _a_tuesday_ahead() -> dt.date:
    """A Tuesday at least 3 days ahead whose Thursday is in the same month: the visits on it and the
    next two days share one week and one month whatever day the tests run."""
    today = timezone.localdate()
    day = today + dt.timedelta(days=3 + (1 - (today.weekday() + 3)) % 7)
    while (day + dt.timedelta(days=2)).month != day.month:
        day += dt.timedelta(days=7)
    return day


DAY = _a_tuesday_ahead()
# Tuesday, March 10, 2026, mid-morning in the site's zone: the page's "today" in the view tests.
NOW = dt.datetime(2026, 3, 10, 10, 0, tzinfo=ZONE)


def _feed(client, user, query: str = ""):
    response = client.get(f"/calendar/{calendar_feed_token(user=user)}.ics{query}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def _events(calendar) -> dict[str, object]:
    return {str(e["uid"]): e for e in calendar.walk("VEVENT")}


def _uids(*bookings) -> set[str]:
    return {f"booking-{b.pk}@kindly" for b in bookings}


def _visit(recipient, client, day: dt.date, **kwargs):
    return BookingFactory(
        service_request__client=client, service_request__recipient=recipient, scheduled_date=day, **kwargs
    )


def _shown(page: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'data-booking="(\d+)"', page)}


def _days(page: str) -> list[str]:
    return re.findall(r'<li class="calendar-day[^"]*" data-date="([\d-]+)"', page)


@pytest.fixture
def circles(db, verified_provider):
    """Two recipients: Clara Senior (her daughter organizes, her son is a member) and Walter Stone
    (the daughter organizes); a stranger's own circle; visits for each, some by `verified_provider`."""
    daughter = UserFactory(first_name="Dana", last_name="Senior")
    son = UserFactory(first_name="Sam", last_name="Senior")
    stranger = UserFactory(first_name="Olga", last_name="Other")
    clara = CareRecipientFactory(first_name="Clara", last_name="Senior")
    walter = CareRecipientFactory(first_name="Walter", last_name="Stone")
    CircleMemberFactory(recipient=clara, user=daughter, role=CircleRole.ORGANIZER)
    son_membership = CircleMemberFactory(recipient=clara, user=son, role=CircleRole.MEMBER)
    CircleMemberFactory(recipient=walter, user=daughter, role=CircleRole.ORGANIZER)
    other = CareRecipientFactory(first_name="Otto", last_name="Other")
    CircleMemberFactory(recipient=other, user=stranger, role=CircleRole.ORGANIZER)
    return {
        "daughter": daughter,
        "son": son,
        "son_membership": son_membership,
        "stranger": stranger,
        "clara": clara,
        "walter": walter,
        "other": other,
        "clara_visit": _visit(
            clara, daughter, DAY, provider=verified_provider, service_request__title="Wellness visit"
        ),
        "clara_cancelled": _visit(clara, daughter, DAY + dt.timedelta(days=1), status=BookingStatus.CANCELLED),
        "walter_visit": _visit(walter, daughter, DAY + dt.timedelta(days=2), service_request__title="Errands"),
        "other_visit": _visit(other, stranger, DAY, scheduled_time="evening", provider=verified_provider),
    }


def test_the_feed_holds_exactly_the_users_visits_in_the_site_zone(client, client_user, verified_provider):
    mine = BookingFactory(
        client=client_user,
        service_request__client=client_user,
        service_request__title="Wellness visit",
        provider=verified_provider,
        scheduled_date=DAY,
        scheduled_time="afternoon",
        duration=90,
    )
    BookingFactory(scheduled_date=DAY)  # someone else's visit
    BookingFactory(
        client=client_user,
        service_request__client=client_user,
        scheduled_date=timezone.localdate() - dt.timedelta(days=120),
    )

    calendar = _feed(client, client_user)  # no sign-in: the token is the key
    events = _events(calendar)
    assert list(events) == [f"booking-{mine.pk}@kindly"]
    event = events[f"booking-{mine.pk}@kindly"]
    assert event.decoded("dtstart") == dt.datetime.combine(DAY, dt.time(12, 0), tzinfo=ZONE)
    assert event.decoded("dtend") - event.decoded("dtstart") == dt.timedelta(minutes=90)
    assert str(event["dtstart"].params["TZID"]) == settings.SITE_TIME_ZONE
    assert [str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")] == [settings.SITE_TIME_ZONE]
    who = mine.recipient.full_name
    assert str(event["summary"]) == f"Kindly: Wellness visit for {who} with {verified_provider.user.full_name}"
    assert str(event["status"]) == "TENTATIVE"  # booked, not paid yet

    as_provider = _events(_feed(client, verified_provider.user))
    assert list(as_provider) == [f"booking-{mine.pk}@kindly"]
    assert str(as_provider[f"booking-{mine.pk}@kindly"]["summary"]) == f"Kindly: Wellness visit for {who}"
    assert list(_events(_feed(client, UserFactory()))) == []


def test_each_feed_holds_the_visits_of_the_users_circles_and_no_one_elses(client, circles, verified_provider):
    c = circles
    daughters = _uids(c["clara_visit"], c["clara_cancelled"], c["walter_visit"])
    assert set(_events(_feed(client, c["daughter"]))) == daughters
    assert set(_events(_feed(client, c["son"]))) == _uids(c["clara_visit"], c["clara_cancelled"])
    assert set(_events(_feed(client, c["stranger"]))) == _uids(c["other_visit"])
    # The provider: the visits they make, in both circles, and not the ones of other helpers.
    assert set(_events(_feed(client, verified_provider.user))) == _uids(c["clara_visit"], c["other_visit"])
    # Another provider's feed holds their own visit only.
    assert set(_events(_feed(client, c["walter_visit"].provider.user))) == _uids(c["walter_visit"])

    events = _events(_feed(client, c["son"]))
    visit = events[f"booking-{c['clara_visit'].pk}@kindly"]
    assert str(visit["summary"]) == f"Kindly: Wellness visit for Clara Senior with {verified_provider.user.full_name}"
    cancelled = events[f"booking-{c['clara_cancelled'].pk}@kindly"]
    assert str(cancelled["status"]) == "CANCELLED"
    assert str(cancelled["summary"]).startswith("Cancelled: ")


def test_a_per_recipient_feed_holds_that_recipients_visits_only(client, circles, verified_provider):
    c = circles
    calendar = _feed(client, c["daughter"], f"?recipient={c['walter'].pk}")
    assert set(_events(calendar)) == _uids(c["walter_visit"])
    assert str(calendar["x-wr-calname"]) == "Kindly visits for Walter Stone"
    assert set(_events(_feed(client, c["daughter"], f"?recipient={c['clara'].pk}"))) == _uids(
        c["clara_visit"], c["clara_cancelled"]
    )
    token = calendar_feed_token(user=c["daughter"])
    for query in (f"?recipient={c['other'].pk}", "?recipient=999999", "?recipient=abc"):
        assert client.get(f"/calendar/{token}.ics{query}").status_code == 404, query
    # The provider visits Clara but is not in her circle: no per-recipient feed for them.
    provider_token = calendar_feed_token(user=verified_provider.user)
    assert client.get(f"/calendar/{provider_token}.ics?recipient={c['clara'].pk}").status_code == 404


def test_a_member_removed_from_a_circle_no_longer_gets_its_visits(client, circles):
    c = circles
    per_recipient = f"/calendar/{calendar_feed_token(user=c['son'])}.ics?recipient={c['clara'].pk}"
    assert client.get(per_recipient).status_code == 200
    client.force_login(c["son"])
    assert c["clara_visit"].pk in _shown(client.get("/calendar", {"date": DAY.isoformat()}).content.decode())
    member_remove(actor=c["daughter"], recipient_id=c["clara"].pk, member_id=c["son_membership"].pk)
    assert not CircleMember.objects.filter(user=c["son"]).exists()
    assert set(_events(_feed(client, c["son"]))) == set()
    assert client.get(per_recipient).status_code == 404
    page = client.get("/calendar", {"date": DAY.isoformat()}).content.decode()
    assert _shown(page) == set()
    assert client.get("/calendar", {"recipient": c["clara"].pk}).status_code == 404


def test_a_cancelled_visit_stays_in_the_feed_as_cancelled(client, client_user):
    booking = BookingFactory(client=client_user, service_request__client=client_user, scheduled_date=DAY)
    booking_cancel_by_client(booking_id=booking.pk, actor=client_user, reason="Feeling better")
    event = _events(_feed(client, client_user))[f"booking-{booking.pk}@kindly"]
    assert str(event["status"]) == "CANCELLED"


def test_an_unknown_or_reset_address_is_not_found(client, client_user):
    old = calendar_feed_token(user=client_user)
    recipient_id = BookingFactory(service_request__client=client_user, scheduled_date=DAY).recipient_id
    assert client.get("/calendar/not-a-token.ics").status_code == 404
    assert client.get(f"/calendar/{old}.ics?recipient={recipient_id}").status_code == 200
    new = calendar_feed_reset(user=client_user)
    assert new != old
    assert client.get(f"/calendar/{old}.ics").status_code == 404
    assert client.get(f"/calendar/{old}.ics?recipient={recipient_id}").status_code == 404
    assert client.get(f"/calendar/{new}.ics").status_code == 200
    assert client.get(f"/calendar/{new}.ics?recipient={recipient_id}").status_code == 200


def test_a_closed_accounts_feed_is_not_found(client, client_user):
    token = calendar_feed_token(user=client_user)
    client_user.is_active = False
    client_user.save(update_fields=["is_active", "updated_at"])
    assert client.get(f"/calendar/{token}.ics").status_code == 404


def test_the_month_view_shows_the_months_days_and_their_visits(client, client_user):
    with time_machine.travel(NOW, tick=False):
        march = _visit(recipient_for_self(user=client_user), client_user, dt.date(2026, 3, 20), status="confirmed")
        april = _visit(recipient_for_self(user=client_user), client_user, dt.date(2026, 4, 2))
        feb = _visit(recipient_for_self(user=client_user), client_user, dt.date(2026, 2, 27))
        assert client.get("/calendar")["Location"].startswith("/login?next=")
        client.force_login(client_user)

        page = client.get("/calendar").content.decode()  # a month, today's, by default
        assert _days(page) == [f"2026-03-{d:02}" for d in range(1, 32)]
        assert '<h2 id="calendar-title" data-testid="calendar-title">March 2026</h2>' in page
        assert re.search(r'data-date="2026-03-10" aria-current="date">', page)
        assert "calendar-start-7" in page  # March 1, 2026 is a Sunday: the grid's last column
        assert _shown(page) == {march.pk}
        assert "Friday, March 20" in page and march.service_request.title in page
        assert 'href="/calendar?view=month&amp;date=2026-02-01"' in page  # previous
        assert 'href="/calendar?view=month&amp;date=2026-04-01"' in page  # next
        assert 'href="/calendar?view=month&amp;date=2026-03-10"' in page  # today

        page = client.get("/calendar", {"view": "month", "date": "2026-02-14"}).content.decode()
        assert _days(page) == [f"2026-02-{d:02}" for d in range(1, 29)]
        assert _shown(page) == {feb.pk} and 'aria-current="date"' not in page
        page = client.get("/calendar", {"view": "month", "date": "2026-04-30"}).content.decode()
        assert len(_days(page)) == 30 and _shown(page) == {april.pk}
        # A typo in the address shows today's month rather than an error.
        for query in ({"date": "2026-13-01"}, {"date": "soon"}, {"view": "year"}, {"date": "0001-01-01"}):
            response = client.get("/calendar", query)
            assert response.status_code == 200 and "March 2026" in response.content.decode(), query


def test_the_week_view_shows_monday_to_sunday(client, client_user):
    me = recipient_for_self(user=client_user)
    with time_machine.travel(NOW, tick=False):
        monday = _visit(me, client_user, dt.date(2026, 3, 9))
        sunday = _visit(me, client_user, dt.date(2026, 3, 15), scheduled_time="evening")
        _visit(me, client_user, dt.date(2026, 3, 16))  # the next week
        client.force_login(client_user)

        page = client.get("/calendar", {"view": "week"}).content.decode()
        assert _days(page) == [f"2026-03-{d:02}" for d in range(9, 16)]
        assert "March 9 to 15, 2026" in page
        assert _shown(page) == {monday.pk, sunday.pk}
        assert page.count("No visits</p>") == 5  # every day listed, empty ones say so
        assert "5:00 PM" in page  # the evening visit, in the site's zone
        assert 'href="/calendar?view=week&amp;date=2026-03-02"' in page
        assert 'href="/calendar?view=week&amp;date=2026-03-16"' in page
        assert 'href="/calendar?view=month&amp;date=2026-03-10"' in page  # back to the month

        page = client.get("/calendar", {"view": "week", "date": "2026-12-31"}).content.decode()
        new_year = dt.date(2026, 12, 28)
        assert _days(page) == [(new_year + dt.timedelta(days=n)).isoformat() for n in range(7)]
        assert "December 28, 2026 to January 3, 2027" in page
        assert "No visits this week." in page


def test_a_client_chooses_whose_visits_the_page_shows(client, circles):
    c = circles
    client.force_login(c["daughter"])
    month = {"date": DAY.isoformat(), "view": "week"}
    page = client.get("/calendar", month).content.decode()
    assert c["clara_visit"].pk in _shown(page) and c["other_visit"].pk not in _shown(page)
    options = re.findall(r'<option value="(\w+)"[^>]*>([^<]+)</option>', page)
    assert options == [("all", "All"), (str(c["clara"].pk), "Clara Senior"), (str(c["walter"].pk), "Walter Stone")]
    assert "For Clara Senior, with " in page
    assert 'data-testid="recipient-feed-url"' not in page

    walters_week = {"view": "week", "date": c["walter_visit"].scheduled_date.isoformat()}
    assert c["walter_visit"].pk in _shown(client.get("/calendar", walters_week).content.decode())
    page = client.get("/calendar", {**walters_week, "recipient": c["walter"].pk}).content.decode()
    assert _shown(page) == {c["walter_visit"].pk}
    page = client.get("/calendar", {**month, "recipient": c["walter"].pk}).content.decode()
    assert c["clara_visit"].pk not in _shown(page)
    assert "Visits for Walter Stone" in page
    token = calendar_feed_token(user=c["daughter"])
    assert f"/calendar/{token}.ics?recipient={c['walter'].pk}" in page  # the per-recipient address
    assert f'value="http://testserver/calendar/{token}.ics"' in page  # and the whole one
    assert "selected>Walter Stone</option>" in page
    assert f"recipient={c['walter'].pk}" in re.search(r'href="([^"]+)">Next week', page).group(1)

    assert client.get("/calendar", {"recipient": c["other"].pk}).status_code == 404
    assert client.get("/calendar", {"recipient": "abc"}).status_code == 404
    assert client.get("/calendar", {"recipient": "all"}).status_code == 200


def test_the_page_names_whom_each_visit_is_for_and_marks_cancelled_ones(client, circles, verified_provider):
    c = circles
    around = {"view": "month", "date": DAY.isoformat()}
    client.force_login(c["son"])
    page = client.get("/calendar", around).content.decode()
    shown = _shown(page)
    assert c["walter_visit"].pk not in shown and c["other_visit"].pk not in shown
    cancelled = re.search(rf'data-booking="{c["clara_cancelled"].pk}">(.*?)</li>', page, re.S).group(1)
    assert '<p class="calendar-cancelled-label">Cancelled</p>' in cancelled and "<s>" in cancelled
    assert 'data-testid="calendar-filter"' not in page  # one recipient: nothing to choose

    client.force_login(verified_provider.user)
    page = client.get("/calendar", around).content.decode()
    assert _shown(page) & {c["walter_visit"].pk, c["clara_cancelled"].pk} == set()
    assert "For Clara Senior; you are the helper" in page
    assert "For Otto Other; you are the helper" in page


def test_a_visit_of_a_series_says_which_one_it_is(client, client_user, verified_provider):
    me = recipient_for_self(user=client_user)
    first = _visit(me, client_user, DAY, provider=verified_provider, series_index=1)
    series = [first] + [
        BookingFactory(
            service_request=first.service_request,
            provider=verified_provider,
            scheduled_date=DAY + dt.timedelta(weeks=n),
            series_index=n + 1,
        )
        for n in range(1, 4)
    ]
    client.force_login(client_user)
    page = client.get("/calendar", {"view": "week", "date": series[1].scheduled_date.isoformat()}).content.decode()
    assert _shown(page) == {series[1].pk}
    assert "Visit 2 of 4" in page
    event = _events(_feed(client, client_user))[f"booking-{series[3].pk}@kindly"]
    assert "Visit 4 of 4." in str(event["description"])


def test_the_page_resets_the_address_by_post_only(client, client_user):
    client.force_login(client_user)
    old = calendar_feed_token(user=client_user)
    assert client.get("/calendar/reset").status_code == 405
    response = client.post("/calendar/reset")
    assert response.status_code == 302 and response["Location"] == "/calendar"
    assert calendar_feed_token(user=client_user) != old


def test_an_empty_calendar_says_so(client, client_user):
    client.force_login(client_user)
    page = client.get("/calendar").content.decode()
    assert "No visits this month." in page
    assert f"/calendar/{calendar_feed_token(user=client_user)}.ics" in page


def test_a_helpers_time_off_shows_on_her_calendar_and_in_her_own_feed(client, client_user, verified_provider):
    from providers.models import TimeOff

    with time_machine.travel(NOW, tick=False):
        away = TimeOff.objects.create(
            provider=verified_provider, first_day=dt.date(2026, 3, 16), last_day=dt.date(2026, 3, 17), note="Family"
        )
        client.force_login(verified_provider.user)
        page = client.get("/calendar", {"view": "week", "date": "2026-03-16"}).content.decode()
        day_off = r'data-date="(2026-03-\d\d)"[^>]*>\s*<h3.*?</h3>\s*<p class="calendar-time-off"'
        marked = re.findall(day_off, page, re.S)
        assert marked == ["2026-03-16", "2026-03-17"]
        assert "<strong>Time off</strong>: Family" in page
        # The family's calendar shows no one's time off.
        client.force_login(client_user)
        assert "calendar-time-off" not in client.get("/calendar", {"date": "2026-03-16"}).content.decode()

        event = _events(_feed(client, verified_provider.user))[f"time-off-{away.pk}@kindly"]
        assert event.decoded("dtstart") == dt.date(2026, 3, 16)
        assert event.decoded("dtend") == dt.date(2026, 3, 18)  # all day, the day after the last
        assert str(event["summary"]) == "Kindly: time off"
        assert list(_events(_feed(client, client_user))) == []
