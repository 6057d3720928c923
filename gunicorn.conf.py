"""gunicorn's settings for Kindly's HTTP (read from the working directory; docs/deploy.md).

    .venv/bin/gunicorn            # serves marketplace.wsgi on 127.0.0.1:8000

gthread workers: each worker process runs up to `threads` requests at once, on threads, while
keep-alive connections wait in the worker's poller without holding a thread. Counts measured with
bench/api_load.py (docs/deploy.md); each is overridable from the environment.
"""

import os

wsgi_app = "marketplace.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
worker_class = "gthread"
# One worker per core.
workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
# Four: measured against two on the same code (docs/deploy.md), shorter p95 and more throughput
# at concurrency 10 for the same CPU per request. At most DB_POOL_MAX_SIZE (8): each running
# request holds one pooled PostgreSQL connection.
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# A listening socket per worker (SO_REUSEPORT), so the kernel spreads new connections evenly over
# the workers. With one shared socket, whichever worker woke first took them: a kept-alive
# connection stays with its worker, so under load one worker held 43 of 50 connections and the
# other 7, and requests on the crowded one waited 7x longer (docs/deploy.md, "Fair under load").
reuse_port = True
# nginx keeps idle upstream connections open (keepalive 32 in docs/deploy.md): keep ours a bit longer.
keepalive = 75
# A request that runs this long is stuck: the worker is restarted.
timeout = 30
graceful_timeout = 30
# Logs: Kindly logs each request itself (JSON, with the request id); gunicorn's own errors go to stderr.
accesslog = None
errorlog = "-"
