"""ASGI entry point: Daphne serves HTTP and websockets from one process type.

HTTP goes to Django through ``SingleHopASGIHandler`` (marketplace/handlers.py): the same
middleware and views as Django's own handler, with one thread hop per request instead of a dozen.
"""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marketplace.settings.local")

from marketplace.handlers import get_http_application  # noqa: E402

django_asgi_app = get_http_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from marketplace.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything loaded so far (Django, the apps, URLconf, DRF) lives as long as the process: move it
# out of the cyclic garbage collector's reach, so that the full collections that requests'
# short-lived objects trigger no longer walk the whole framework every time.
gc.collect()
gc.freeze()
