import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Sign-in is rate limited per client IP and every test client is 127.0.0.1: start each
    test with fresh counters (the cache holds nothing else the tests rely on)."""
    cache.clear()
    yield
