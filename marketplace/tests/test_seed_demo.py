"""seed_demo writes through the same rules as the API: its requests are made by the service."""

import datetime as dt
import io
import zoneinfo
from decimal import Decimal

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from bookings.models import Booking, BookingStatus, PaymentStatus, VisitReport
from bookings.selectors import VisitState, visit_state, visits_needing_alert
from payments.models import Earning, PayoutSetup, PayoutState
from providers.models import Provider
from requests_app.models import RequestStatus, ServiceRequest

TODAY_VISIT = "Wellness check and a cup of tea"


@pytest.mark.django_db
def test_seed_demo_makes_valid_requests_one_booked_with_the_helper_and_adds_nothing_when_run_again(firebase_auth):
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())

    requests = (
        ServiceRequest.objects.filter(client__email="client@kindly.example")
        .exclude(status=RequestStatus.COMPLETED)  # the visit of _demo_earnings, below
        .exclude(title=TODAY_VISIT)  # today's visit, below
    )
    assert requests.count() == 3
    assert sorted(requests.values_list("status", flat=True)) == [
        RequestStatus.BOOKED,
        RequestStatus.OPEN,
        RequestStatus.OPEN,
    ]
    booking = Booking.objects.get(service_request__in=requests)
    assert booking.provider.user.email == "provider@kindly.example"
    assert all(r.estimated_duration % 15 == 0 and r.max_budget % 5 == 0 for r in requests)
    assert Provider.objects.filter(user__email__endswith="@kindly.example").count() == 2


@pytest.mark.django_db(transaction=True)
def test_seed_demo_gives_the_helper_payouts_and_one_paid_completed_visit_once(firebase_auth, settings):
    settings.PAYMENTS_BACKEND = "test"  # the embedded default of make run
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())

    helper = Provider.objects.get(user__email="provider@kindly.example")
    assert helper.connected_account.setup == PayoutSetup.ON
    # Today's paid visit (below) earns nothing yet; the completed one's share is on its way.
    [earning] = Earning.objects.filter(booking__provider=helper, booking__status=BookingStatus.COMPLETED)
    assert earning.booking.status == BookingStatus.COMPLETED
    assert earning.booking.payment_status == PaymentStatus.PAID
    assert (earning.gross, earning.fee, earning.net) == (Decimal("45.00"), Decimal("6.75"), Decimal("38.25"))
    assert earning.state == PayoutState.ON_ITS_WAY


