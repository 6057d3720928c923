"""The HTTP half of the ASGI application: Django's request handling, one thread hop per request.

Django's ``ASGIHandler`` builds its middleware chain in async mode. Our middleware is synchronous
(``RequestIdMiddleware``, WhiteNoise) or ``MiddlewareMixin``, which in async mode runs every
``process_request`` and ``process_response`` through its own ``sync_to_async``; the views are
synchronous DRF views. So each request crossed between the event loop and a worker thread about
a dozen times, plus two asyncio tasks to watch for a disconnect (which cannot stop a sync view
anyway), and on the dashboard's calls that machinery cost more than the views (issue 8's load
benchmark, bench/api_load.py).

``SingleHopASGIHandler`` builds the same middleware chain in sync mode and does, in one
``sync_to_async`` call, what Django's handler spreads over many: the ``request_started`` signal,
building the request, the whole chain with the view, and, for a response that is already
complete in memory, ``close()`` (``request_finished``: the database connection goes back to the
pool) before its bytes are sent. Reading the body and sending the response stay on the event
loop, through Django's own ``read_body`` and ``send_response``; streaming and file responses are
sent as Django sends them and closed afterwards, on the same thread.

Django also gives every request a fresh thread-sensitive context, so asgiref started a new thread
for each request (and, on exit, another to join it). Here each request still has a thread of its
own for all its sync work, but threads are reused: asgiref's ``ThreadSensitiveContext(executor=)``
runs a request's work on a one-thread executor the handler owns and hands to a later request.
"""

from __future__ import annotations

import asyncio
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix


class SingleHopASGIHandler(ASGIHandler):
    def __init__(self, max_threads: int | None = None) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.max_threads = max_threads or settings.HTTP_THREADS_PER_PROCESS
        self._threads = 0
        self._idle: list[ThreadPoolExecutor] = []
        self._waiters: deque[asyncio.Future[ThreadPoolExecutor]] = deque()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = await self._acquire()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._release(executor)

    async def _acquire(self) -> ThreadPoolExecutor:
        """A free request thread; a new one while fewer than max_threads exist; else the next
        one released (first come, first served)."""
        if self._idle:
            return self._idle.pop()
        if self._threads < self.max_threads:
            self._threads += 1
            return ThreadPoolExecutor(1, thread_name_prefix="django-request")
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed over just as this request was cancelled
            else:
                self._waiters.remove(waiter)
            raise

    def _release(self, executor: ThreadPoolExecutor) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(executor)
                return
        self._idle.append(executor)

    async def handle(self, scope, receive, send) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            try:
                # A client that has gone away is Daphne's to ignore; a streaming response still
                # has to be closed below.
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file) -> HttpResponseBase:
        """Everything between reading the body and sending the response, on the request's thread."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            # URLconf, the middleware chain, the view and the 4xx/5xx log line.
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            # The body is in memory: finish the request (request_finished) here, where it ran.
            response.close()
        return response


def get_http_application() -> SingleHopASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``: set Django up, return the handler."""
    import django

    django.setup(set_prefix=False)
    return SingleHopASGIHandler()
