"""The Django admin names every app and model in words: no "REQUESTS_APP", no "Weekly hourss"."""

import pytest
from django.apps import apps
from django.contrib import admin

pytestmark = pytest.mark.django_db

KINDLY_APPS = [
    "accounts",
    "circles",
    "providers",
    "requests_app",
    "bookings",
    "payments",
    "messaging",
    "notifications",
    "adminpanel",
]


@pytest.mark.parametrize("label", KINDLY_APPS)
def test_each_app_has_a_name_in_words(label):
    name = apps.get_app_config(label).verbose_name
    assert "_" not in name and name[0].isupper()


def test_apps_whose_label_is_not_a_word_are_named():
    assert apps.get_app_config("requests_app").verbose_name == "Service requests"
    assert apps.get_app_config("adminpanel").verbose_name == "Admin panel"


def test_model_names_are_not_pluralised_twice():
    for model in admin.site._registry:
        plural = str(model._meta.verbose_name_plural)
        assert not plural.endswith(("ss", "hourss")) or plural.endswith("addresses"), plural


def test_the_admin_index_shows_the_names_people_read(client, admin_user):
    client.force_login(admin_user)
    page = client.get("/django-admin/").content.decode()

    assert "Service requests" in page and "Requests_App" not in page
    assert "Weekly hours" in page and "Weekly hourss" not in page
    assert "Time off" in page and "Time offs" not in page
