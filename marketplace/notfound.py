"""The spec's not-found page with DEBUG on too.

Django calls ``handler404`` only when DEBUG is off; with DEBUG on (``make run``) it answers an
unknown path with its technical 404 page instead. This middleware, the innermost one, swaps
that page for ``marketplace.views.not_found`` (the spec's "404 Page Not Found", or the API's
JSON error body under /api/). It sits inside CommonMiddleware, which still turns a missing
trailing slash into a redirect. With DEBUG off it changes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

from marketplace.views import not_found


class NotFoundPageMiddleware(MiddlewareMixin):
    """MiddlewareMixin, like Django's own: it runs sync or async, whichever the chain is."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        # No view was found for the path (resolver_match stays None until the URL resolves).
        if settings.DEBUG and response.status_code == 404 and request.resolver_match is None:
            return not_found(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        """A view raised Http404 (get_object_or_404 and the like)."""
        if settings.DEBUG and isinstance(exception, Http404):
            return not_found(request, exception)
        return None
