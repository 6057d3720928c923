"""The production ASGI application plus static files from the finders (what runserver does),
for Daphne subprocesses that a browser talks to in tests and the benchmark."""

from channels.routing import ProtocolTypeRouter
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from marketplace.asgi import application as production_application
from marketplace.asgi import django_asgi_app

application = ProtocolTypeRouter(
    {
        "http": ASGIStaticFilesHandler(django_asgi_app),
        "websocket": production_application.application_mapping["websocket"],
    }
)
