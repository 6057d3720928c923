"""Every existing request, booking and emergency contact gets a care recipient: the client
themself (their own recipient, with a circle of one organizer: them). Nothing is deleted; the
reverse step only clears the links."""

from django.db import migrations


def forward(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    CareRecipient = apps.get_model("circles", "CareRecipient")
    CircleMember = apps.get_model("circles", "CircleMember")
    ServiceRequest = apps.get_model("requests_app", "ServiceRequest")
    Booking = apps.get_model("bookings", "Booking")
    EmergencyContact = apps.get_model("accounts", "EmergencyContact")

    client_ids = (
        set(ServiceRequest.objects.values_list("client_id", flat=True).distinct())
        | set(Booking.objects.values_list("client_id", flat=True).distinct())
        | set(EmergencyContact.objects.values_list("user_id", flat=True).distinct())
    )
    have = set(CareRecipient.objects.filter(account_id__in=client_ids).values_list("account_id", flat=True))
    # Where the help went last: the newest request's location becomes the recipient's address.
    last_location: dict[str, str] = {}
    for client_id, location in ServiceRequest.objects.exclude(location="").order_by("created_at", "id").values_list(
        "client_id", "location"
    ):
        last_location[client_id] = location
    users = User.objects.filter(pk__in=client_ids - have).order_by("pk")
    batch = [
        CareRecipient(
            first_name=u.first_name or u.email.split("@")[0],
            last_name=u.last_name,
            address=last_location.get(u.pk, ""),
            account_id=u.pk,
        )
        for u in users.iterator(chunk_size=2000)
    ]
    CareRecipient.objects.bulk_create(batch, batch_size=1000)
    recipient_of = dict(CareRecipient.objects.filter(account_id__in=client_ids).values_list("account_id", "pk"))
    existing = set(
        CircleMember.objects.filter(recipient_id__in=recipient_of.values()).values_list("recipient_id", "user_id")
    )
    CircleMember.objects.bulk_create(
        [
            CircleMember(recipient_id=rid, user_id=uid, role="organizer")
            for uid, rid in recipient_of.items()
            if (rid, uid) not in existing
        ],
        batch_size=1000,
    )
    for uid, rid in recipient_of.items():
        ServiceRequest.objects.filter(client_id=uid, recipient__isnull=True).update(recipient_id=rid)
        Booking.objects.filter(client_id=uid, recipient__isnull=True).update(recipient_id=rid)
        EmergencyContact.objects.filter(user_id=uid, recipient__isnull=True).update(recipient_id=rid)


def backward(apps, schema_editor):
    apps.get_model("requests_app", "ServiceRequest").objects.update(recipient=None)
    apps.get_model("bookings", "Booking").objects.update(recipient=None)
    apps.get_model("accounts", "EmergencyContact").objects.update(recipient=None)


class Migration(migrations.Migration):
    dependencies = [
        ("circles", "0001_initial"),
        ("accounts", "0003_emergencycontact_recipient"),
        ("requests_app", "0003_servicerequest_recipient"),
        ("bookings", "0006_booking_recipient"),
    ]

    operations = [migrations.RunPython(forward, backward)]
