"""Pages of the providers app: /provider-signup, /schedule.

The /providers browse page filters by the active service categories: marketplace.views.providers_browse.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.guards import login_required_page
from core.api import input_limits
from core.languages import spoken_options
from providers import services
from providers.api.serializers import ProviderApplicationSerializer, ProviderSerializer, ScheduleSerializer
from providers.models import VISIT_WINDOWS, WEEKDAYS, VerificationStatus
from providers.selectors import provider_for_user, provider_schedule, specialty_options


@login_required_page
def provider_signup(request: HttpRequest) -> HttpResponse:
    """The application form, or "You're Already a Provider!" with the verification status and
    "Where you help" (her home ZIP code and how far she travels)."""
    provider = provider_for_user(user=request.user)
    context = {
        "provider": provider,
        "is_pending": provider is not None and provider.verification_status == VerificationStatus.PENDING,
        "props": {
            "user": {"id": request.user.pk, "firstName": request.user.first_name},
            "specialties": specialty_options(),
            # The languages she may say she speaks, named in the reader's language.
            "languages": spoken_options(),
            "limits": input_limits(ProviderApplicationSerializer),
            # A provider already: her profile, for "Where you help".
            "provider": ProviderSerializer(provider).data if provider is not None else None,
        },
    }
    return render(request, "pages/provider-signup.html", context)


@login_required_page
def schedule(request: HttpRequest) -> HttpResponse:
    """/schedule: the provider edits their weekly hours and time off; anyone else sees a 403 page."""
    provider = provider_for_user(user=request.user)
    if provider is None:
        return render(request, "pages/schedule.html", {"forbidden": services.NOT_A_PROVIDER}, status=403)
    props = {
        "schedule": ScheduleSerializer(provider_schedule(provider=provider)).data,
        "weekdays": WEEKDAYS,
        "windows": {
            name: [start.strftime("%H:%M"), end.strftime("%H:%M")] for name, (start, end) in VISIT_WINDOWS.items()
        },
        "timeStepMinutes": services.TIME_STEP_MINUTES,
        "today": timezone.localdate().isoformat(),
    }
    return render(request, "pages/schedule.html", {"props": props})
