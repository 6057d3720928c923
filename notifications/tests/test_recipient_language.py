"""Each person hears a notice in their own language (User.language), whoever caused it.

The circle of Walter: Clara organizes it and reads Kindly in Spanish; her brother Mark, a member,
reads it in English. One event (Vera accepts the request) sends each of them one email, and each
email, its text message and the notice in the app are in the reader's own language.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from accounts.tests.factories import UserFactory
from bookings import services as bookings
from circles.models import CareRecipient, CircleMember, CircleRole
from core.notifications import NoticeKind
from messaging.models import Message
from notifications import channels, services
from notifications.models import Delivery, DeliveryStatus
from providers.tests.factories import VerifiedProviderFactory
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def circle():
    clara = UserFactory(first_name="Clara", last_name="Stone", language="es")
    mark = UserFactory(first_name="Mark", last_name="Stone", language="en")
    walter = CareRecipient.objects.create(first_name="Walter", last_name="Stone", address="12 Oak Lane")
    CircleMember.objects.create(recipient=walter, user=clara, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=walter, user=mark, role=CircleRole.MEMBER)
    vera = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Helper", user__language="es")
    request = ServiceRequestFactory(client=clara, recipient=walter, title="Tablet")
    return {"clara": clara, "mark": mark, "vera": vera, "request": request}


def _accept(circle):
    bookings.service_request_accept(service_request_id=circle["request"].pk, actor=circle["vera"].user)


def test_one_event_sends_each_member_of_the_circle_an_email_in_their_own_language(circle):
    _accept(circle)
    deliveries = Delivery.objects.filter(event__kind=NoticeKind.REQUEST_ACCEPTED, channel="email")
    assert deliveries.count() == 2
    for delivery in deliveries:
        services.delivery_send(delivery_id=delivery.pk, last_try=True)
    assert set(deliveries.values_list("status", flat=True)) == {DeliveryStatus.SENT}

    by_address = {message.to[0]: message for message in mail.outbox}
    assert set(by_address) == {circle["clara"].email, circle["mark"].email}
    spanish, english = by_address[circle["clara"].email], by_address[circle["mark"].email]

    assert spanish.subject == "Vera aceptó su solicitud"
    assert "Buenas noticias: Vera aceptó su solicitud" in spanish.body
    assert "Pague ahora para confirmar la reserva." in spanish.body
    assert "Recibió este correo porque usted pidió ayuda a Kindly con esta solicitud." in spanish.body
    # The visit's day is in Spanish words too ("martes 24 de noviembre de 2026, a las 8:00 AM").
    assert " de 20" in spanish.body and ", a las " in spanish.body
    html, _mime = spanish.alternatives[0]
    assert '<html lang="es">' in html and "Pagar ahora" in html
    assert "Good news" not in spanish.body and "Pay now" not in spanish.body

    assert english.subject == "Vera will visit Walter"
    assert "An organizer of the care circle pays to confirm the booking." in english.body
    assert "You received this email because you are in the care circle of Walter Stone." in english.body
    assert '<html lang="en">' in english.alternatives[0][0]
    assert "Buenas" not in english.body and "usted" not in english.body


def test_the_language_that_sends_does_not_leak_into_the_emails(circle):
    """A worker (or a request) running in Spanish still writes Mark's email in English, and the reverse."""
    _accept(circle)
    deliveries = {
        d.recipient_id: d for d in Delivery.objects.filter(channel="email").select_related("event", "recipient")
    }
    with translation.override("es"):
        assert channels.email_message(deliveries[circle["mark"].pk]).subject == "Vera will visit Walter"
    with translation.override("en"):
        assert channels.email_message(deliveries[circle["clara"].pk]).subject == "Vera aceptó su solicitud"
    assert translation.get_language() == "en"


