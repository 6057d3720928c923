"""Pages that belong to no single app: home, landing, not-found."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from requests_app.selectors import category_list_active


def _category_props() -> list[dict]:
    return [
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


def landing(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/landing.html", {"landing_props": {"services": _category_props()}})


def home(request: HttpRequest) -> HttpResponse:
    """ "/" is the landing page for visitors and the dashboard for signed-in users."""
    if request.user.is_authenticated:
        return render(request, "pages/dashboard.html", {})
    return landing(request)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)
