from django.urls import path

from accounts import second_factor_views as second_factor
from accounts import views
from accounts.api import views as api

urlpatterns = [
    path("login", views.login_page, name="login"),
    path("settings/language", views.language_set, name="settings-language"),
    path("api/login", api.api_login_redirect, name="api-login"),
    path("api/auth/session", api.SessionView.as_view(), name="auth-session"),
    path("api/auth/logout", api.LogoutView.as_view(), name="auth-logout"),
    path("api/auth/user", api.CurrentUserView.as_view(), name="auth-user"),
    path("api/auth/language", api.LanguageView.as_view(), name="auth-language"),
    path("api/auth/user-type", api.UserTypeView.as_view(), name="auth-user-type"),
    # The staff second step (accounts.second_factor); the gate lets staff reach these before it.
    path("second-factor", second_factor.second_factor_page, name="second-factor"),
    path("second-factor/authenticator", second_factor.authenticator_code, name="second-factor-authenticator"),
    path("second-factor/recovery-code", second_factor.recovery_code, name="second-factor-recovery-code"),
    path("second-factor/recovery-codes", second_factor.recovery_codes_page, name="second-factor-recovery-codes"),
    path(
        "second-factor/passkey/register/begin",
        second_factor.PasskeyRegisterBegin.as_view(),
        name="second-factor-passkey-register-begin",
    ),
    path(
        "second-factor/passkey/register/complete",
        second_factor.PasskeyRegisterComplete.as_view(),
        name="second-factor-passkey-register-complete",
    ),
    path(
        "second-factor/passkey/verify/begin",
        second_factor.PasskeyVerifyBegin.as_view(),
        name="second-factor-passkey-verify-begin",
    ),
    path(
        "second-factor/passkey/verify/complete",
        second_factor.PasskeyVerifyComplete.as_view(),
        name="second-factor-passkey-verify-complete",
    ),
]
