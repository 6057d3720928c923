"""Settings shared by every environment. Values come from the environment (django-environ)."""

from decimal import Decimal
from ipaddress import ip_address
from pathlib import Path
from urllib.parse import urlsplit

import environ
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()
# A .env file is optional; the process environment always wins.
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env("SECRET_KEY", default="")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    # The Django admin with Kindly's site (marketplace.admin_site): Firebase sign-in and the staff second step.
    "marketplace.apps.KindlyAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "channels",
    "django_vite",
    # The staff second step: authenticator-app codes, recovery codes and passkeys (accounts.second_factor).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "django_otp_webauthn",
    "marketplace",
    "accounts",
    "circles",
    "providers",
    "requests_app",
    "bookings",
    "messaging",
    "payments",
    "adminpanel",
    "notifications",
    "vetting",
    "phoneline",
]

MIDDLEWARE = [
    "core.logging.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.csp.KindlyCSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of the request: the browser's (Accept-Language) or the django_language cookie;
    # a signed-in person's own choice wins (accounts.middleware.UserLanguageMiddleware, below).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): the session passed the second step (django-otp); staff who have
    # not are held at the step (accounts.middleware).
    "django_otp.middleware.OTPMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.StaffSecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "marketplace.notfound.NotFoundPageMiddleware",
]

ROOT_URLCONF = "marketplace.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.toasts",
                "core.support.context",
            ],
        },
    },
]

WSGI_APPLICATION = "marketplace.wsgi.application"
ASGI_APPLICATION = "marketplace.asgi.application"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
# ModelBackend loads the session's user by id; ours reads it through the list cache (accounts/
# authentication.py). The stock one stays listed so that sessions signed in before it keep working
# (Django ends a session whose backend is no longer listed). Passwords live in Firebase; Django
# never checks one.
AUTHENTICATION_BACKENDS = [
    "accounts.authentication.CachedModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS: list[dict] = []
LOGIN_URL = "/login"

LANGUAGE_CODE = "en"
# Kindly's languages (core.languages.Language): pages, emails and texts; catalogues in locale/
# (make messages writes them, the compiled .mo files are committed: see docs/i18n.md).
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Spanish numbers and times as Kindly's US readers write them (marketplace/formats/es/formats.py).
FORMAT_MODULE_PATH = ["marketplace.formats"]
# Visit times and the 48-hour rule are read in the site's zone; storage is UTC.
TIME_ZONE = env("SITE_TIME_ZONE", default="America/New_York")
SITE_TIME_ZONE = TIME_ZONE
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Visit photos (bookings.visit_photo) are private: a folder outside static/ and any media URL by
# default; in production a private bucket through django-storages
# (VISIT_PHOTOS_STORAGE=storages.backends.s3.S3Storage, VISIT_PHOTOS_BUCKET). Either way Kindly
# serves each photo itself, by a signed link that expires (base_url None: no public URL exists).
VISIT_PHOTOS_STORAGE = env("VISIT_PHOTOS_STORAGE", default="core.storage.PrivateFileSystemStorage")
VISIT_PHOTOS_ROOT = env("VISIT_PHOTOS_ROOT", default=str(BASE_DIR / "private" / "visit-photos"))


def visit_photos_storage(backend: str, root: str) -> dict:
    if backend.startswith("storages.backends.s3"):
        options = {
            "bucket_name": env("VISIT_PHOTOS_BUCKET", default=""),
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        }
    else:
        options = {"location": root, "base_url": None}
    return {"BACKEND": backend, "OPTIONS": options}


STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    "visit_photos": visit_photos_storage(VISIT_PHOTOS_STORAGE, VISIT_PHOTOS_ROOT),
}
# Vite names every file under static/dist/assets/ by its content hash (django-vite reads the
# manifest): WhiteNoise may tell browsers to keep them for ever (max-age 10 years, immutable).
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/static/dist/assets/"

# Vite builds into static/dist with a manifest; django-vite reads it.
DJANGO_VITE = {
    "default": {
        "dev_mode": env.bool("VITE_DEV_MODE", default=False),
        "manifest_path": BASE_DIR / "static" / "dist" / "manifest.json",
        "static_url_prefix": "dist",
    }
}

