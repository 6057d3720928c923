"""Reads of bookings, scoped: the recipient's care circle (every member) and the booked
provider see a booking, admins see all; others get 404. One module per part; callers import from here.

    base          who may see a booking (its circle, its helper, staff), the statuses that hold her time
    lists         the lists and counts of bookings (the dashboard, staff's list), one booking, what a
                  listed booking's shape reads
    reviews       public reviews, the helpers' track records, a helper's profile, the featured reviews
    schedule      the calendar feed's owner and the calendar's visits
    visit         where a visit stands, its alerts, the day's visits, its report, a series' pay note
    ports         what the apps below ask of the bookings table (core.ports, plugged in by marketplace)
    visit_record  the organizers' monthly visit record, staff's share of verified visits by helper
    replacement   a helper who left: who is offered her visit, the open searches, what the circle reads"""

from bookings.selectors.base import ACTIVE_STATUSES, as_party_of, in_circles_of
from bookings.selectors.lists import (
    booking_counts_as_provider,
    booking_get,
    booking_list_admin,
    booking_list_as,
    booking_list_as_items,
    booking_list_for,
    client_side_counts,
    provider_to_come,
    task_outcomes_of,
    tasks_done_count,
)
from bookings.selectors.ports import (
    provider_busy_at,
    provider_busy_intervals,
    provider_busy_prefetch,
    provider_visit_problems,
    provider_visits_between,
    request_address_held_by,
    request_booked_with,
    request_of_booking,
    request_shown_booking,
)
from bookings.selectors.replacement import (
    replacement_candidates,
    replacement_counts,
    replacement_of,
    replacement_offers_for,
    replacement_open_of,
    replacement_state_of,
    replacement_waits_of,
    replacements_due,
)
from bookings.selectors.reviews import (
    COMPLETION_MIN_VISITS,
    COMPLETION_VISITS,
    FEATURED_REVIEW_MIN_RATING,
    PROFILE_REVIEWS,
    PUBLIC_REVIEW_FIELDS,
    provider_profile,
    provider_reviews_public,
    reviews_featured,
    track_records_of,
)
from bookings.selectors.schedule import CALENDAR_HISTORY, calendar_feed_owner, calendar_visits
from bookings.selectors.visit import (
    VISIT_STATES,
    VisitState,
    provider_visits_on,
    series_pay_note,
    visit_alert_due,
    visit_report_get,
    visit_state,
    visits_needing_alert,
    visits_on,
)
from bookings.selectors.visit_record import (
    VERIFIED_SHARE_DAYS,
    VISIT_RECORD_MONTH,
    VISIT_RECORD_ORGANIZERS_ONLY,
    verified_share_by_helper,
    visit_record_month,
)

__all__ = [
    "ACTIVE_STATUSES",
    "CALENDAR_HISTORY",
    "COMPLETION_MIN_VISITS",
    "COMPLETION_VISITS",
    "FEATURED_REVIEW_MIN_RATING",
    "PROFILE_REVIEWS",
    "PUBLIC_REVIEW_FIELDS",
    "VERIFIED_SHARE_DAYS",
    "VISIT_RECORD_MONTH",
    "VISIT_RECORD_ORGANIZERS_ONLY",
    "VISIT_STATES",
    "VisitState",
    "as_party_of",
    "booking_counts_as_provider",
    "booking_get",
    "booking_list_admin",
    "booking_list_as",
    "booking_list_as_items",
    "booking_list_for",
    "calendar_feed_owner",
    "calendar_visits",
    "client_side_counts",
    "in_circles_of",
    "provider_busy_at",
    "provider_busy_intervals",
    "provider_busy_prefetch",
    "provider_profile",
    "provider_reviews_public",
    "provider_to_come",
    "provider_visit_problems",
    "provider_visits_between",
    "provider_visits_on",
    "replacement_candidates",
    "replacement_counts",
    "replacement_of",
    "replacement_offers_for",
    "replacement_open_of",
    "replacement_state_of",
    "replacement_waits_of",
    "replacements_due",
    "request_address_held_by",
    "request_booked_with",
    "request_of_booking",
    "request_shown_booking",
    "reviews_featured",
    "series_pay_note",
    "task_outcomes_of",
    "tasks_done_count",
    "track_records_of",
    "verified_share_by_helper",
    "visit_alert_due",
    "visit_record_month",
    "visit_report_get",
    "visit_state",
    "visits_needing_alert",
    "visits_on",
]
