"""Reads of categories and service requests, scoped to what the caller may see."""

from django.db.models import QuerySet

from requests_app.models import ServiceCategory


def category_list_active() -> QuerySet[ServiceCategory]:
    return ServiceCategory.objects.filter(is_active=True).order_by("id")
