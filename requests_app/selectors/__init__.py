"""Reads of categories and service requests, scoped to what the caller may see.

ARCHITECTURE.md: clients see the requests for the care recipients in whose circles they are (any
role; scoped through circles.selectors.recipient_ids_of, a subquery, so each list stays
one query); verified (and active) providers see open requests of others; a provider sees the
requests they are booked on; admins see all. An account
without a verified provider profile (none, switched to provider without applying, pending,
rejected) sees no open request of anyone else. Anything else is a 404.

A request sent to one provider is open to that provider alone until
its window ends (DIRECT_WINDOW after it was posted) or they decline, and for good when the client
chose "only this helper": to every other provider it is a 404 until then.

One module per part; callers import from here.

    lists      the categories, who sees which request (the scopes), the lists, one request, what a
               helper may take, and the open requests the beat jobs read
    addresses  who is shown a request's address, the recipient's care details, the circle's roles
               and the client's full name; the organizers a booked helper may contact
    form       what the request form starts from: for whom, their addresses, a booking to book again
    offers     who is offered a request, in which order, for how long; a helper's answer speed"""

from requests_app.selectors.addresses import (
    ADDRESS_AREA,
    ADDRESS_FULL,
    address_line_for,
    address_shown_to,
    booking_holds_address,
    care_details_shown_to,
    circle_role_of,
    client_fully_named_to,
    full_address_shown_to,
    holds_address,
    recipient_contacts,
    viewer_in_circle,
    viewer_organizes,
)
from requests_app.selectors.form import recipients_to_request_for, service_request_to_rebook
from requests_app.selectors.lists import (
    RECIPIENT_SUMMARY_FIELDS,
    category_get_active,
    category_list_active,
    direct_to_someone_else,
    direct_window_next_end,
    in_circles_of,
    offered_to_her,
    offered_to_others,
    open_to_all,
    open_to_provider,
    provider_can_take,
    request_visit_intervals,
    service_request_get,
    service_request_get_for_accept,
    service_request_list,
    service_request_list_admin,
    service_request_list_shown,
    service_request_visible,
    service_requests_direct_lapsed,
    service_requests_stale,
    viewer_role_of,
)
from requests_app.selectors.offers import (
    ANSWER_MINUTES_PER_MILE,
    ANSWER_SPEED_OFFERS,
    NEW_HELPER_ANSWER_MINUTES,
    OFFER_POOL,
    RATING_MILES,
    answer_minutes_of,
    helpers_for_visits,
    offer_answer_time,
    offer_candidates,
    offer_score,
    requests_to_offer,
)

__all__ = [
    "ADDRESS_AREA",
    "ADDRESS_FULL",
    "ANSWER_MINUTES_PER_MILE",
    "ANSWER_SPEED_OFFERS",
    "NEW_HELPER_ANSWER_MINUTES",
    "OFFER_POOL",
    "RATING_MILES",
    "RECIPIENT_SUMMARY_FIELDS",
    "address_line_for",
    "address_shown_to",
    "answer_minutes_of",
    "booking_holds_address",
    "care_details_shown_to",
    "category_get_active",
    "category_list_active",
    "circle_role_of",
    "client_fully_named_to",
    "direct_to_someone_else",
    "direct_window_next_end",
    "full_address_shown_to",
    "helpers_for_visits",
    "holds_address",
    "in_circles_of",
    "offer_answer_time",
    "offer_candidates",
    "offer_score",
    "offered_to_her",
    "offered_to_others",
    "open_to_all",
    "open_to_provider",
    "provider_can_take",
    "recipient_contacts",
    "recipients_to_request_for",
    "request_visit_intervals",
    "requests_to_offer",
    "service_request_get",
    "service_request_get_for_accept",
    "service_request_list",
    "service_request_list_admin",
    "service_request_list_shown",
    "service_request_to_rebook",
    "service_request_visible",
    "service_requests_direct_lapsed",
    "service_requests_stale",
    "viewer_in_circle",
    "viewer_organizes",
    "viewer_role_of",
]
