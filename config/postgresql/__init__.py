"""Django's PostgreSQL backend with a health check that makes no round trip (``base``)."""
