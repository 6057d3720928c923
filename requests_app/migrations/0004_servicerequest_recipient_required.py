import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    # circles 0002 gave every existing request its recipient.
    dependencies = [
        ("requests_app", "0003_servicerequest_recipient"),
        ("circles", "0002_existing_clients"),
    ]

    operations = [
        migrations.AlterField(
            model_name="servicerequest",
            name="recipient",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT, related_name="service_requests", to="circles.carerecipient"
            ),
        ),
    ]
