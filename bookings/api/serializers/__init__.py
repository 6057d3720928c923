"""Booking and review shapes in the spec's camelCase, with the nested parties the pages read; one
module per shape, callers import from here.

    booking   a booking as its parties and staff read it (BookingSerializer), how long a list stays true
    parts     the parts of a booking's shape: who comes, what for, its series, visit record, replacement,
              automatic charge and late fee, where the visit stands (shared with the day's visits)
    actions   the bodies and answers of a booking's actions: accept, the cancels, a helper leaving,
              a replacement's offer, staff's cancel and reassign
    review    reviews (written, public) and a helper's public profile
    visit     the day's visits, check-in and check-out, the visit report"""

from bookings.api.serializers.actions import (
    AcceptSerializer,
    AdminBookingCancelSerializer,
    BookingCancelSerializer,
    BookingReassignSerializer,
    ProviderCancelSerializer,
    RemoveProviderSerializer,
    ReplacementOfferSerializer,
    SeriesCancelPreviewSerializer,
    SeriesCancelResultSerializer,
)
from bookings.api.serializers.booking import BookingSerializer, can_cancel_max_age, report_window_max_age
from bookings.api.serializers.parts import (
    BOOKING_CLIENT_SCHEMA,
    AutoChargeSerializer,
    BookingProviderSerializer,
    BookingReplacementSerializer,
    BookingRequestSerializer,
    BookingSeriesSerializer,
    ChargedLateFeeSerializer,
    TaskOutcomeSerializer,
    VisitRecordSerializer,
    VisitStateField,
    series_of,
    visit_record_of,
)
from bookings.api.serializers.review import (
    ProviderProfileSerializer,
    PublicReviewerSerializer,
    PublicReviewSerializer,
    ReviewCreateSerializer,
    ReviewSerializer,
)
from bookings.api.serializers.visit import (
    CheckOutSerializer,
    TaskOutcomeInputSerializer,
    VisitLocationSerializer,
    VisitProviderSerializer,
    VisitReportEditSerializer,
    VisitReportInputSerializer,
    VisitReportSerializer,
    VisitSerializer,
    visits_max_age,
)

__all__ = [
    "AcceptSerializer",
    "AdminBookingCancelSerializer",
    "AutoChargeSerializer",
    "BOOKING_CLIENT_SCHEMA",
    "BookingCancelSerializer",
    "BookingProviderSerializer",
    "BookingReassignSerializer",
    "BookingReplacementSerializer",
    "BookingRequestSerializer",
    "BookingSerializer",
    "BookingSeriesSerializer",
    "ChargedLateFeeSerializer",
    "CheckOutSerializer",
    "ProviderCancelSerializer",
    "ProviderProfileSerializer",
    "PublicReviewSerializer",
    "PublicReviewerSerializer",
    "RemoveProviderSerializer",
    "ReplacementOfferSerializer",
    "ReviewCreateSerializer",
    "ReviewSerializer",
    "SeriesCancelPreviewSerializer",
    "SeriesCancelResultSerializer",
    "TaskOutcomeInputSerializer",
    "TaskOutcomeSerializer",
    "VisitLocationSerializer",
    "VisitProviderSerializer",
    "VisitRecordSerializer",
    "VisitReportEditSerializer",
    "VisitReportInputSerializer",
    "VisitReportSerializer",
    "VisitSerializer",
    "VisitStateField",
    "can_cancel_max_age",
    "report_window_max_age",
    "series_of",
    "visit_record_of",
    "visits_max_age",
]
