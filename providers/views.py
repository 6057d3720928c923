"""Pages of the providers app: /provider-signup and the /providers browse page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.guards import login_redirect, login_required_page, queue_toast
from marketplace.api import input_limits
from providers.api.serializers import ProviderApplicationSerializer
from providers.models import Provider, Specialty, VerificationStatus
from requests_app.selectors import category_list_active


def _specialty_options() -> list[dict[str, str]]:
    return [{"id": value, "name": label} for value, label in Specialty.choices]


@login_required_page
def provider_signup(request: HttpRequest) -> HttpResponse:
    """The application form, or "You're Already a Provider!" with the verification status."""
    provider = Provider.objects.filter(user=request.user).only("id", "verification_status").first()
    context = {
        "provider": provider,
        "is_pending": provider is not None and provider.verification_status == VerificationStatus.PENDING,
        "props": {
            "user": {"id": request.user.pk, "firstName": request.user.first_name},
            "specialties": _specialty_options(),
            "limits": input_limits(ProviderApplicationSerializer),
        },
    }
    return render(request, "pages/provider_signup.html", context)


def providers_browse(request: HttpRequest) -> HttpResponse:
    """Find Trusted Providers. The spec requires a signed-in user: visitors get the toast and /login."""
    if not request.user.is_authenticated:
        queue_toast(
            request, title="Unauthorized", description="You are logged out. Logging in again...", variant="destructive"
        )
        return login_redirect(request)
    services = [{"id": c.slug, "name": c.name} for c in category_list_active()]
    return render(request, "pages/providers.html", {"props": {"services": services or _specialty_options()}})
