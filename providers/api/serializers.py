"""Provider shapes in the spec's camelCase: public (no email/phone), own and admin (full)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import PublicUserSerializer, UserSummarySerializer
from core.api import StrictSerializer, as_dollars
from core.fields import StrictCharField, StrictIntegerField, StrictNumberField
from core.geo import shown_miles
from core.geocoding import ZIP_NOT_US, ZIP_REQUIRED, PlaceStatus, zip_problem
from core.languages import SPOKEN, SPOKEN_MAX, speaks_line, spoken_problem
from core.validators import PHONE_TOO_SHORT, phone_problem
from providers import services
from providers.models import TRAVEL_MILES_MAX, TRAVEL_MILES_MIN, VISIT_WINDOWS, Provider, Specialty, VerificationStatus
from providers.ports import TrackRecord
from providers.selectors import DISTANCE_SORT, SORTS, next_free_window

_PUBLIC_FIELDS = [
    "id",
    "userId",
    "specialties",
    "languages",
    "speaks",
    "hourlyRate",
    "availability",
    "serviceArea",
    "bio",
    "experience",
    "verificationStatus",
    "identityVerifiedAt",
    "backgroundCheckedAt",
    "isActive",
    "rating",
    "totalReviews",
    "createdAt",
    "updatedAt",
    "user",
]


class PublicProviderSerializer(serializers.ModelSerializer):
    userId = serializers.CharField(source="user_id", read_only=True)
    specialties = serializers.ListField(child=serializers.CharField(), read_only=True)
    languages = serializers.ListField(
        child=serializers.ChoiceField(list(SPOKEN)),
        read_only=True,
        help_text="The languages she speaks, as codes, in her order.",
    )
    speaks = serializers.SerializerMethodField(help_text='"Speaks English, Spanish", in the reader\'s language.')
    hourlyRate = serializers.DecimalField(
        source="hourly_rate", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )
    availability = serializers.JSONField(read_only=True)
    serviceArea = serializers.CharField(source="service_area", read_only=True)
    verificationStatus = serializers.ChoiceField(
        VerificationStatus.choices, source="verification_status", read_only=True
    )
    identityVerifiedAt = serializers.DateTimeField(source="identity_verified_at", read_only=True, allow_null=True)
    backgroundCheckedAt = serializers.DateTimeField(source="background_checked_at", read_only=True, allow_null=True)
    isActive = serializers.BooleanField(source="is_active", read_only=True)
    rating = serializers.DecimalField(max_digits=3, decimal_places=2, coerce_to_string=False, read_only=True)
    totalReviews = serializers.IntegerField(source="total_reviews", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)
    user = PublicUserSerializer(read_only=True)

    class Meta:
        model = Provider
        fields = _PUBLIC_FIELDS

    def get_speaks(self, provider: Provider) -> str:
        return speaks_line(provider.languages or [])


class ProviderSerializer(PublicProviderSerializer):
    """Own profile and admin view: adds phone, the user's email, and where she helps (her home ZIP,
    how far she travels, whether her ZIP could be placed). Never public: a helper's home stays hers."""

    user = UserSummarySerializer(read_only=True)
    homeZip = serializers.CharField(source="home_zip", read_only=True)
    travelMiles = serializers.IntegerField(source="travel_miles", read_only=True)
    placeStatus = serializers.ChoiceField(PlaceStatus.choices, source="place_status", read_only=True)

    class Meta(PublicProviderSerializer.Meta):
        fields = [*_PUBLIC_FIELDS, "phone", "homeZip", "travelMiles", "placeStatus"]


LANGUAGES_INVALID = _("Choose the languages you speak from the list.")


def _required(message: str) -> dict[str, str]:
    return {"required": message, "blank": message, "null": message}


def _rule(problem: str, value):
    """A field's value, or its problem as told by the service's rule (providers.services owns every
    rule; asked here too so its message shows beside the other fields' in one 400)."""
    if problem:
        raise serializers.ValidationError(problem)
    return value


def _home_zip_field(*, required: bool) -> StrictCharField:
    return StrictCharField(
        label=gettext_lazy("Home ZIP code"),
        source="home_zip",
        required=required,
        max_length=10,
        error_messages={**_required(ZIP_REQUIRED), "max_length": ZIP_NOT_US},
    )


