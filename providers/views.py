"""Pages of the providers app: /provider-signup.

The /providers browse page filters by the active service categories: marketplace.views.providers_browse.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.guards import login_required_page
from marketplace.api import input_limits
from providers.api.serializers import ProviderApplicationSerializer
from providers.models import Provider, VerificationStatus
from providers.selectors import specialty_options


@login_required_page
def provider_signup(request: HttpRequest) -> HttpResponse:
    """The application form, or "You're Already a Provider!" with the verification status."""
    provider = Provider.objects.filter(user=request.user).only("id", "verification_status").first()
    context = {
        "provider": provider,
        "is_pending": provider is not None and provider.verification_status == VerificationStatus.PENDING,
        "props": {
            "user": {"id": request.user.pk, "firstName": request.user.first_name},
            "specialties": specialty_options(),
            "limits": input_limits(ProviderApplicationSerializer),
        },
    }
    return render(request, "pages/provider_signup.html", context)
