"""The six services of spec section 1. Their slugs are the provider specialty ids."""

from django.db import migrations

from requests_app.categories import CATEGORIES

def create_categories(apps, schema_editor):
    ServiceCategory = apps.get_model("requests_app", "ServiceCategory")
    for data in CATEGORIES:
        ServiceCategory.objects.update_or_create(slug=data["slug"], defaults=data)


def remove_categories(apps, schema_editor):
    ServiceCategory = apps.get_model("requests_app", "ServiceCategory")
    ServiceCategory.objects.filter(slug__in=[c["slug"] for c in CATEGORIES]).delete()


class Migration(migrations.Migration):
    dependencies = [("requests_app", "0001_initial")]

    operations = [migrations.RunPython(create_categories, remove_categories)]
