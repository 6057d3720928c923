from django.urls import path

from providers import views as pages
from providers.api import views

urlpatterns = [
    path("api/providers", views.ProviderListView.as_view(), name="api-providers"),
    path("api/provider/profile", views.ProviderProfileView.as_view(), name="api-provider-profile"),
    path("provider-signup", pages.provider_signup, name="provider-signup"),
]