def _travel_miles_field(*, required: bool) -> StrictIntegerField:
    return StrictIntegerField(
        label=gettext_lazy("How far you travel"),
        source="travel_miles",
        required=required,
        min_value=TRAVEL_MILES_MIN,
        max_value=TRAVEL_MILES_MAX,
        error_messages={
            "required": services.TRAVEL_REQUIRED,
            "null": services.TRAVEL_REQUIRED,
            "invalid": services.TRAVEL_OUT_OF_RANGE,
            "min_value": services.TRAVEL_OUT_OF_RANGE,
            "max_value": services.TRAVEL_OUT_OF_RANGE,
            "max_string_length": services.TRAVEL_OUT_OF_RANGE,
        },
    )


def _languages_field() -> serializers.ListField:
    """The languages she speaks (codes of core.languages.SPOKEN); the rule is core.languages.spoken_problem."""
    return serializers.ListField(
        child=StrictCharField(max_length=8),
        required=False,
        max_length=SPOKEN_MAX,
        help_text='Codes of the languages she speaks, e.g. ["en", "es"] (English when not given).',
        error_messages={"max_length": LANGUAGES_INVALID, "not_a_list": LANGUAGES_INVALID, "null": LANGUAGES_INVALID},
    )


class ProviderApplicationSerializer(StrictSerializer):
    """POST /api/provider/profile: JSON types here, rules in providers.services (the spec's messages,
    section 5). The limits are declared with the service's numbers and texts too, for the schema
    and the form."""

    phone = StrictCharField(
        label=gettext_lazy("Phone number"), max_length=40, error_messages=_required(PHONE_TOO_SHORT)
    )
    specialties = serializers.ListField(
        child=serializers.ChoiceField(choices=Specialty.choices),
        allow_empty=False,
        max_length=len(Specialty.choices),
        error_messages={
            "empty": services.SPECIALTIES_REQUIRED,
            "required": services.SPECIALTIES_REQUIRED,
            "null": services.SPECIALTIES_REQUIRED,
            "max_length": format_lazy(gettext_lazy("Choose at most {count} services."), count=len(Specialty.choices)),
        },
    )
    hourlyRate = StrictNumberField(
        label=gettext_lazy("Hourly rate"),
        source="hourly_rate",
        min_value=services.RATE_MIN,
        max_value=services.RATE_MAX,
        limit_format=as_dollars,
        error_messages={
            "required": services.RATE_REQUIRED,
            "null": services.RATE_REQUIRED,
            "min_value": services.RATE_OUT_OF_RANGE,
            "max_value": services.RATE_OUT_OF_RANGE,
        },
    )
    serviceArea = StrictCharField(
        label=gettext_lazy("Service area"),
        source="service_area",
        max_length=services.SERVICE_AREA_MAX,
        error_messages={**_required(services.SERVICE_AREA_REQUIRED), "max_length": services.SERVICE_AREA_TOO_LONG},
    )
    bio = StrictCharField(
        label=gettext_lazy("Bio"),
        min_length=services.BIO_MIN,
        max_length=services.TEXT_MAX,
        error_messages={
            **_required(services.BIO_TOO_SHORT),
            "min_length": services.BIO_TOO_SHORT,
            "max_length": services.BIO_TOO_LONG,
        },
    )
    experience = StrictCharField(
        label=gettext_lazy("Experience"),
        min_length=services.EXPERIENCE_MIN,
        max_length=services.TEXT_MAX,
        error_messages={
            **_required(services.EXPERIENCE_TOO_SHORT),
            "min_length": services.EXPERIENCE_TOO_SHORT,
            "max_length": services.EXPERIENCE_TOO_LONG,
        },
    )

    homeZip = _home_zip_field(required=True)
    travelMiles = _travel_miles_field(required=True)
    languages = _languages_field()

    def validate_languages(self, value: list[str]) -> list[str]:
        return _rule(spoken_problem(value), value)

    def validate_phone(self, value: str) -> str:
        return _rule(phone_problem(value), value)

    def validate_hourlyRate(self, value):
        return _rule(services.hourly_rate_problem(value), value)

    def validate_homeZip(self, value: str) -> str:
        return _rule(zip_problem(value), value.strip())


class ProviderAreaSerializer(StrictSerializer):
    """PATCH /api/provider/profile: where she helps, her home ZIP code and how far she travels, and
    the languages she speaks (any of them; the rules are providers.services')."""

    homeZip = _home_zip_field(required=False)
    travelMiles = _travel_miles_field(required=False)
    languages = _languages_field()

    def validate_languages(self, value: list[str]) -> list[str]:
        return _rule(spoken_problem(value), value)

    def validate_homeZip(self, value: str) -> str:
        return _rule(zip_problem(value), value.strip())