@pytest.mark.django_db(transaction=True)
def test_seed_demo_puts_the_son_in_the_circle_and_a_paid_visit_today(firebase_auth, settings):
    from circles.models import CircleMember, CircleRole

    settings.PAYMENTS_BACKEND = "test"
    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())

    [member] = CircleMember.objects.filter(user__email="family@kindly.example")
    assert member.role == CircleRole.MEMBER
    assert member.recipient.account.email == "client@kindly.example"
    helper = "provider@kindly.example"
    [today] = Booking.objects.filter(provider__user__email=helper, service_request__title=TODAY_VISIT)
    assert (today.status, today.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    assert today.recipient == member.recipient


# Times of day on the site's clock `make run` may start at: before the morning, late in the
# morning, mid-afternoon, the evening (18:30 is still 17:30 on the demo recipient's), late at night.
@pytest.mark.parametrize("clock", ["06:00", "11:30", "16:30", "18:30", "23:30"])
@pytest.mark.django_db(transaction=True)
def test_the_demo_visit_of_today_starts_in_no_alarm_whatever_the_time(firebase_auth, settings, clock):
    settings.PAYMENTS_BACKEND = "test"
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    day = timezone.localdate() + dt.timedelta(days=30)
    moment = dt.datetime.combine(day, dt.time.fromisoformat(clock), tzinfo=zone)
    with time_machine.travel(moment, tick=False):
        call_command("seed_demo", stdout=io.StringIO())
        [visit] = Booking.objects.filter(service_request__title=TODAY_VISIT)
        assert visit.status == BookingStatus.CONFIRMED
        assert visit_state(visit, now=moment) == VisitState.UPCOMING
        assert visits_needing_alert(now=moment) == []
        # Today's while a window can still be kept, else tomorrow morning's: on the clock of the
        # person cared for (her Springfield, Illinois ZIP code's, an hour behind the site's).
        assert visit.recipient.time_zone == "America/Chicago"
        hers = moment.astimezone(visit.recipient.zone)
        today = hers.date()
        assert visit.scheduled_date == (today if hers.time() < dt.time(18) else today + dt.timedelta(days=1))


def test_the_sign_ins_list_all_five_demo_accounts_with_the_pending_applicant():
    out = io.StringIO()
    call_command("seed_demo", "--print-sign-ins", stdout=out)
    lines = [line for line in out.getvalue().splitlines() if not line.startswith(" " * 14)]

    assert [line.split()[0] for line in lines] == ["Admin", "Provider", "Client", "Family", "Applicant"]
    assert "applicant@kindly.example / kindly-demo-1  (Paul)" in lines[-1]


@pytest.mark.django_db
def test_the_demo_admin_passes_the_second_step_with_the_printed_key_or_code(firebase_auth, client):
    from django.contrib.auth import get_user_model

    from marketplace.management.commands.seed_demo import DEMO_ADMIN_AUTHENTICATOR_KEY
    from marketplace.testing.second_factor import totp_code

    call_command("seed_demo", stdout=io.StringIO())
    sign_ins = io.StringIO()
    call_command("seed_demo", "--print-sign-ins", stdout=sign_ins)
    printed = " ".join(DEMO_ADMIN_AUTHENTICATOR_KEY[i : i + 4] for i in range(0, 32, 4))
    assert f"the code of an authenticator app with the key {printed}" in sign_ins.getvalue()
    code = io.StringIO()
    call_command("seed_demo", "--second-step-code", stdout=code)
    assert code.getvalue().strip() == totp_code(DEMO_ADMIN_AUTHENTICATOR_KEY)

    client.force_login(get_user_model().objects.get(email="admin@kindly.example"))
    assert client.get("/admin")["Location"] == "/second-factor?next=%2Fadmin"
    assert (
        client.post("/second-factor/authenticator?next=/admin", {"code": code.getvalue().strip()})["Location"]
        == "/admin"
    )
    assert client.get("/admin").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_demo_history_visit_was_checked_in_and_out_on_its_own_day_inside_its_window(firebase_auth, settings):
    """The visit moved to last week keeps its check-in, check-out and report with it: on its day and
    inside its window on the recipient's clock, not at the moment the demo was seeded."""
    settings.PAYMENTS_BACKEND = "test"
    call_command("seed_demo", stdout=io.StringIO())

    visit = Booking.objects.get(service_request__title="Afternoon wellness check")
    zone = visit.recipient.zone
    assert visit.scheduled_date < timezone.localtime(timezone.now(), zone).date()
    assert visit.checked_in_at is not None and visit.checked_out_at is not None
    for moment in (visit.checked_in_at, visit.checked_out_at):
        assert timezone.localtime(moment, zone).date() == visit.scheduled_date
        assert visit.starts_at <= moment <= visit.window_ends_at
    assert visit.checked_in_at < visit.checked_out_at
    report = VisitReport.objects.get(booking=visit)
    assert report.created_at == report.updated_at == visit.checked_out_at


@pytest.mark.django_db
def test_seed_demo_places_clara_and_her_neighbours_some_near_enough_to_come(firebase_auth):
    from circles.models import CareRecipient
    from core.geo import Point
    from core.geocoding import PlaceStatus
    from providers.selectors import provider_list_public

    call_command("seed_demo", stdout=io.StringIO())
    clara = CareRecipient.objects.get(account__email="client@kindly.example")
    assert clara.place_status == PlaceStatus.LOCATED
    assert (
        not Provider.objects.exclude(place_status=PlaceStatus.LOCATED).exclude(verification_status="pending").exists()
    )
    near = provider_list_public(near=Point(clara.latitude, clara.longitude), sort="distance")
    names = [p.user.first_name for p in near]
    assert names[:2] == ["Vera", "Ana"] and {"Ben", "Carmen", "Dev", "Elena", "Grace"} <= set(names)
    assert not {"Frank", "Hank"} & set(names)  # Decatur and Bloomington: farther than they travel


@pytest.mark.django_db
def test_the_verified_demo_helpers_have_the_dates_of_their_checks_and_the_applicant_none(firebase_auth):
    call_command("seed_demo", stdout=io.StringIO())
    verified = Provider.objects.filter(verification_status="verified")
    assert verified.count() >= 9
    for helper in verified:
        assert helper.identity_verified_at is not None and helper.background_checked_at is not None
        assert helper.background_checked_at < timezone.now()
    applicant = Provider.objects.get(user__email="applicant@kindly.example")
    assert applicant.identity_verified_at is None and applicant.background_checked_at is None


@pytest.mark.django_db(transaction=True)
def test_under_make_runs_demo_geocoder_the_demo_visit_was_checked_in_at_claras_home(firebase_auth, settings):
    """make run places the demo home to the street (GEOCODER=demo): the demo's finished visit was
    checked in and out there, so it reads "verified" (and the seed asks no reason)."""
    settings.PAYMENTS_BACKEND = "test"
    settings.GEOCODER = "demo"
    call_command("seed_demo", stdout=io.StringIO())
    [visit] = Booking.objects.filter(status=BookingStatus.COMPLETED, provider__user__email="provider@kindly.example")
    assert visit.check_in_verified is True and visit.check_out_verified is True
