from django.urls import path

from accounts import views
from accounts.api import views as api

urlpatterns = [
    path("login", views.login_page, name="login"),
    path("api/login", api.api_login_redirect, name="api-login"),
    path("api/auth/session", api.SessionView.as_view(), name="auth-session"),
    path("api/auth/logout", api.LogoutView.as_view(), name="auth-logout"),
    path("api/auth/user", api.CurrentUserView.as_view(), name="auth-user"),
    path("api/auth/user-type", api.UserTypeView.as_view(), name="auth-user-type"),
]