class ProviderStatusSerializer(StrictSerializer):
    """PUT /api/admin/providers/{id}/status."""

    status = serializers.ChoiceField(
        choices=[VerificationStatus.VERIFIED, VerificationStatus.REJECTED],
        error_messages={"invalid_choice": gettext_lazy("Status must be verified or rejected.")},
    )
    reason = StrictCharField(label=gettext_lazy("Reason"), required=False, allow_blank=True, max_length=2000)


NEAR_INVALID = gettext_lazy("Please choose someone from your care circle.")
NEAR_NEEDED = gettext_lazy("Please choose whom the helpers should be near.")
WITHIN_OUT_OF_RANGE = format_lazy(
    gettext_lazy("Please choose a distance from {min} to {max} miles."), min=TRAVEL_MILES_MIN, max=TRAVEL_MILES_MAX
)


class ProviderListQuerySerializer(serializers.Serializer):
    """Query of GET /api/providers."""

    verified = serializers.ChoiceField(choices=["true", "false"], required=False)
    search = StrictCharField(label=gettext_lazy("Search"), required=False, allow_blank=True, max_length=200)
    specialty = serializers.ChoiceField(choices=Specialty.choices, required=False, allow_blank=True)
    language = serializers.ChoiceField(
        choices=list(SPOKEN),
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": _("Please choose a language from the list.")},
    )
    sort = serializers.ChoiceField(choices=list(SORTS), required=False, allow_blank=True)
    availableOn = serializers.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],
        error_messages={"invalid": gettext_lazy("Please enter the date as YYYY-MM-DD.")},
    )
    timeWindow = serializers.ChoiceField(
        choices=list(VISIT_WINDOWS),
        required=False,
        allow_blank=True,
        error_messages={"invalid_choice": gettext_lazy("Please choose morning, afternoon or evening.")},
    )

    near = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        error_messages={key: NEAR_INVALID for key in ("invalid", "min_value", "max_value", "max_string_length")},
    )
    within = serializers.IntegerField(
        required=False,
        min_value=TRAVEL_MILES_MIN,
        max_value=TRAVEL_MILES_MAX,
        error_messages={key: WITHIN_OUT_OF_RANGE for key in ("invalid", "min_value", "max_value", "max_string_length")},
    )

    def validate_availableOn(self, value):
        if value < timezone.localdate():
            raise serializers.ValidationError(DAY_PAST)
        return value

    def validate(self, attrs):
        problems = {}
        if attrs.get("timeWindow") and not attrs.get("availableOn"):
            problems["availableOn"] = [gettext("Please choose a date for the time of day.")]
        if attrs.get("within") is not None and attrs.get("near") is None:
            problems["within"] = [NEAR_NEEDED]
        if attrs.get("sort") == DISTANCE_SORT and attrs.get("near") is None:
            problems["sort"] = [NEAR_NEEDED]
        if problems:
            raise serializers.ValidationError(problems)
        return attrs


# ---------------------------------------------------------------- availability

WINDOW_CHOICES = list(VISIT_WINDOWS)
TIME_INVALID = gettext_lazy("Please enter a time like 09:30.")
DATE_INVALID = gettext_lazy("Please enter the date as YYYY-MM-DD.")
DAY_PAST = gettext_lazy("Please choose today or a later date.")


class NextFreeWindowSerializer(serializers.Serializer):
    date = serializers.DateField()
    timeWindow = serializers.ChoiceField(choices=WINDOW_CHOICES, source="time_window")


class CompletionSerializer(serializers.Serializer):
    """Of her last visits that are over (at most 25), how many she completed: "Completed 24 of the
    last 25 visits" (bookings.selectors.track_records_of)."""

    completed = serializers.IntegerField()
    visits = serializers.IntegerField()


class TrackRecordFields(serializers.Serializer):
    """A helper's answer speed and completion, beside each other on her card and her profile, read
    from the TrackRecord the view or selector found (providers.ports.track_records): `track_record`
    on the provider, else the context's `track_records` by her id."""

    answerMinutes = serializers.SerializerMethodField()
    completion = serializers.SerializerMethodField()

    def _record(self, provider: Provider) -> TrackRecord | None:
        if hasattr(provider, "track_record"):
            return provider.track_record
        return self.context.get("track_records", {}).get(provider.pk)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_answerMinutes(self, provider: Provider) -> int | None:
        """Her median time to answer an offer over her last 25 answered (whole minutes, at least 1);
        null before she has answered one ("Usually answers in 14 min")."""
        record = self._record(provider)
        minutes = record.answer_minutes if record else None
        return None if minutes is None else max(1, round(minutes))

    @extend_schema_field(CompletionSerializer(allow_null=True))
    def get_completion(self, provider: Provider) -> dict | None:
        """Her completed visits of her last 25 over; null while she has had fewer than 5 ("New helper")."""
        record = self._record(provider)
        if record is None or not record.visits:
            return None
        return {"completed": record.completed, "visits": record.visits}


