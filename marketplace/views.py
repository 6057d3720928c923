"""Pages that belong to no single app: home, landing, policy pages, not-found."""

from decimal import Decimal

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control

from accounts.guards import login_redirect, queue_toast
from bookings.api.serializers import PublicReviewSerializer
from bookings.selectors import reviews_featured
from circles.selectors import near_choices
from core.languages import spoken_options
from core.support import SUPPORT_CONVERSATION, support_contacts
from marketplace.dashboard import dashboard
from providers.models import Specialty
from providers.selectors import WITHIN_CHOICES, provider_list_public, specialty_options
from requests_app.categories import CATEGORIES
from requests_app.selectors import category_list_active

# Landing page limits (spec section 9): at most 3 providers, 3 specialties each.
FEATURED_PROVIDERS = 3
FEATURED_SPECIALTIES = 3

# Built-in sample providers (spec section 9 sample data), shown when no provider is verified yet.
SAMPLE_PROVIDERS = [
    {
        "name": "Sarah Johnson",
        "initial": "S",
        "specialties": ["Technology Support", "Communication Support", "Appointment Support"],
        "more_specialties": 0,
        "rating": Decimal("4.9"),
        "total_reviews": 127,
        "hourly_rate": Decimal("25"),
        "service_area": "Downtown and Midtown",
        "bio": "Former teacher who loves helping seniors feel confident with phones, tablets and video calls.",
        "sample": True,
    },
    {
        "name": "Michael Chen",
        "initial": "M",
        "specialties": ["Wellness Checks", "Light Errands"],
        "more_specialties": 0,
        "rating": Decimal("4.8"),
        "total_reviews": 89,
        "hourly_rate": Decimal("30"),
        "service_area": "Northside",
        "bio": "Retired nurse offering friendly wellness visits, grocery runs and prescription pick-ups.",
        "sample": True,
    },
    {
        "name": "Emily Rodriguez",
        "initial": "E",
        "specialties": ["Home Organization", "Light Errands", "Appointment Support"],
        "more_specialties": 0,
        "rating": Decimal("4.9"),
        "total_reviews": 64,
        "hourly_rate": Decimal("35"),
        "service_area": "Westside and suburbs",
        "bio": "Patient organizer who makes homes safer and easier to live in, one room at a time.",
        "sample": True,
    },
]

# "What Families Say" shows real published reviews once there are enough of them; until then these
# samples, each labelled as an example on the page (never presented as people who said it).
FEATURED_REVIEWS = 3
SAMPLE_TESTIMONIALS = [
    {
        "content": "Kindly matched my mother with a wonderful helper who set up video calls with "
        "the grandchildren. She calls us every Sunday now.",
        "author": "A daughter",
        "relation": "Technology Support",
        "avatar": "D",
        "rating": 5,
    },
    {
        "content": "I was nervous about technology, but my helper was so patient. "
        "I can email my friends and read the news on my tablet.",
        "author": "A client",
        "relation": "Technology Support",
        "avatar": "C",
        "rating": 5,
    },
    {
        "content": "The weekly wellness checks give our whole family peace of mind. "
        "Everyone we have met through Kindly has been kind and reliable.",
        "author": "A son",
        "relation": "Wellness Checks",
        "avatar": "S",
        "rating": 5,
    },
]

_SPECIALTY_LABELS = dict(Specialty.choices)


def _category_props() -> list[dict]:
    """The active categories; the six built-in services when there are none (spec: landing fallbacks)."""
    services = [
        {
            "id": c.id,
            "slug": c.slug,
            "name": c.name,
            "description": c.description,
            "icon": c.icon,
            "features": c.features,
        }
        for c in category_list_active()
    ]
    return services or [{"id": -(i + 1), **c} for i, c in enumerate(CATEGORIES)]


def _featured_providers() -> list[dict]:
    """Up to 3 verified, active providers, best rated first; the built-in samples when there are none."""
    providers = provider_list_public()[:FEATURED_PROVIDERS]
    featured = []
    for p in providers:
        labels = [_SPECIALTY_LABELS.get(s, s) for s in (p.specialties or [])]
        featured.append(
            {
                "name": p.user.full_name or p.user.first_name or "Kindly provider",
                "initial": (p.user.first_name or p.user.email or "U")[:1].upper(),
                "specialties": labels[:FEATURED_SPECIALTIES],
                "more_specialties": max(0, len(labels) - FEATURED_SPECIALTIES),
                "rating": p.rating,
                "total_reviews": p.total_reviews,
                "hourly_rate": p.hourly_rate if p.hourly_rate is not None else Decimal("30"),
                "service_area": p.service_area,
                "bio": p.bio,
                "sample": False,
            }
        )
    return featured or SAMPLE_PROVIDERS


