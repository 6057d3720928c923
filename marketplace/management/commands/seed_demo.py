"""Demo data for `make run`: five sign-ins (admin, verified provider, client, the client's son in
her care circle, and a helper whose application is pending review) and a little history (with
the offline test gateway: the provider's payouts on, one paid, completed visit, and a paid visit
today to check in to). Around Clara's home in Springfield, IL, eight more verified helpers (local
accounts, no sign-in) live in the towns nearby, each travelling her own distance: browse by
distance has neighbours to show, near and far, some who come and some who do not. The demo
admin's second step is an authenticator app with a published demo key
(DEMO_ADMIN_AUTHENTICATOR_KEY): `--second-step-code` prints its current code.

Idempotent: running it again updates the same accounts and adds nothing twice.
"""

from __future__ import annotations

import datetime as dt
from base64 import b32decode
from decimal import Decimal

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.firebase import firebase_user_upsert
from accounts.models import User, UserType
from bookings.models import REMIND_BEFORE_LATE, Booking, VisitReport
from bookings.services import booking_check_in, booking_check_out, service_request_accept, visit_checklist
from circles.models import CareRecipient, CircleMember, CircleRole
from circles.services import recipient_for_self, recipient_place, recipient_update
from core.errors import InvalidInput
from core.geocoding import zip_town
from payments.gateways import TEST_CARD_SUCCEEDS, is_test_gateway_active
from payments.models import ConnectedAccount, Earning
from payments.payouts import connected_account_start, test_onboarding_finish
from payments.services import payment_intent_create, payment_test_confirm
from providers.models import Provider, VerificationStatus
from providers.services import provider_application_problems, provider_place
from requests_app.models import WINDOW_START, ServiceCategory, ServiceRequest, TimeWindow, Urgency
from requests_app.services import service_request_create
from vetting.models import BackgroundCheck, CheckStatus, IdentityCheck, IdentityStatus

DEMO_PASSWORD = "kindly-demo-1"
# The demo admin's second step (staff pass one after the password): an authenticator app with this
# key, printed with the sign-ins. Demo data only: real staff set up their own at first sign-in.
DEMO_ADMIN_EMAIL = "admin@kindly.example"
DEMO_ADMIN_AUTHENTICATOR_KEY = "KINDLYDEMOADMINSECONDSTEPFORMAKE"
DEMO_AUTHENTICATOR_NAME = "Authenticator app (demo key)"
# Clara's home, in parts: helpers considering her requests see "Springfield, IL 62704" only.
DEMO_ADDRESS = {"street": "12 Elm Street", "unit": "", "town": "Springfield", "state": "IL", "zip_code": "62704"}
DEMO_USERS = [
    # email, first, last, type, provider status (None: not a provider)
    (DEMO_ADMIN_EMAIL, "Ada", "Admin", UserType.ADMIN, None),
    ("provider@kindly.example", "Vera", "Helper", UserType.PROVIDER, VerificationStatus.VERIFIED),
    ("client@kindly.example", "Clara", "Senior", UserType.CLIENT, None),
    # Clara's son, in her care circle: he sees her visits, messages and reports.
    ("family@kindly.example", "Sam", "Senior", UserType.CLIENT, None),
    ("applicant@kindly.example", "Paul", "Applicant", UserType.PROVIDER, VerificationStatus.PENDING),
]


def demo_evidence(status: str) -> dict:
    """The dates of a demo helper's checks (the profile page's "ID verified <month year>"): a verified
    one was checked four months ago; an applicant has no check yet."""
    if status != VerificationStatus.VERIFIED:
        return {"identity_verified_at": None, "background_checked_at": None}
    checked = timezone.now().replace(hour=12, minute=0, second=0, microsecond=0) - dt.timedelta(days=120)
    return {"identity_verified_at": checked - dt.timedelta(days=3), "background_checked_at": checked}


