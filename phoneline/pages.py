"""/phone-simulator: try Kindly's phone menu in the browser (make run: DEBUG only, staff only)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from accounts.guards import admin_required_page
from circles.models import CareRecipient
from phoneline import selectors, simulator

# A number no care recipient has: what the menu says to a stranger.
UNKNOWN_NUMBER = "+15005550000"
PROBLEM_KEY = "phone_simulator_problem"  # why the reminder call could not ring, shown once
KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"]


def _callers() -> list[tuple[str, str]]:
    """Whom the simulator may call as: care recipients with a phone (by name only) and a stranger."""
    people = [
        (str(r.pk), r.full_name)
        for r in CareRecipient.objects.exclude(phone="").order_by("first_name", "last_name", "id")[:50]
        if selectors.e164_or_empty(r.phone)
    ]
    return [*people, ("unknown", "A number Kindly does not know")]


@require_http_methods(["GET", "POST"])
@admin_required_page
def phone_simulator(request: HttpRequest) -> HttpResponse:
    if not settings.DEBUG or not selectors.phone_menu_set_up():
        raise Http404("The phone simulator runs under make run only.")
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "call":
            who = request.POST.get("caller", "unknown")
            recipient = CareRecipient.objects.filter(pk=who).first() if who.isdigit() else None
            caller = selectors.e164_or_empty(recipient.phone) if recipient else UNKNOWN_NUMBER
            simulator.start(request, caller=caller or UNKNOWN_NUMBER)
        elif action == "reminder":
            who = request.POST.get("caller", "")
            recipient = CareRecipient.objects.filter(pk=who).first() if who.isdigit() else None
            problem = simulator.ring_reminder(request, recipient=recipient) if recipient else simulator.NO_ONE
            if problem:
                request.session[PROBLEM_KEY] = problem
        elif action == "key":
            simulator.press(request, request.POST.get("key", "")[:4])
        elif action == "say":
            simulator.speak(request, request.POST.get("words", "")[:500])
        elif action == "hang-up":
            request.session.pop(simulator.SESSION_KEY, None)
        return HttpResponseRedirect(reverse("phone-simulator"))
    call = request.session.get(simulator.SESSION_KEY)
    context = {
        "callers": _callers(),
        "recipients": [pair for pair in _callers() if pair[0] != "unknown"],
        "call": call,
        "keys": KEYS,
        "problem": request.session.pop(PROBLEM_KEY, ""),
        "number": settings.TWILIO_FROM_NUMBER,
    }
    return render(request, "pages/phone-simulator.html", context)
