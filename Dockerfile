FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# WeasyPrint needs Pango; fonts for the PDF proposal.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml ./
COPY . .
RUN pip install .

# Rendering untrusted text must not run as root (WeasyPrint's security advice).
RUN useradd --create-home --uid 1000 app && mkdir -p /app/var && chown -R app /app/var
USER app

RUN DJANGO_SECRET_KEY=collectstatic-only STATIC_MANIFEST=1 python manage.py collectstatic --noinput

EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