# Helpers in the towns around Springfield (home ZIP, miles she travels), spread as people live:
# most in town or the next town, a few farther out; some travel far enough to reach Clara
# (62704), some do not (Frank in Decatur, Hank in Bloomington).
DEMO_NEIGHBOURS = [
    # first, last, home ZIP (town), travel miles, services, hourly rate
    ("Ana", "Rivera", "62702", 10, ["light-errands", "appointment-support", "wellness-checks"], 30),  # Springfield
    ("Ben", "Okafor", "62629", 20, ["tech-support", "communication-support"], 35),  # Chatham
    ("Carmen", "Diaz", "62563", 15, ["home-organization", "light-errands"], 25),  # Rochester
    ("Dev", "Patel", "62684", 25, ["tech-support", "appointment-support"], 40),  # Sherman
    ("Elena", "Novak", "62650", 40, ["wellness-checks", "appointment-support"], 30),  # Jacksonville
    ("Frank", "Moore", "62521", 25, ["light-errands", "home-organization"], 25),  # Decatur: too far
    ("Grace", "Lee", "62656", 50, ["communication-support", "wellness-checks"], 35),  # Lincoln
    ("Hank", "Brown", "61701", 30, ["tech-support"], 30),  # Bloomington: too far
]
# The languages a neighbour speaks, when not English only: Ana's visits are the ones a
# Spanish-speaking family is offered first.
DEMO_SPEAKS = {"Ana": ["en", "es"], "Carmen": ["es", "en"]}


def demo_visit_slot(recipient: CareRecipient, *, now: dt.datetime) -> tuple[dt.date, str]:
    """The day and window of the demo's visit of today: one the helper can still keep with no
    reminder nor alarm due (Booking.check_in_by, REMIND_BEFORE_LATE), preferring one that has begun
    so she can check in at once; tomorrow morning once the evening's is past."""
    today = timezone.localtime(now, recipient.zone).date()
    windows = [w for w in WINDOW_START if w != TimeWindow.FLEXIBLE]

    def visit(window: str) -> Booking:
        booking = Booking(scheduled_date=today, scheduled_time=window, duration=60, recipient=recipient)
        booking.fill_visit_times()
        return booking

    quiet = [w for w in windows if now < visit(w).check_in_by - REMIND_BEFORE_LATE]
    begun = [w for w in quiet if visit(w).starts_at <= now]
    if begun:
        return today, max(begun, key=lambda w: WINDOW_START[w])
    if quiet:
        return today, min(quiet, key=lambda w: WINDOW_START[w])
    return today + dt.timedelta(days=1), TimeWindow.MORNING


def _sign_in_label(email: str, user_type: UserType, status: VerificationStatus | None) -> str:
    """What each demo sign-in is for, as the `make run` banner lists them (all five of them)."""
    if email.startswith("family@"):
        return "Family"
    if status == VerificationStatus.PENDING:
        return "Applicant"
    return str(user_type.label)


# Applicants waiting in the vetting queue: (first, last, background check result).
DEMO_APPLICANTS = [("Irene", "Novak", "clear"), ("Walter", "Briggs", "consider")]


