"""URLs for marketplace/tests/test_browser_error_texts.py only: the real site, except that some API
calls the pages make crash inside the view (a bug), so the server answers its own 500."""

from django.http import HttpRequest
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from marketplace.urls import handler404, handler500  # noqa: F401
from marketplace.urls import urlpatterns as site_urlpatterns


class SimulatedBug(RuntimeError):
    pass


@csrf_exempt
def crash(request: HttpRequest, **kwargs):
    raise SimulatedBug("NotSupportedError: contains lookup is not supported on this database backend.")


urlpatterns = [
    path("api/providers", crash),
    path("api/auth/user-type", crash),
    path("api/bookings/<int:pk>/cancel", crash),
    *site_urlpatterns,
]
