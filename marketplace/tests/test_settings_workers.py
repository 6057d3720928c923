"""Each pytest-xdist worker its own Redis database (marketplace/settings/workers.py)."""

from marketplace.settings.workers import MARKER, use_own_redis_database, worker_redis_url


def test_two_workers_get_two_databases_apart_and_the_first_keeps_the_given_one():
    assert worker_redis_url("redis://127.0.0.1:6379/0", "gw0", 2) == "redis://127.0.0.1:6379/0"
    assert worker_redis_url("redis://127.0.0.1:6379/0", "gw1", 2) == "redis://127.0.0.1:6379/8"
    assert worker_redis_url("redis://127.0.0.1:6379/4", "gw1", 2) == "redis://127.0.0.1:6379/12"
    assert worker_redis_url("redis://127.0.0.1:6379", "gw1", 2) == "redis://127.0.0.1:6379/8"
    databases = {worker_redis_url("redis://r:6379/3", f"gw{k}", 4) for k in range(4)}
    assert databases == {f"redis://r:6379/{n}" for n in (3, 7, 11, 15)}


def test_a_process_started_by_a_worker_does_not_move_the_database_again():
    environ = {"PYTEST_XDIST_WORKER": "gw1", "PYTEST_XDIST_WORKER_COUNT": "2", "REDIS_URL": "redis://r:6379/0"}
    use_own_redis_database(environ)
    assert environ["REDIS_URL"] == "redis://r:6379/8"
    child = dict(environ)  # what Daphne or a Celery worker started by the test inherits
    use_own_redis_database(child)
    assert child["REDIS_URL"] == "redis://r:6379/8"
    assert child[MARKER] == "gw1"


def test_without_xdist_nothing_changes():
    environ = {"REDIS_URL": "redis://r:6379/5"}
    use_own_redis_database(environ)
    assert environ == {"REDIS_URL": "redis://r:6379/5"}