# Content-Security-Policy (core/csp.py). Scripts: this origin with the request's nonce,
# Stripe.js (/checkout), Google's sign-in helper (/login popup). Inline style attributes stay
# allowed: Radix primitives set them for positioning and scroll locking.
_FIREBASE_AUTH_DOMAIN = env("FIREBASE_AUTH_DOMAIN", default="")
CONTENT_SECURITY_POLICY = {
    # The API docs page (Swagger UI) loads its assets from a CDN with an inline bootstrap.
    "EXCLUDE_URL_PREFIXES": ["/api/docs/"],
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE, "https://js.stripe.com", "https://apis.google.com"],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:", "https:"],
        "font-src": [SELF, "data:"],
        "connect-src": [
            SELF,
            "https://identitytoolkit.googleapis.com",
            "https://securetoken.googleapis.com",
            "https://api.stripe.com",
        ],
        "frame-src": [
            SELF,
            "https://js.stripe.com",
            "https://hooks.stripe.com",
            *([f"https://{_FIREBASE_AUTH_DOMAIN}"] if _FIREBASE_AUTH_DOMAIN else []),
        ],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 14
CSRF_COOKIE_SAMESITE = "Lax"

REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # A socket's consumer waits for its events in a blocking BZPOPMIN of 5 s (channels-redis'
            # brpop_timeout). redis-py 8 reads with a 5 s socket timeout by default, which cut that
            # wait short: every idle consumer died with "Timeout reading from ..." and its page had to
            # reconnect. A read may wait longer than the pop (and still fails when Redis is gone).
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}]},
        }
    }
    # django-redis, not Django's own RedisCache: Django builds a cache object per request context
    # (one per request under ASGI), and its RedisCache keeps a connection pool per object, so every
    # request opened a new Redis connection. django-redis keeps one pool per process.
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 2, "SOCKET_TIMEOUT": 2},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Firebase Authentication. Empty by default; local/test fill in a demo- project.
FIREBASE_PROJECT_ID = env("FIREBASE_PROJECT_ID", default="")
FIREBASE_API_KEY = env("FIREBASE_API_KEY", default="")
FIREBASE_AUTH_DOMAIN = env("FIREBASE_AUTH_DOMAIN", default="")
FIREBASE_APP_ID = env("FIREBASE_APP_ID", default="")
FIREBASE_AUTH_EMULATOR_HOST = env("FIREBASE_AUTH_EMULATOR_HOST", default="")
FIREBASE_CREDENTIALS = env("FIREBASE_CREDENTIALS", default="")
SESSION_SYNC_MAX_AGE = env.int("SESSION_SYNC_MAX_AGE", default=300)
# The emulator skips token signatures: a system check refuses it unless DEBUG is on (tests opt out).
ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG = False

# Payments. The backend is chosen in the environment-specific settings.
STRIPE_SECRET_KEY = env("STRIPE_SECRET_KEY", default="")
STRIPE_PUBLISHABLE_KEY = env("STRIPE_PUBLISHABLE_KEY", default="")
STRIPE_WEBHOOK_SECRET = env("STRIPE_WEBHOOK_SECRET", default="")
STRIPE_API_BASE = env("STRIPE_API_BASE", default="")
PAYMENTS_CURRENCY = env("PAYMENTS_CURRENCY", default="usd")
PAYMENTS_BACKEND = env("PAYMENTS_BACKEND", default="stripe" if STRIPE_SECRET_KEY else "test")
# The offline test gateway takes no money; system check payments.E001 refuses it with DEBUG off
# unless this is set (the test settings only).
PAYMENTS_ALLOW_TEST_GATEWAY = env.bool("PAYMENTS_ALLOW_TEST_GATEWAY", default=False)
# Stripe Connect (docs/payments.md): Kindly keeps this percentage of each booking's total, rounded
# down to the cent (in the provider's favour); the rest is transferred to the provider's connected
# account after the visit. Events of connected accounts (account.updated, payout.*) come to
# their own webhook endpoint, signed with its own secret.
PLATFORM_FEE_PERCENT = Decimal(env("PLATFORM_FEE_PERCENT", default="15"))
# The late-cancellation fee (docs/payments.md "Cancellation policy"): one hour of the visit, at
# most this many dollars, paid in full to the helper when staff cancel inside 48 hours or the
# helper found nobody home. A nobody-home fee waits this many hours for the family's dispute.
LATE_FEE_CAP = Decimal(env("LATE_FEE_CAP", default="40.00"))
LATE_FEE_DISPUTE_HOURS = env.int("LATE_FEE_DISPUTE_HOURS", default=72)
STRIPE_CONNECT_WEBHOOK_SECRET = env("STRIPE_CONNECT_WEBHOOK_SECRET", default="")
STRIPE_CONNECT_COUNTRY = env("STRIPE_CONNECT_COUNTRY", default="US")