class Command(BaseCommand):
    help = "Create the demo accounts (in Firebase and locally) and some demo requests. Safe to run again."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--print-sign-ins", action="store_true", help="Only print the demo sign-ins.")
        parser.add_argument("--dry-run", action="store_true", help="Say what would be created; change nothing.")
        parser.add_argument(
            "--second-step-code",
            action="store_true",
            help="Only print the demo admin's current authenticator code (the second step after the password).",
        )

    def handle(
        self,
        *args,
        print_sign_ins: bool = False,
        dry_run: bool = False,
        second_step_code: bool = False,
        **options,
    ) -> None:
        if second_step_code:
            self.stdout.write(self._second_step_code())
            return
        if print_sign_ins:
            for email, first, _last, user_type, status in DEMO_USERS:
                label = _sign_in_label(email, user_type, status)
                self.stdout.write(f"    {label:<9} {email} / {DEMO_PASSWORD}  ({first})")
                if email == DEMO_ADMIN_EMAIL:
                    key = " ".join(DEMO_ADMIN_AUTHENTICATOR_KEY[i : i + 4] for i in range(0, 32, 4))
                    self.stdout.write(
                        f"              then the second step: the code of an authenticator app with the key {key},\n"
                        "              or the code now: .venv/bin/python manage.py seed_demo --second-step-code"
                    )
            return
        if dry_run:
            for email, _first, _last, user_type, status in DEMO_USERS:
                self.stdout.write(f"would create or update {user_type} {email}" + (f" ({status})" if status else ""))
            self.stdout.write(
                "would create 3 demo requests for the client if it has none, one booked with the provider"
            )
            self.stdout.write("would add the family member to the client's care circle")
            self.stdout.write(f"would create or update {len(DEMO_NEIGHBOURS)} verified helpers in nearby towns")
            self.stdout.write("would create or update 2 pending applicants with checks done: one clear, one consider")
            self.stdout.write("would give the admin an authenticator app with the demo key (the second step)")
            self.stdout.write(
                "with the offline test gateway: would give the provider payouts (simulated account), one "
                "paid, completed visit and one paid visit today (to check in)"
            )
            return
        users = {}
        for email, first, last, user_type, status in DEMO_USERS:
            local_uid = User.objects.filter(email=email).values_list("id", flat=True).first()
            uid = firebase_user_upsert(
                email=email, password=DEMO_PASSWORD, display_name=f"{first} {last}", uid=local_uid
            )
            users[email] = self._local_user(uid, email, first, last, user_type, status)
        self._demo_neighbours()
        self._demo_applicants()
        self._demo_second_step(users[DEMO_ADMIN_EMAIL])
        self._demo_requests(users["client@kindly.example"], helper=users["provider@kindly.example"])
        self._demo_family(users["client@kindly.example"], family=users["family@kindly.example"])
        self._demo_places()
        if is_test_gateway_active():
            self._demo_earnings(users["client@kindly.example"], helper=users["provider@kindly.example"])
            self._demo_visit_today(users["client@kindly.example"], helper=users["provider@kindly.example"])
        self.stdout.write(self.style.SUCCESS("Demo data is ready."))

    @transaction.atomic
    def _local_user(self, uid, email, first, last, user_type, status) -> User:
        user, _ = User.objects.update_or_create(
            id=uid, defaults={"email": email, "first_name": first, "last_name": last, "user_type": user_type}
        )
        if status is not None:
            application = {
                "phone": "555-0100-200",
                "specialties": ["tech-support", "wellness-checks", "light-errands"],
                "hourly_rate": Decimal("30.00"),
                "service_area": "Springfield and nearby towns",
                "home_zip": "62703",
                "travel_miles": 15,
                "bio": "Retired teacher who loves helping neighbours with phones, tablets and errands.",
                "experience": "Eight years volunteering at the Springfield senior centre.",
            }
            # Kept in place on a re-run (not a second application), under the same rules as one.
            InvalidInput.check(provider_application_problems(**application))
            Provider.objects.update_or_create(
                user=user, defaults={**application, "verification_status": status, **demo_evidence(status)}
            )
        return user

    @transaction.atomic
    def _demo_neighbours(self) -> None:
        """The verified helpers around Springfield (DEMO_NEIGHBOURS), under the application's rules."""
        for first, last, home_zip, travel, services, rate in DEMO_NEIGHBOURS:
            user, _ = User.objects.update_or_create(
                id=f"demo-helper-{first.lower()}",
                defaults={
                    "email": f"{first.lower()}@helpers.kindly.example",
                    "first_name": first,
                    "last_name": last,
                    "user_type": UserType.PROVIDER,
                },
            )
            town = zip_town(home_zip)[0]
            application = {
                "phone": "555-0100-300",
                "specialties": services,
                "hourly_rate": Decimal(rate),
                "service_area": f"{town} and nearby",
                "home_zip": home_zip,
                "travel_miles": travel,
                "bio": f"I live in {town} and help older neighbours with everyday things, patiently and kindly.",
                "experience": f"Years of helping family and neighbours around {town}.",
            }
            InvalidInput.check(provider_application_problems(**application))
            verified = VerificationStatus.VERIFIED
            Provider.objects.update_or_create(
                user=user,
                defaults={
                    **application,
                    "languages": DEMO_SPEAKS.get(first, ["en"]),
                    "verification_status": verified,
                    **demo_evidence(verified),
                },
            )

    @transaction.atomic
    def _demo_applicants(self) -> None:
        """Two pending applicants in the vetting queue, their ID verified (offline gateway): one whose
        background check came back clear (staff may approve her), one "consider" (staff decide first)."""
        now = timezone.now()
        for first, last, result in DEMO_APPLICANTS:
            user, _ = User.objects.update_or_create(
                id=f"demo-applicant-{first.lower()}",
                defaults={
                    "email": f"{first.lower()}@applicants.kindly.example",
                    "first_name": first,
                    "last_name": last,
                    "user_type": UserType.PROVIDER,
                },
            )
            application = {
                "phone": "555-0100-400",
                "specialties": ["light-errands", "wellness-checks"],
                "hourly_rate": Decimal("25.00"),
                "service_area": "Springfield",
                "home_zip": "62704",
                "travel_miles": 10,
                "bio": "I would like to help older neighbours with errands and friendly check-ins.",
                "experience": "Years of caring for my own parents and helping at church.",
            }
            InvalidInput.check(provider_application_problems(**application))
            provider, _ = Provider.objects.get_or_create(
                user=user, defaults={**application, "verification_status": VerificationStatus.PENDING}
            )
            IdentityCheck.objects.update_or_create(
                provider=provider,
                session_id=f"vs_offline_demo_{provider.pk}",
                defaults={
                    "status": IdentityStatus.VERIFIED,
                    "verified_first_name": first,
                    "verified_last_name": last,
                    "completed_at": now,
                },
            )
            BackgroundCheck.objects.update_or_create(
                provider=provider,
                report_id=f"rpt_offline_demo_{provider.pk}",
                defaults={"candidate_id": f"cand_offline_demo_{provider.pk}", "status": result, "completed_at": now},
            )
            Provider.objects.filter(pk=provider.pk).update(
                identity_verified_at=now, background_checked_at=now if result == CheckStatus.CLEAR else None
            )

    def _demo_places(self) -> None:
        """Every demo home placed now (the geocoder, outside any transaction), not when the worker
        gets to it: browse by distance works from the first page."""
        for pk in Provider.objects.exclude(home_zip="").values_list("pk", flat=True):
            provider_place(provider_id=pk)
        for pk in CareRecipient.objects.exclude(zip_code="").values_list("pk", flat=True):
            recipient_place(recipient_id=pk)

    def _demo_second_step(self, admin: User) -> None:
        """The demo admin's authenticator app, with the published demo key (kept on a re-run; put
        back if it was reset)."""
        key = b32decode(DEMO_ADMIN_AUTHENTICATOR_KEY).hex()
        TOTPDevice.objects.update_or_create(
            user=admin, name=DEMO_AUTHENTICATOR_NAME, defaults={"key": key, "confirmed": True}
        )

    def _second_step_code(self) -> str:
        device = TOTPDevice.objects.filter(user__email=DEMO_ADMIN_EMAIL, name=DEMO_AUTHENTICATOR_NAME).first()
        if device is None:
            raise CommandError("The demo admin has no demo authenticator: run seed_demo first.")
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits)
        return f"{totp.token():06d}"

    @transaction.atomic
    def _demo_requests(self, client: User, *, helper: User) -> None:
        if ServiceRequest.objects.filter(client=client).exists():
            return
        today = timezone.localdate()
        demo = [
            (
                "tech-support",
                "Set up video calls on my tablet",
                "I want to call my grandchildren on the tablet.",
                Urgency.NORMAL,
                TimeWindow.MORNING,
                5,
            ),
            (
                "light-errands",
                "Weekly grocery run",
                "Pick up groceries from the list I keep by the door.",
                Urgency.LOW,
                TimeWindow.AFTERNOON,
                8,
            ),
            (
                "appointment-support",
                "Company for a doctor visit",
                "Go with me to the clinic and take notes.",
                Urgency.HIGH,
                TimeWindow.MORNING,
                3,
            ),
        ]
        created = []
        for slug, title, description, urgency, window, days in demo:
            created.append(
                service_request_create(
                    client=client,
                    category=ServiceCategory.objects.get(slug=slug),
                    title=title,
                    description=description,
                    urgency=urgency,
                    preferred_time=window,
                    preferred_date=today + dt.timedelta(days=days),
                    address=DEMO_ADDRESS,
                    estimated_duration=60,
                    max_budget=Decimal("60.00"),
                )
            )
        # One of them booked with the verified helper, so the client's dashboard shows who is
        # coming and the two can message from the start.
        _offer_to(created[1], helper)
        service_request_accept(service_request_id=created[1].id, actor=helper)

    @transaction.atomic
    def _demo_family(self, client: User, *, family: User) -> None:
        """Clara's son in her care circle, as a member (he sees; Clara organizes and pays)."""
        recipient = recipient_for_self(user=client)
        CircleMember.objects.get_or_create(recipient=recipient, user=family, defaults={"role": CircleRole.MEMBER})
        if not recipient.notes_for_helpers:
            # The door code lives in the notes for helpers: the booked helper reads them while her
            # visit is on, nobody before (requests_app.selectors.address_shown_to).
            recipient_update(
                actor=client,
                recipient_id=recipient.pk,
                **DEMO_ADDRESS,
                phone="(217) 555-0142",  # a number the phone menu knows (E.164 +12175550142)
                notes_for_helpers="Key safe by the back door, code 4321. Ring twice: I am a little hard of hearing.",
            )

    def _demo_visit_today(self, client: User, *, helper: User) -> None:
        """A paid visit today that starts in no alarm, so the helper can check in and the family watch
        it: the window that has started last among those the helper can still keep with
        no reminder due yet (else the next such window; after the evening's, tomorrow morning), on
        the clock of the person cared for, whatever the time `make run` starts. A window that has
        started can no longer be accepted, so the visit is booked and paid two weeks ahead (the same
        weekday, inside the helper's hours, clear of the other demo visits) and then moved to its
        day: demo history, as _demo_earnings does."""
        title = "Wellness check and a cup of tea"
        recipient = recipient_for_self(user=client)
        today = timezone.localtime(timezone.now(), recipient.zone).date()
        if Booking.objects.filter(
            provider__user=helper, service_request__title=title, scheduled_date__gte=today
        ).exists():
            return
        day, window = demo_visit_slot(recipient, now=timezone.now())
        with transaction.atomic():
            request = service_request_create(
                client=client,
                category=ServiceCategory.objects.get(slug="wellness-checks"),
                title=title,
                description="Visit me, check that I take my tablets, and have a chat.",
                urgency=Urgency.NORMAL,
                preferred_time=window,
                preferred_date=day + dt.timedelta(days=14),
                address=DEMO_ADDRESS,
                estimated_duration=60,
                max_budget=Decimal("60.00"),
            )
            _offer_to(request, helper)
            booking = service_request_accept(service_request_id=request.id, actor=helper)
        payment_intent_create(actor=client, booking_id=booking.pk)
        payment_test_confirm(actor=client, booking_id=booking.pk, card_number=TEST_CARD_SUCCEEDS)
        booking.refresh_from_db()
        booking.scheduled_date = day  # save() moves the visit's stored times with the date
        booking.save(update_fields=["scheduled_date", "updated_at"])
        ServiceRequest.objects.filter(pk=request.pk).update(preferred_date=day)

    def _demo_earnings(self, client: User, *, helper: User) -> None:
        """The offline test gateway's payouts, for /earnings: the helper's simulated account has payouts
        on, and one visit last week was paid and completed, so its share is on its way. Through the
        same services as the pages (the visit is moved to last week once paid: demo history)."""
        provider = Provider.objects.get(user=helper)
        if Earning.objects.filter(booking__provider=provider).exists():
            return
        connected_account_start(actor=helper, refresh_url="/payouts/refresh", return_url="/payouts/return")
        account_id = ConnectedAccount.objects.get(provider=provider).account_id
        test_onboarding_finish(actor=helper, account_id=account_id, complete=True)
        with transaction.atomic():
            request = service_request_create(
                client=client,
                category=ServiceCategory.objects.get(slug="wellness-checks"),
                title="Afternoon wellness check",
                description="Sit with me for an hour and check that I take my tablets.",
                urgency=Urgency.NORMAL,
                preferred_time=TimeWindow.AFTERNOON,
                preferred_date=timezone.localdate() + dt.timedelta(days=3),
                address=DEMO_ADDRESS,
                estimated_duration=90,
                max_budget=Decimal("60.00"),
            )
            _offer_to(request, helper)
            booking = service_request_accept(service_request_id=request.id, actor=helper)
        payment_intent_create(actor=client, booking_id=booking.pk)
        payment_test_confirm(actor=client, booking_id=booking.pk, card_number=TEST_CARD_SUCCEEDS)
        last_week = timezone.localdate() - dt.timedelta(days=6)
        booking.refresh_from_db()
        booking.scheduled_date = last_week  # save() moves the visit's stored times with the date
        booking.save(update_fields=["scheduled_date", "updated_at"])
        ServiceRequest.objects.filter(pk=request.pk).update(preferred_date=last_week)
        # The helper came and left inside the visit's own window on its own day (the family reads
        # "Checked in at ..." under that visit, not today's clock), and wrote her report as she left.
        arrived = booking.starts_at + dt.timedelta(minutes=5)
        left = arrived + dt.timedelta(minutes=booking.duration)
        # At Clara's home, as her phone told it (make run places the demo home to the street).
        home = booking.recipient
        at_home = {"latitude": home.latitude, "longitude": home.longitude, "accuracy": 15.0}
        booking_check_in(booking_id=booking.pk, actor=helper, now=arrived, **at_home)
        booking_check_out(
            booking_id=booking.pk,
            actor=helper,
            now=left,
            **at_home,
            report={
                "tasks_done": visit_checklist(booking)[:2],
                "wellbeing": 4,
                "for_family": "Clara was cheerful; we had tea and she took her tablets on time.",
            },
        )
        VisitReport.objects.filter(booking=booking).update(created_at=left, updated_at=left)


def _offer_to(request, helper) -> None:
    """The demo's helper was offered the request she takes at once (its offers, made from Celery
    after the commit, go to the helpers nearest the family; she need not be among them)."""
    from requests_app.models import Offer

    Offer.objects.get_or_create(
        service_request=request, provider=helper.provider, defaults={"offered_at": timezone.now()}
    )