def _testimonials() -> tuple[list[dict], bool]:
    """(testimonials, are they samples): real reviews (first name and last initial, the service,
    as any public review shows them) when there are enough, else the samples."""
    reviews = PublicReviewSerializer(reviews_featured(limit=FEATURED_REVIEWS), many=True).data
    if len(reviews) < FEATURED_REVIEWS:
        return [{**t, "stars": "★" * t["rating"]} for t in SAMPLE_TESTIMONIALS], True
    testimonials = []
    for review in reviews:
        reviewer = review["reviewer"]
        testimonials.append(
            {
                "content": review["comment"],
                "author": f"{reviewer['firstName']} {reviewer['lastName']}".strip() or "A Kindly family",
                "relation": review["serviceName"] or "",
                "avatar": (reviewer["firstName"] or "K")[:1].upper(),
                "rating": review["rating"],
                "stars": "★" * review["rating"],
            }
        )
    return testimonials, False


def landing(request: HttpRequest) -> HttpResponse:
    testimonials, sample_testimonials = _testimonials()
    featured = _featured_providers()
    return render(
        request,
        "pages/landing.html",
        {
            "landing_props": {"services": _category_props()},
            "featured_providers": featured,
            "sample_providers": any(p["sample"] for p in featured),
            "testimonials": testimonials,
            "sample_testimonials": sample_testimonials,
        },
    )


def home(request: HttpRequest) -> HttpResponse:
    """ "/" (and /dashboard) is the landing page for visitors and the dashboard for signed-in users;
    an admin's dashboard is /admin (pending applications and today's bookings first)."""
    if request.user.is_authenticated:
        if request.user.is_admin:
            return HttpResponseRedirect("/admin")
        return dashboard(request)
    return landing(request)


def privacy_policy(request: HttpRequest) -> HttpResponse:
    """/privacy-policy and /privacy-policy.html: static text, last updated today (spec)."""
    return render(request, "pages/privacy-policy.html", {"last_updated": timezone.localdate()})


def terms_of_service(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/terms-of-service.html", {"last_updated": timezone.localdate()})


def cancellation_policy(request: HttpRequest) -> HttpResponse:
    """/cancellation-policy: the one page of the cancellation policy, linked from every cancel
    dialog and the terms; its numbers are the ones the server applies (bookings.lifecycle)."""
    from requests_app.models import CANCEL_WINDOW_HOURS

    return render(
        request,
        "pages/cancellation-policy.html",
        {
            "window_hours": CANCEL_WINDOW_HOURS,
            "fee_cap": settings.LATE_FEE_CAP,
            "dispute_hours": settings.LATE_FEE_DISPUTE_HOURS,
        },
    )


@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and tools ask for whatever the page links: the site's icon."""
    return HttpResponseRedirect(static("favicon.svg"))


def providers_browse(request: HttpRequest) -> HttpResponse:
    """Find Trusted Providers. The spec requires a signed-in user: visitors get the toast and /login."""
    if not request.user.is_authenticated:
        queue_toast(
            request, title="Unauthorized", description="You are logged out. Logging in again...", variant="destructive"
        )
        return login_redirect(request)
    services = [{"id": c.slug, "name": c.name} for c in category_list_active()]
    props = {
        "services": services or specialty_options(),
        # "Speaks": the languages a helper may speak, named in the reader's language.
        "languages": spoken_options(),
        # "Near whom?": the care recipients of the person's circles (browse by distance).
        "near": near_choices(user=request.user),
        "withinChoices": list(WITHIN_CHOICES),
    }
    return render(request, "pages/providers.html", {"props": props})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The spec's 404 page; API callers get the API's JSON error body instead."""
    if request.path.startswith("/api/"):
        return JsonResponse({"message": gettext("Not found."), "errors": {}}, status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """A calm error page that needs nothing that may have failed (no database, no context);
    API callers get the API's JSON error body."""
    if request.path.startswith("/api/"):
        return JsonResponse({"message": gettext("Something went wrong. Please try again."), "errors": {}}, status=500)
    support = support_contacts()
    # Signed in or not is unknown without the session: the support email when there is one, else
    # the in-app conversation (the sign-in page comes first for a visitor).
    context = {"support": support, "support_href": support.email_href or SUPPORT_CONVERSATION}
    return HttpResponse(loader.get_template("500.html").render(context), status=500)