# Vetting (vetting.gateways): identity through Stripe Identity (same STRIPE_SECRET_KEY; its webhook
# endpoint has its own signing secret) and background checks through Checkr's REST API. "live"
# uses both; "offline" (the default without CHECKR_API_KEY) finishes each on a Kindly page.
STRIPE_IDENTITY_WEBHOOK_SECRET = env("STRIPE_IDENTITY_WEBHOOK_SECRET", default="")
CHECKR_API_KEY = env("CHECKR_API_KEY", default="")
CHECKR_PACKAGE = env("CHECKR_PACKAGE", default="tasker_standard")
CHECKR_BASE_URL = env("CHECKR_BASE_URL", default="https://api.checkr.com")
VETTING_BACKEND = env("VETTING_BACKEND", default="live" if CHECKR_API_KEY else "offline")
# Tries of a check's outside call (vetting.tasks), seconds between them: base x 2^try, capped.
VETTING_RETRY_BASE = env.float("VETTING_RETRY_BASE", default=30.0)
VETTING_RETRY_CAP = env.float("VETTING_RETRY_CAP", default=900.0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # API clients: Authorization: Bearer <Firebase ID token> (no CSRF); pages: the session.
        "accounts.authentication.FirebaseBearerAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_PAGINATION_CLASS": "core.api.ArrayLimitOffsetPagination",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

# Rate limits (core/throttling.py); "N/s|m|h|d", empty to switch one off.
THROTTLE_RATES = {
    "sign_in": env("THROTTLE_SIGN_IN", default="10/min"),
    "message_send": env("THROTTLE_MESSAGE_SEND", default="30/min"),
    "request_create": env("THROTTLE_REQUEST_CREATE", default="20/hour"),
    "payment_intent": env("THROTTLE_PAYMENT_INTENT", default="30/hour"),
}
# Addresses (or networks) of the reverse proxies whose X-Forwarded-For is believed.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=["127.0.0.1", "::1"])

SPECTACULAR_SETTINGS = {
    "TITLE": "Kindly API",
    "DESCRIPTION": "The marketplace API behind Kindly's pages.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # 3.1 for its webhooks: the events pushed over the websocket, declared in marketplace/realtime_events.py.
    "OAS_VERSION": "3.1.0",
    "WEBHOOKS": "marketplace.realtime_events.EVENTS",
    "POSTPROCESSING_HOOKS": [
        "marketplace.realtime_events.with_event_components",
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api.any_of_for_supersets",
    ],
    # Several models have a "status"/"urgency" field with different choices: name each set.
    "ENUM_NAME_OVERRIDES": {
        "RequestStatusEnum": "requests_app.models.RequestStatus",
        "BookingStatusEnum": "bookings.models.BookingStatus",
        "PaymentStatusEnum": "bookings.models.PaymentStatus",
        "VerificationStatusEnum": "providers.models.VerificationStatus",
        "ProviderDecisionEnum": [("verified", "Verified"), ("rejected", "Rejected")],
        "UrgencyEnum": "requests_app.models.Urgency",
        "EditUrgencyEnum": [("low", "Low"), ("normal", "Normal"), ("high", "High")],
        "TimeWindowEnum": "requests_app.models.TimeWindow",
        "VisitWindowEnum": [("morning", "morning"), ("afternoon", "afternoon"), ("evening", "evening")],
        "SpecialtyEnum": "providers.models.Specialty",
        "UserTypeEnum": "accounts.models.UserType",
        "LateFeeKindEnum": "payments.models.LateFeeKind",
        "KindEnum": "notifications.kinds.Kind",
        "LateFeeStateEnum": "payments.models.LateFeeState",
        "LateFeeDecisionEnum": [("pay", "The fee stands"), ("waive", "Waive the fee")],
        "DashboardViewEnum": [("provider", "provider"), ("client", "client")],
        "CircleRoleEnum": "circles.models.CircleRole",
        "InvitationStatusEnum": "circles.models.InvitationStatus",
        "TipStateEnum": "payments.models.TipState",
        "InstantPayoutStateEnum": "payments.models.InstantPayoutState",
    },
}

LOG_LEVEL = env("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "core.logging.RequestIdFilter"},
        "client_errors_as_info": {"()": "core.logging.ClientErrorsAsInfo"},
    },
    "formatters": {"json": {"()": "core.logging.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "filters": ["request_id", "client_errors_as_info"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # Stripe's SDK logs whole response bodies at DEBUG (an identity session's verified name and
        # date of birth): never below INFO, whatever LOG_LEVEL says.
        "stripe": {"level": "INFO"},
        # WeasyPrint (receipts, statements) logs each layout step at INFO: its warnings are enough.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
        # Django's own default console handler (plain text, when DEBUG) is removed, and its INFO
        # level follows LOG_LEVEL: its records reach the root's JSON handler once, not twice.
        "django": {"handlers": [], "level": LOG_LEVEL, "propagate": True},
    },
}

# The address people reach the site at: links in emails and text messages are built on it.
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")


def _webauthn_site(site_url: str) -> tuple[str, str]:
    """The passkeys' relying party (a domain name) and origin for a site address. An IP address
    cannot be a relying party: a site at http://127.0.0.1:8000 offers passkeys at localhost."""
    parts = urlsplit(site_url)
    host = parts.hostname or "localhost"
    try:
        ip_address(host)
    except ValueError:
        return host, f"{parts.scheme}://{parts.netloc}"
    return "localhost", f"{parts.scheme}://localhost" + (f":{parts.port}" if parts.port else "")


# Staff sign in with a second step after Firebase (accounts.second_factor): a passkey, or a code
# from an authenticator app, or a one-time recovery code. Passkeys belong to one domain (the
# relying party) and are accepted from the listed origins only; both follow SITE_URL.
_WEBAUTHN_RP_ID, _WEBAUTHN_ORIGIN = _webauthn_site(SITE_URL)
OTP_WEBAUTHN_RP_ID = env("WEBAUTHN_RP_ID", default=_WEBAUTHN_RP_ID)
OTP_WEBAUTHN_RP_NAME = "Kindly"
OTP_WEBAUTHN_ALLOWED_ORIGINS = env.list("WEBAUTHN_ORIGINS", default=[_WEBAUTHN_ORIGIN])
# A passkey is a second step after the Firebase sign-in, never a way to sign in on its own.
OTP_WEBAUTHN_ALLOW_PASSWORDLESS_LOGIN = False
# The name authenticator apps show next to the code.
OTP_TOTP_ISSUER = "Kindly"

# How people reach Kindly's support team (core.support): shown the same on every page, in
# emails and on error pages. Empty means "not offered": nothing is shown rather than a made-up
# address or number, and "Contact support" leads to the in-app support conversation. "24/7" is
# claimed only when SUPPORT_ALWAYS_OPEN says someone answers at any hour.
SUPPORT_EMAIL = env("SUPPORT_EMAIL", default="")
SUPPORT_PHONE = env("SUPPORT_PHONE", default="")
SUPPORT_HOURS = env("SUPPORT_HOURS", default="")  # e.g. "Monday to Friday, 9 AM to 5 PM Eastern"
SUPPORT_ALWAYS_OPEN = env.bool("SUPPORT_ALWAYS_OPEN", default=False)

# Email through Django's mail API: EMAIL_URL (django-environ), e.g. smtp+tls://user:pw@mail.internal:587,
# consolemail://, filemail:///.run/mail (a path relative to the checkout, or filemail:////abs/path).


def email_settings(url: str) -> dict:
    """Django's EMAIL_* settings from an EMAIL_URL; the unset parts keep Django's defaults."""
    config = {key: value for key, value in env.email_url_config(url).items() if value not in (None, "")}
    if "EMAIL_FILE_PATH" in config and not Path(config["EMAIL_FILE_PATH"]).is_absolute():
        config["EMAIL_FILE_PATH"] = str(BASE_DIR / config["EMAIL_FILE_PATH"])
    return config


EMAIL_URL = env("EMAIL_URL", default="consolemail://")
globals().update(email_settings(EMAIL_URL))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Kindly <no-reply@kindly.example.com>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)