class BrowseProviderSerializer(TrackRecordFields, PublicProviderSerializer):
    """A card of GET /api/providers: the public fields and the next free window in the coming 14
    days ({date, timeWindow}, or null). The list prefetches what it reads (selectors.with_schedule)."""

    nextFreeWindow = serializers.SerializerMethodField()
    distanceMiles = serializers.SerializerMethodField()

    class Meta(PublicProviderSerializer.Meta):
        fields = [*_PUBLIC_FIELDS, "nextFreeWindow", "distanceMiles", "answerMinutes", "completion"]

    @extend_schema_field(NextFreeWindowSerializer(allow_null=True))
    def get_nextFreeWindow(self, provider: Provider) -> dict | None:
        window = next_free_window(provider, now=self.context.get("now"))
        return NextFreeWindowSerializer(window).data if window else None

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_distanceMiles(self, provider: Provider) -> float | None:
        """Miles from the care recipient asked about (?near=), rounded as people see them
        (core.geo.shown_miles): nothing finer leaves the server. null without ?near=."""
        miles = getattr(provider, "distance_miles", None)
        return shown_miles(miles) if miles is not None else None


class WeeklyHoursSerializer(serializers.Serializer):
    """One window of the week: weekday 0 (Monday) to 6 (Sunday), times "HH:MM" in the site's zone."""

    weekday = StrictIntegerField(
        min_value=0,
        max_value=6,
        error_messages={
            "min_value": services.WEEKDAY_UNKNOWN,
            "max_value": services.WEEKDAY_UNKNOWN,
            "max_string_length": services.WEEKDAY_UNKNOWN,
        },
    )
    startTime = serializers.TimeField(
        source="start_time",
        format="%H:%M",
        input_formats=["%H:%M"],
        error_messages={"invalid": TIME_INVALID, "required": TIME_INVALID, "null": TIME_INVALID},
    )
    endTime = serializers.TimeField(
        source="end_time",
        format="%H:%M",
        input_formats=["%H:%M"],
        error_messages={"invalid": TIME_INVALID, "required": TIME_INVALID, "null": TIME_INVALID},
    )


class StrictWeeklyHoursSerializer(StrictSerializer, WeeklyHoursSerializer):
    pass


class TimeOffSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    firstDay = serializers.DateField(source="first_day", read_only=True)
    lastDay = serializers.DateField(source="last_day", read_only=True)
    note = serializers.CharField(read_only=True)


class ScheduleSerializer(serializers.Serializer):
    """GET/PUT /api/providers/me/schedule: the weekly hours (none: available any time) and the time
    off that is not over yet."""

    weeklyHours = WeeklyHoursSerializer(many=True, source="weekly_hours")
    timeOff = TimeOffSerializer(many=True, source="time_off")


class ScheduleUpdateSerializer(StrictSerializer):
    """PUT /api/providers/me/schedule: the whole week at once (an empty list clears it)."""

    weeklyHours = StrictWeeklyHoursSerializer(
        many=True,
        source="weekly_hours",
        max_length=services.MAX_WINDOWS,
        error_messages={"max_length": services.TOO_MANY_WINDOWS},
    )


def _date_field(required: Any, **kwargs) -> serializers.DateField:
    messages = {"invalid": DATE_INVALID, "required": required, "null": required}
    return serializers.DateField(input_formats=["%Y-%m-%d"], error_messages=messages, **kwargs)


class TimeOffCreateSerializer(StrictSerializer):
    """POST /api/providers/me/time-off."""

    firstDay = _date_field(gettext_lazy("Please choose the first day."), source="first_day")
    lastDay = _date_field(gettext_lazy("Please choose the last day."), source="last_day")
    note = StrictCharField(
        label=gettext_lazy("Note"),
        required=False,
        allow_blank=True,
        max_length=services.NOTE_MAX,
        error_messages={"max_length": services.NOTE_TOO_LONG},
    )
