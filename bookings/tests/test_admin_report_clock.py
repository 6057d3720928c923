"""Staff read a visit report's times on the clock of the person cared for, as the family does."""

import datetime as dt

import pytest

from bookings.models import BookingStatus, VisitReport, VisitReportEdit
from bookings.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db

# 6:35 PM UTC on a winter day: 10:35 AM in Los Angeles, 1:35 PM at the site (New York).
WRITTEN = dt.datetime(2026, 1, 15, 18, 35, tzinfo=dt.UTC)
# 11:30 PM on Jan 15 in Los Angeles is already Jan 16 at the site.
CORRECTED = dt.datetime(2026, 1, 16, 7, 30, tzinfo=dt.UTC)


def test_the_django_admin_shows_a_report_written_and_corrected_on_the_recipients_clock(client, admin_user):
    booking = BookingFactory(status=BookingStatus.COMPLETED, scheduled_date=dt.date(2026, 1, 15))
    booking.recipient.time_zone = "America/Los_Angeles"
    booking.recipient.save(update_fields=["time_zone"])
    report = VisitReport.objects.create(booking=booking, wellbeing=4)
    edit = VisitReportEdit.objects.create(report=report, edited_by=booking.provider.user, before={"wellbeing": 3})
    VisitReport.objects.filter(pk=report.pk).update(created_at=WRITTEN, updated_at=CORRECTED)
    VisitReportEdit.objects.filter(pk=edit.pk).update(edited_at=CORRECTED)
    client.force_login(admin_user)

    written, corrected = "Thu, Jan 15, 2026, 10:35 AM Pacific Time", "Thu, Jan 15, 2026, 11:30 PM Pacific Time"
    for url in (
        "/django-admin/bookings/visitreport/",
        f"/django-admin/bookings/visitreport/{report.pk}/change/",
        "/django-admin/bookings/visitreportedit/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert corrected in html, url
        assert ("visitreportedit" in url) or written in html, url
