import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    # circles 0002 gave every existing booking its recipient.
    dependencies = [
        ("bookings", "0006_booking_recipient"),
        ("circles", "0002_existing_clients"),
    ]

    operations = [
        migrations.AlterField(
            model_name="booking",
            name="recipient",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="bookings", to="circles.carerecipient"
            ),
        ),
    ]
