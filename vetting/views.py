"""The offline gateways' pages (`make run`): stand-ins for Stripe Identity's and Checkr's hosted
flows, where the applicant finishes her step. 404 with the live gateways and to anyone but her."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render

from vetting import services
from vetting.gateways import OFFLINE
from vetting.models import BackgroundCheck, CheckStatus, IdentityCheck, IdentityStatus

SIGNUP = "/provider-signup"


def _not_found(request: HttpRequest) -> HttpResponse:
    return render(request, "404.html", status=404)


@login_required
def offline_identity(request: HttpRequest, session_id: str) -> HttpResponse:
    check = IdentityCheck.objects.filter(
        session_id=session_id, provider__user_id=request.user.pk, status=IdentityStatus.PENDING
    ).first()
    if settings.VETTING_BACKEND != OFFLINE or check is None:
        return _not_found(request)
    if request.method == "POST":
        verified = request.POST.get("outcome") != "requires_input"
        services.identity_result_record(
            session_id=session_id,
            outcome=IdentityStatus.VERIFIED if verified else IdentityStatus.REQUIRES_INPUT,
            failure_reason="" if verified else "document_unverified_other",
            first_name=request.user.first_name if verified else "",
            last_name=request.user.last_name if verified else "",
        )
        return HttpResponseRedirect(SIGNUP)
    return render(request, "pages/vetting-offline-identity.html", {"session_id": session_id})


@login_required
def offline_background_check(request: HttpRequest, invitation_id: str) -> HttpResponse:
    check = BackgroundCheck.objects.filter(
        invitation_id=invitation_id, provider__user_id=request.user.pk, status=CheckStatus.INVITED
    ).first()
    if settings.VETTING_BACKEND != OFFLINE or check is None:
        return _not_found(request)
    if request.method == "POST":
        result = CheckStatus.CONSIDER if request.POST.get("outcome") == "consider" else CheckStatus.CLEAR
        report = {"id": f"rpt_offline_{check.pk}", "candidate_id": check.candidate_id, "result": result}
        services.background_report_record(report=report, event_type="report.completed")
        return HttpResponseRedirect(SIGNUP)
    return render(request, "pages/vetting-offline-background-check.html", {"invitation_id": invitation_id})
