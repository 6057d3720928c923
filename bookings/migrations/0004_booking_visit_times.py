"""Booking.starts_at / ends_at (the visit's time), filled for every booking, and on PostgreSQL the
exclusion constraint that keeps a provider's scheduled and confirmed visits from overlapping.

The constraint is added with SQL on PostgreSQL only (SQLite has no exclusion constraints; under
`make run` the service check alone applies), so it is not in Booking.Meta.constraints.
"""

import datetime as dt
import zoneinfo

from django.conf import settings
from django.contrib.postgres.operations import BtreeGistExtension
from django.db import migrations, models

ADD_CONSTRAINT = """
ALTER TABLE bookings_booking ADD CONSTRAINT booking_provider_no_overlap
EXCLUDE USING gist (provider_id WITH =, tstzrange(starts_at, ends_at, '[)') WITH &&)
WHERE (status IN ('scheduled', 'confirmed'))
"""
DROP_CONSTRAINT = "ALTER TABLE bookings_booking DROP CONSTRAINT IF EXISTS booking_provider_no_overlap"


def fill_visit_times(apps, schema_editor):
    from requests_app.models import WINDOW_START, TimeWindow

    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    Booking = apps.get_model("bookings", "Booking")
    for booking in Booking.objects.only("scheduled_date", "scheduled_time", "duration").iterator():
        start = WINDOW_START.get(booking.scheduled_time, WINDOW_START[TimeWindow.FLEXIBLE])
        booking.starts_at = dt.datetime.combine(booking.scheduled_date, start, tzinfo=zone)
        booking.ends_at = booking.starts_at + dt.timedelta(minutes=booking.duration)
        booking.save(update_fields=["starts_at", "ends_at"])


def run_on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("bookings", "0003_booking_refund_status"),
    ]

    operations = [
        migrations.AddField(model_name="booking", name="starts_at", field=models.DateTimeField(null=True, editable=False)),
        migrations.AddField(model_name="booking", name="ends_at", field=models.DateTimeField(null=True, editable=False)),
        migrations.RunPython(fill_visit_times, migrations.RunPython.noop),
        migrations.AlterField(model_name="booking", name="starts_at", field=models.DateTimeField(editable=False)),
        migrations.AlterField(model_name="booking", name="ends_at", field=models.DateTimeField(editable=False)),
        BtreeGistExtension(),
        migrations.RunPython(run_on_postgresql(ADD_CONSTRAINT), run_on_postgresql(DROP_CONSTRAINT)),
    ]