# Text messages through Twilio's SDK: off unless all three are set.
TWILIO_ACCOUNT_SID = env("TWILIO_ACCOUNT_SID", default="")
TWILIO_AUTH_TOKEN = env("TWILIO_AUTH_TOKEN", default="")
TWILIO_FROM_NUMBER = env("TWILIO_FROM_NUMBER", default="")
# Masked calls and texts between a booking's helper and family (phoneline): Kindly's small pool of
# numbers, comma-separated in E.164; off while empty.
TWILIO_PROXY_NUMBERS = env.list("TWILIO_PROXY_NUMBERS", default=[])
# Tests only: where the fake Twilio API listens (like STRIPE_API_BASE).
TWILIO_API_BASE = env("TWILIO_API_BASE", default="")

# Where addresses are (core.geocoding): "zip" places each at its US ZIP code's centre, offline (the
# zipcodes package's data); any other value names a geopy service ("nominatim", "googlev3", ...),
# GEOCODER_OPTIONS (JSON) its constructor's arguments, e.g. {"user_agent": "kindly-prod",
# "domain": "nominatim.internal"} or {"api_key": "..."}, GEOCODER_QUERY_OPTIONS (JSON) each query's,
# e.g. {"country_codes": "us"}. Called from Celery only (circles.tasks, providers.tasks).
GEOCODER = env("GEOCODER", default="zip")
# A check-in or check-out within this many metres of the recipient's coordinates is "verified"
# (bookings.services.visit_record); outside it the helper gives a reason, never blocked.
VISIT_PLACE_RADIUS_METERS = env.float("VISIT_PLACE_RADIUS_METERS", default=150.0)
GEOCODER_OPTIONS = env.json("GEOCODER_OPTIONS", default={})
GEOCODER_QUERY_OPTIONS = env.json("GEOCODER_QUERY_OPTIONS", default={})
GEOCODER_TIMEOUT = env.float("GEOCODER_TIMEOUT", default=10.0)
# Tries of one place task when the service does not answer (backoff 30 s x 2^try); then the record
# stays "pending" for beat's sweep (every 15 minutes).
GEOCODER_MAX_RETRIES = env.int("GEOCODER_MAX_RETRIES", default=4)