def test_the_notice_in_the_app_is_in_each_readers_language(circle):
    with translation.override("es"):  # whatever the language of the request that caused it
        _accept(circle)
    clara = list(Message.objects.filter(receiver=circle["clara"]).values_list("content", flat=True))
    mark = list(Message.objects.filter(receiver=circle["mark"]).values_list("content", flat=True))
    vera = list(Message.objects.filter(receiver=circle["vera"].user).values_list("content", flat=True))
    assert any(text.startswith('Buenas noticias: Vera Helper aceptó su solicitud "Tablet"') for text in clara)
    assert any(text.startswith('Good news: Vera Helper accepted the request "Tablet"') for text in mark)
    assert any(text.startswith('Usted aceptó "Tablet"') for text in vera)
    # What is kept with the notice (for staff and a later retelling) is the site's language.
    [delivery] = Delivery.objects.filter(recipient=circle["mark"], channel="email")
    assert delivery.event.text.startswith("Good news: Vera Helper accepted the request")


def test_a_text_message_is_written_again_in_its_readers_language(circle):
    _accept(circle)
    [clara_email] = Delivery.objects.filter(recipient=circle["clara"], channel="email").select_related("event")
    [mark_email] = Delivery.objects.filter(recipient=circle["mark"], channel="email").select_related("event")
    # The text's words are the same notice's, for the same person (sms_body reads only the event and reader).
    spanish = channels.sms_body(clara_email)
    assert spanish.startswith('Kindly: Buenas noticias: Vera Helper aceptó su solicitud "Tablet". La visita queda')
    # The visit's day and window are written again in Spanish, not kept in the sender's English.
    day = circle["request"].preferred_date
    months = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre"]
    months += ["noviembre", "diciembre"]
    assert f"{day.day} de {months[day.month - 1]} de {day.year}" in spanish
    assert day.strftime("%B") not in spanish and day.strftime("%A") not in spanish
    assert channels.sms_body(clara_email).endswith("Responda STOP para no recibir más mensajes.")
    english = channels.sms_body(mark_email)
    assert english.startswith('Kindly: Good news: Vera Helper accepted the request "Tablet". The visit is booked for ')
    assert f"{day:%A, %B} {day.day}, {day.year}, Morning (8AM - 12PM)" in english
    assert f"{day.day} de {months[day.month - 1]} de {day.year}, Mañana (8 AM - 12 PM)" in spanish
    assert channels.sms_body(mark_email).endswith("Reply STOP to stop texts.")


def test_an_invitation_is_written_in_the_invitees_language_or_else_the_inviters(circle):
    from circles import services as circles

    clara = circle["clara"]  # reads Spanish
    recipient = circle["request"].recipient
    UserFactory(email="tom@example.com", language="en")
    to_stranger = circles.invitation_create(
        actor=clara, recipient_id=recipient.pk, email="new@example.com", role="member"
    )
    to_tom = circles.invitation_create(actor=clara, recipient_id=recipient.pk, email="tom@example.com", role="member")

    stranger = channels.invitation_email(to_stranger, key="a")
    tom = channels.invitation_email(to_tom, key="b")

    assert stranger.subject == "Clara Stone le invita a ayudar a cuidar a Walter en Kindly"
    assert "Le invitan como miembro." in stranger.body
    assert tom.subject == "Clara Stone invites you to help care for Walter on Kindly"


def test_the_inviter_chooses_the_language_of_an_invitation_to_someone_without_an_account(circle, client):
    """Clara reads Spanish; her brother Mark has no account yet and reads English: she picks English
    for his invitation on the Care circle page, and it comes in English. A language Kindly does not
    speak is a 400 and nothing is sent."""
    from circles.models import CircleInvitation
    from marketplace.testing.api import call

    clara = circle["clara"]
    recipient = circle["request"].recipient
    client.force_login(clara)
    url = f"/api/care-recipients/{recipient.pk}/invitations"
    sent = call(client, "POST", url, {"email": "mark@example.com", "role": "member", "language": "en"})
    assert sent.status_code == 201, sent.content
    mark = channels.invitation_email(CircleInvitation.objects.get(pk=sent.json()["id"]), key="m")
    assert mark.subject == "Clara Stone invites you to help care for Walter on Kindly"

    refused = call(client, "POST", url, {"email": "ana@example.com", "role": "member", "language": "fr"})
    assert refused.status_code == 400
    assert refused.json()["errors"] == {"language": ["Elija English o Español."]}
    assert not CircleInvitation.objects.filter(email="ana@example.com").exists()
