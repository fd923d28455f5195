FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# WeasyPrint needs Pango, and HarfBuzz's subsetter to embed fonts fast (without it fontTools does,
# about half a second more per proposal: reports/checks.py); fonts for the PDF proposal.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 \
        libharfbuzz-subset0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Only the locked packages, each checked against its hash (requirements/base.lock, bin/lock).
COPY requirements/base.lock requirements/base.lock
RUN pip install --require-hashes --no-deps -r requirements/base.lock
COPY . .

# Rendering untrusted text must not run as root (WeasyPrint's security advice).
RUN useradd --create-home --uid 1000 app && mkdir -p /app/var && chown -R app /app/var
USER app

# collectstatic signs nothing and reaches no service, but settings refuse a weak key and the
# development fallbacks: a random key that is thrown away, and the fallbacks named as meant.
RUN DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    SITE_URL=https://build.invalid \
    DJANGO_EMBEDDED_SERVICES=all STATIC_MANIFEST=1 python manage.py collectstatic --noinput

EXPOSE 8000
# Liveness: the process answers, touching no service (config/health.py); /readyz is for the
# load balancer.
HEALTHCHECK --interval=10s --timeout=5s --retries=5 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/livez')"]
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