# Background jobs (marketplace/celery.py): Celery on the Redis production already runs.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies mid-way runs again (tasks are idempotent)
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker that does not answer never holds up the request that enqueued (the sweep sends later).
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
# Deliveries: tries and backoff (seconds: base x 2^try, at most the cap).
NOTIFICATIONS_MAX_RETRIES = env.int("NOTIFICATIONS_MAX_RETRIES", default=6)
NOTIFICATIONS_RETRY_BASE = env.float("NOTIFICATIONS_RETRY_BASE", default=10.0)
NOTIFICATIONS_RETRY_CAP = env.float("NOTIFICATIONS_RETRY_CAP", default=600.0)
# Money tasks (payments.tasks): tries and backoff on gateway errors (seconds: base x 2^try, capped).
# The backoff never exceeds payments.selectors.REFUND_UNANSWERED_AFTER, so beat's sweep does not
# resend a refund whose task is only waiting for its next try.
PAYMENTS_MAX_RETRIES = env.int("PAYMENTS_MAX_RETRIES", default=6)
PAYMENTS_RETRY_BASE = env.float("PAYMENTS_RETRY_BASE", default=10.0)
PAYMENTS_RETRY_CAP = env.float("PAYMENTS_RETRY_CAP", default=300.0)
# Beat: what docs/deploy.md's cron lines did, and the reminders and digests (notifications.tasks).
CELERY_BEAT_SCHEDULE = {
    # Checks expire after 12 months: ask ahead (vetting.services.checks_renewals_start).
    "vetting-check-renewals": {"task": "vetting.tasks.check_renewals", "schedule": crontab(minute=5)},
    "expire-stale-requests": {
        "task": "marketplace.tasks.run_operator_command",
        "schedule": crontab(minute=30, hour=0),
        "args": ["expire_stale_requests"],
    },
    "purge-closed-accounts": {
        "task": "marketplace.tasks.run_operator_command",
        "schedule": crontab(minute=15, hour=3),
        "args": ["purge_closed_accounts", "--days", "29"],
    },
    "clear-sessions": {
        "task": "marketplace.tasks.run_operator_command",
        "schedule": crontab(minute=0, hour=4),
        "args": ["clearsessions"],
    },
    "visit-reminders": {"task": "notifications.tasks.send_visit_reminders", "schedule": 300.0},
    # Reminder calls or texts to care recipients the evening before a visit (phoneline).
    "phone-reminder-calls": {"task": "phoneline.tasks.reminder_calls", "schedule": 300.0},
    "message-digests": {"task": "notifications.tasks.send_message_digests", "schedule": 60.0},
    "new-request-notices": {"task": "notifications.tasks.send_new_request_notices", "schedule": 300.0},
    # Offers: rounds unanswered in time widen, requests never offered are (requests_app.tasks).
    "offer-due-requests": {"task": "requests_app.tasks.offer_due_requests", "schedule": 60.0},
    "replacements-due": {"task": "bookings.tasks.replacements_due", "schedule": 60.0},
    "new-request-digests": {
        "task": "notifications.tasks.send_new_request_digests",
        "schedule": crontab(minute=0, hour=7),
    },
    "provider-application-digest": {
        "task": "notifications.tasks.send_provider_application_digest",
        "schedule": crontab(minute=0, hour=8),
    },
    "resend-stuck-deliveries": {"task": "notifications.tasks.resend_stuck_deliveries", "schedule": 300.0},
    # The visit: late and missed visits, every minute; positions over 90 days old, daily.
    "visit-alerts": {"task": "bookings.tasks.raise_visit_alerts", "schedule": 60.0},
    "purge-visit-locations": {"task": "bookings.tasks.purge_visit_locations", "schedule": crontab(minute=45, hour=3)},
    # Direct requests: those unanswered for 24 hours open to all, and the circle is told.
    "open-lapsed-direct-requests": {"task": "requests_app.tasks.open_lapsed_direct_requests", "schedule": 60.0},
    # Money (payments.tasks): refunds whose task was lost, every 5 minutes; providers' shares and
    # reversals that failed or waited, every 15 minutes.
    "sweep-refunds": {"task": "payments.tasks.sweep_refunds", "schedule": 300.0},
    # Places (core.geocoding): care recipients and helpers still "pending" (a lost task, a service
    # that was down), every 15 minutes.
    "place-pending-recipients": {"task": "circles.tasks.place_pending_recipients", "schedule": 900.0},
    "place-pending-providers": {"task": "providers.tasks.place_pending_providers", "schedule": 900.0},
    "release-waiting-earnings": {"task": "payments.tasks.release_waiting_earnings", "schedule": 900.0},
    # Late fees (payments.latefees): nobody-home fees past their time for a dispute, and fees that
    # waited for the helper's payouts, every 15 minutes.
    "release-late-fees": {"task": "payments.tasks.release_late_fees", "schedule": 900.0},
    # Saved cards' visit charges whose task was lost (payments.cards), sent again with the same key.
    "sweep-visit-charges": {"task": "payments.tasks.sweep_visit_charges", "schedule": 600.0},
    # Tips (payments.tips) paid by families whose helper had no payouts on, or whose transfer failed.
    "release-tips": {"task": "payments.tasks.release_waiting_tips", "schedule": 900.0},
}

# Tips (payments.tips, docs/payments.md "Tips"): an organizer may add one per visit for this many
# hours after the helper's check-out (her visit report); suggested percentages of the visit's
# total; the smallest and largest tip. All of it goes to the helper (no platform fee).
TIP_WINDOW_HOURS = env.int("TIP_WINDOW_HOURS", default=72)
TIP_SUGGESTED_PERCENTS = (10, 15, 20)
TIP_MIN = Decimal(env("TIP_MIN", default="1.00"))
TIP_MAX = Decimal(env("TIP_MAX", default="200.00"))
# Faster pay (payments.instant): Stripe's Instant Payout fee, taken from the payout: this percent
# of it, rounded down to the cent, and never less than the minimum. Standard payouts are free and
# reach the bank about this many business days after the transfer.
INSTANT_PAYOUT_FEE_PERCENT = Decimal(env("INSTANT_PAYOUT_FEE_PERCENT", default="1"))
INSTANT_PAYOUT_FEE_MIN = Decimal(env("INSTANT_PAYOUT_FEE_MIN", default="0.50"))
STANDARD_PAYOUT_DAYS = env.int("STANDARD_PAYOUT_DAYS", default=2)
