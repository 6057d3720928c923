"""Views for marketplace/tests/test_handlers.py only: what the ASGI handler must carry unchanged."""

import tempfile
import threading

from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

released = threading.Event()


def wait_for_release(request):
    """Holds its thread until another request releases it (or ?timeout= seconds pass, 5 s)."""
    timeout = float(request.GET.get("timeout", "5"))
    return HttpResponse(b"released" if released.wait(timeout=timeout) else b"timed out")


def release(request):
    released.set()
    return HttpResponse(b"ok")


def stream(request):
    return StreamingHttpResponse(f"part {i}\n".encode() for i in range(5))


def file(request):
    handle = tempfile.TemporaryFile()
    handle.write(b"x" * 200_000)
    handle.seek(0)
    return FileResponse(handle, content_type="application/octet-stream")


def client_address(request):
    return HttpResponse(request.META["REMOTE_ADDR"].encode())


@csrf_exempt
def echo(request):
    return HttpResponse(request.body[::-1], content_type="text/plain")


urlpatterns = [
    path("wait", wait_for_release),
    path("release", release),
    path("stream", stream),
    path("file", file),
    path("client", client_address),
    path("echo", echo),
]
