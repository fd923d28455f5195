"""The project's Redis cache keeps one client per server instead of building one per call
(issue 29), and still behaves as Django's Redis cache."""

import threading
import uuid

from config.redis_cache import KeptClientRedisCache


def test_every_call_uses_the_one_client_and_the_cache_still_works(redis_url):
    cache = KeptClientRedisCache(redis_url, {"KEY_PREFIX": f"kept-{uuid.uuid4().hex}"})
    client = cache._cache.get_client()
    assert cache._cache.get_client(write=True) is client
    assert cache._cache.get_client("any key") is client

    assert cache.add("counter", 1, 60) is True
    assert cache.add("counter", 5, 60) is False
    assert cache.incr("counter") == 2
    cache.set_many({"a": {"answers": [1, 2]}, "b": "two"}, 60)
    assert cache.get_many(["a", "b", "missing"]) == {"a": {"answers": [1, 2]}, "b": "two"}
    assert cache.delete("a") is True and cache.get("a", "gone") == "gone"

    seen = []  # one client shared by threads (a threaded worker): each command takes its own
    threads = [
        threading.Thread(target=lambda n=n: seen.append(cache.incr("counter", n)))
        for n in range(1, 9)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.get("counter") == 2 + sum(range(1, 9)) and len(seen) == 8
    cache.delete_many(["counter", "b"])
