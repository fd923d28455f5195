"""Settings for the training-infrastructure sizing service.

One env-driven module. It fails closed: DEBUG is off unless ``DJANGO_DEBUG`` says otherwise,
there is no default secret key outside debug, and HTTPS-only cookies and HSTS are on unless
debug is on. Every variable read here is listed in ``.env.example``.
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config import embedded_services, error_reports
from config.client_address import parse_networks
from config.env import env_bool, env_int, env_list, env_str
from config.secret_key import check_secret_key, debug_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("DJANGO_VAR_DIR") or BASE_DIR / "var")

# --- Core ------------------------------------------------------------------------------
# https://docs.djangoproject.com/en/5.2/howto/deployment/checklist/
DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = env_str("DJANGO_SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off. On a development machine "
            "set DJANGO_DEBUG=1, as bin/run does (this checkout then makes its own key under "
            "var/); in production set DJANGO_SECRET_KEY (see .env.example)."
        )
    # A developer's machine with debug on: a random key of this checkout's own, under var/.
    SECRET_KEY = debug_secret_key(VAR_DIR)
check_secret_key(SECRET_KEY, debug=DEBUG)
# Rotating the key: the previous keys listed here still verify what they signed (share links,
# the draft-access cookie, sessions) until it expires, while only SECRET_KEY signs anew.
# https://docs.djangoproject.com/en/5.2/ref/settings/#secret-key-fallbacks
SECRET_KEY_FALLBACKS = env_list("DJANGO_SECRET_KEY_FALLBACKS", [])
for _previous_key in SECRET_KEY_FALLBACKS:
    check_secret_key(_previous_key, debug=DEBUG)

# The development fallbacks (SQLite, a per-process cache, Celery in the request, PDFs on this
# disk) stop start-up with debug off unless DJANGO_EMBEDDED_SERVICES names them
# (config/embedded_services.py); `check --deploy` warns about each one in use.
EMBEDDED_SERVICES_IN_USE = [s.name for s in embedded_services.missing(os.environ)]
embedded_services.refuse_unless_accepted(
    [s for s in embedded_services.SERVICES if s.name in EMBEDDED_SERVICES_IN_USE],
    embedded_services.accepted(env_list(embedded_services.VARIABLE, [])),
    debug=DEBUG,
)

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# The public address every link in an email points to (resume links, the proposal link, staff
# notifications). Outside debug there is no default: a forgotten SITE_URL would send customers
# links to http://127.0.0.1:8000.
SITE_URL = (env_str("SITE_URL") or "").rstrip("/")
if not SITE_URL:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SITE_URL must be set when DJANGO_DEBUG is off: the address the links in emails "
            "point to, e.g. https://sizing.example.com (see .env.example)."
        )
    SITE_URL = "http://127.0.0.1:8000"  # the development server bin/run starts

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "formtools",
    "crispy_forms",
    "crispy_bootstrap5",
    "csp",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "config",
    "questionnaire",
    "sizing",
    "reports",
    "pipeline",
    "staff",
]

MIDDLEWARE = [
    # The liveness and readiness probes, before the host check and the HTTPS redirect: a
    # container's health check asks over plain HTTP by its own address (config/health.py).
    "config.health.ProbeMiddleware",
    # An id for each request's log lines and tasks, echoed as X-Request-ID (config/log_context.py).
    "config.log_context.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the body (CSRF reads it for the token): see config/uploads.py.
    "config.uploads.RefuseUnexpectedUploadsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Whether the session's second factor verified the user; until it has, every view but the
    # sign-in steps sees nobody (staff/sign_in/middleware.py).
    "django_otp.middleware.OTPMiddleware",
    "staff.sign_in.middleware.SecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.database_outage.DatabaseOutageMiddleware",
    # Last, so that it sees the outcome of authentication (django-axes' requirement).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database --------------------------------------------------------------------------
# DATABASE_URL selects PostgreSQL (postgres://user@host:5432/name); unset, an embedded
# SQLite file under var/ lets the service run on a fresh machine.
# https://docs.djangoproject.com/en/5.2/ref/settings/#databases
_database_url = env_str("DATABASE_URL")
if _database_url:
    DATABASES = {
        "default": dj_database_url.parse(
            _database_url,
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's, its check of a kept connection made without a round trip (config/postgresql).
        DATABASES["default"]["ENGINE"] = "config.postgresql"
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # a fresh clone has no var/ yet
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and sessions -------------------------------------------------------------------------
# Everything a web process remembers between requests must be shared by all of them, on any
# host: with CACHE_URL (Redis) the cache holds the rate-limit counters, each draft's sizing
# (sizing/sized_once.py: the review page's, reused by the pipeline) and the sessions; the
# in-process default only suits the single-process development server (docs/scaling.md).
# https://docs.djangoproject.com/en/5.2/topics/cache/#redis
_cache_url = env_str("CACHE_URL")
CACHES = {
    "default": (
        {"BACKEND": "config.redis_cache.KeptClientRedisCache", "LOCATION": _cache_url}
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Limits per client address and hour (config/ratelimit.py); beyond one, a friendly 429 with
# Retry-After that keeps the customer's answers. Finished questionnaires, new questionnaires,
# resume emails (also per questionnaire) and staff login attempts across usernames.
SUBMISSIONS_PER_HOUR = env_int("SUBMISSIONS_PER_HOUR", 20, minimum=1)
DRAFTS_PER_HOUR = env_int("DRAFTS_PER_HOUR", 30, minimum=1)
RESUME_EMAILS_PER_HOUR = env_int("RESUME_EMAILS_PER_HOUR", 10, minimum=1)
RESUME_EMAILS_PER_DRAFT_PER_HOUR = env_int("RESUME_EMAILS_PER_DRAFT_PER_HOUR", 3, minimum=1)
STAFF_LOGIN_ATTEMPTS_PER_HOUR = env_int("STAFF_LOGIN_ATTEMPTS_PER_HOUR", 30, minimum=1)

# --- Client address behind a proxy -------------------------------------------------------------
# config/client_address.py: X-Forwarded-For is believed only from these proxies (addresses or
# networks, comma-separated), and only its entry `count` places from the right.
try:
    TRUSTED_PROXIES = [str(n) for n in parse_networks(env_list("DJANGO_TRUSTED_PROXIES", []))]
except ValueError as problem:
    raise ImproperlyConfigured(f"DJANGO_TRUSTED_PROXIES: {problem}") from None
TRUSTED_PROXY_COUNT = env_int("DJANGO_TRUSTED_PROXY_COUNT", 1 if TRUSTED_PROXIES else 0)

# --- Authentication ----------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "admin:login"

# django-axes: lock a username+address pair after repeated failed staff logins. The address is
# the one the rate limits use (behind a trusted proxy, the real client's), so a locked pair
# never locks that user out for everyone; STAFF_LOGIN_ATTEMPTS_PER_HOUR caps one address's
# attempts across usernames.
# https://django-axes.readthedocs.io/en/latest/4_configuration.html
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15, minimum=1) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_ip"
# Wrong sign-in codes are recorded too (staff/sign_in/views.py): never what was typed.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "code"]

# Second factor: after the password, every staff sign-in asks for a code from an authenticator
# app (TOTP, RFC 6238) or a one-time recovery code; an account without one sets it up then
# (staff/sign_in/, docs/workflow.md). Codes typed per client address and hour, beyond which a
# 429; each device also makes its owner wait 2**(n-1) seconds after n wrong codes in a row.
# https://django-otp-official.readthedocs.io/en/stable/overview.html
STAFF_CODE_ATTEMPTS_PER_HOUR = env_int("STAFF_CODE_ATTEMPTS_PER_HOUR", 30, minimum=1)
OTP_TOTP_ISSUER = "Training infrastructure sizing"
# Device secrets and recovery codes never show in the admin's device pages.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# --- Sessions and cookies ------------------------------------------------------------------
# Server-side sessions, never in a cookie (they hold answers). With CACHE_URL they live in Redis
# only, expiring by themselves: every web process on every host finds them, and a request writes
# no session row (13 % less time per questionnaire, measured in docs/scaling.md). A lost session
# costs little: the wizard reopens the questionnaire from its saved draft and staff sign in again.
# Without CACHE_URL, in the database.
# https://docs.djangoproject.com/en/5.2/topics/http/sessions/#using-cached-sessions
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cache"
    if _cache_url
    else "django.contrib.sessions.backends.db"
)
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE_SECONDS", 60 * 60 * 24 * 14, minimum=60)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
_secure_default = not DEBUG
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", _secure_default)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Staff sessions end sooner than the customers' (set at login by staff.apps).
STAFF_SESSION_AGE_SECONDS = env_int("STAFF_SESSION_AGE_SECONDS", 60 * 60 * 8, minimum=60)

# --- HTTPS and security headers -------------------------------------------------------------
# https://docs.djangoproject.com/en/5.2/ref/middleware/#module-django.middleware.security
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", _secure_default)
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000 if _secure_default else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", _secure_default)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    # Only when a reverse proxy that strips client-sent X-Forwarded-Proto terminates TLS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (django-csp 4): no inline script anywhere, nothing from other hosts.
# https://django-csp.readthedocs.io/en/latest/configuration.html
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Request size limits: the questionnaire posts small forms; refuse anything far larger.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 256 * 1024, minimum=1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env_int("DATA_UPLOAD_MAX_NUMBER_FIELDS", 400, minimum=10)
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
# File parts escape the limits above, so multipart bodies are refused except on the pages listed
# here (path regex -> most bytes of the whole body). "Fill from a file" keeps at most 256 KB of
# the file in memory (questionnaire/prefill/uploads.py); a body up to 1 MB is read so that a
# somewhat larger file gets the page's own message, anything larger the generic refusal.
UPLOAD_LIMITS: dict[str, int] = {
    r"^/q/[0-9a-f-]{36}/fill-from-file/$": 1024 * 1024,
    # The verification kit's results (staff/measured_pages.py): a 2 KB file; a larger one up
    # to this is read far enough to say it is too large.
    r"^/proposals/hardware/[0-9a-f-]{36}/$": 256 * 1024,
}

# --- Internationalisation --------------------------------------------------------------------
LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files and private storage --------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media/"
# Proposal PDFs have no URL: they are streamed by a view that checks permissions
# (staff/downloads.py). With S3_BUCKET they live in that private bucket of an S3-compatible
# object store (django-storages over boto3), which every web host and worker shares; without
# it, in a folder outside MEDIA_ROOT: the embedded default for one host (docs/scaling.md).
# https://django-storages.readthedocs.io/en/1.14.6/backends/amazon-S3.html
PRIVATE_STORAGE_ROOT = Path(env_str("PRIVATE_STORAGE_ROOT") or VAR_DIR / "private")
S3_BUCKET = env_str("S3_BUCKET") or ""
_s3_endpoint = env_str("S3_ENDPOINT_URL") or None
if S3_BUCKET:
    _proposal_storage = {
        "BACKEND": "reports.storage.PrivateS3Storage",
        "OPTIONS": {
            "bucket_name": S3_BUCKET,
            "location": (env_str("S3_PREFIX") or "").strip("/"),
            # Unset: AWS itself. MinIO, SeaweedFS, Ceph, R2 and the like: their address.
            "endpoint_url": _s3_endpoint,
            "region_name": env_str("S3_REGION") or None,
            # Unset: boto3's own chain (instance or pod role, AWS_* variables, ~/.aws).
            "access_key": env_str("S3_ACCESS_KEY_ID") or None,
            "secret_key": env_str("S3_SECRET_ACCESS_KEY") or None,
            # Most S3-compatible servers want bucket names in the path, not in the host name.
            "addressing_style": env_str("S3_ADDRESSING_STYLE")
            or ("path" if _s3_endpoint else None),
            "signature_version": "s3v4",
            # No ACL on the objects: they inherit the bucket's, which must stay private.
            "default_acl": None,
            # The pipeline writes each version under a fixed name and checks what landed.
            "file_overwrite": True,
            "object_parameters": {"ContentType": "application/pdf", "CacheControl": "no-store"},
        },
    }
else:
    _proposal_storage = {
        "BACKEND": "reports.storage.PrivateFileSystemStorage",
        "OPTIONS": {"location": PRIVATE_STORAGE_ROOT},
    }
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "proposals": _proposal_storage,
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", False)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- Email -------------------------------------------------------------------------------
# Console backend unless SMTP (django.core.mail.backends.smtp.EmailBackend) or an email
# service's API through django-anymail (anymail.backends.<service>.EmailBackend) is configured.
# https://anymail.dev/en/stable/esps/
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or "django.core.mail.backends.console.EmailBackend"
# Every ANYMAIL_<NAME> variable becomes ANYMAIL["<NAME>"]: the service's credentials (e.g.
# ANYMAIL_POSTMARK_SERVER_TOKEN) and ANYMAIL_WEBHOOK_SECRET, the "user:password" the service's
# bounce and complaint webhooks (/email/anymail/<service>/tracking/) must send. Unset, a random
# secret nobody knows refuses every post: anyone could otherwise mark an email bounced.
ANYMAIL = {
    name.removeprefix("ANYMAIL_"): value
    for name, value in os.environ.items()
    if name.startswith("ANYMAIL_") and value
}
ANYMAIL["WEBHOOK_SECRET"] = env_str("ANYMAIL_WEBHOOK_SECRET") or f"closed:{secrets.token_hex(32)}"
EMAIL_HOST = env_str("EMAIL_HOST") or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
# A mail server that stops answering must not hold a worker (or a web request) for ever [s].
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "sizing@example.com"
SERVER_EMAIL = DEFAULT_FROM_EMAIL
ACCOUNT_MANAGER_EMAILS = env_list("ACCOUNT_MANAGER_EMAILS", [])

# --- Celery ------------------------------------------------------------------------------------
# https://docs.celeryq.dev/en/stable/userguide/configuration.html
# With no broker configured, tasks run in-process so the service works on a fresh machine.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or ""
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 120, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 180, minimum=2)
# Unacknowledged messages come back after this; keep it a few times the hard limit so a
# long task is never handed to a second worker while the first is still running it.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 4 * CELERY_TASK_TIME_LIMIT}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = "sizing"  # the queues and routes: config/celery.py
# A render child grows with each PDF (WeasyPrint's fonts and layout caches): replace it once it
# holds this many KiB, after its task ends. A process peaked at 135 MB after one demo render
# and 142 MB after four (measured here, December 2026): 400 MB leaves room for larger proposals.
# https://docs.celeryq.dev/en/stable/userguide/workers.html#max-memory-per-child-setting
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env_int("CELERY_WORKER_MAX_MEMORY_PER_CHILD_KB", 400_000)
# On a warm shutdown (a deploy, docker stop) running tasks get this long to finish before the
# worker stops them; with late acknowledgement an unfinished one goes back to the queue [s].
# https://docs.celeryq.dev/en/stable/userguide/workers.html#soft-shutdown
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = float(env_int("CELERY_WORKER_SOFT_SHUTDOWN_SECONDS", 30))
CELERY_WORKER_ENABLE_SOFT_SHUTDOWN_ON_IDLE = True
# Workers and beat log through LOGGING below (JSON, with the task id), not Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Celery beat keeps its schedule (when each job last ran) in Redis, not in a file on one host,
# and takes a lock there: a second beat started by mistake, or a standby on another host, waits
# for the lock and takes over only when the first has been gone for CELERY_BEAT_LOCK_TIMEOUT
# seconds (celery-redbeat; docs/scaling.md). Beat wakes six times per lock period to renew it.
# https://redbeat.readthedocs.io/en/latest/config.html
CELERY_BEAT_SCHEDULER = "redbeat.RedBeatScheduler"
CELERY_REDBEAT_REDIS_URL = env_str("CELERY_BEAT_REDIS_URL") or CELERY_BROKER_URL
CELERY_REDBEAT_REDIS_OPTIONS: dict[str, object] = {}  # not the broker's transport options
CELERY_REDBEAT_KEY_PREFIX = "redbeat:"
CELERY_REDBEAT_LOCK_TIMEOUT = env_int("CELERY_BEAT_LOCK_TIMEOUT", 60, minimum=6)
CELERY_BEAT_MAX_LOOP_INTERVAL = CELERY_REDBEAT_LOCK_TIMEOUT // 6

# --- Questionnaire -----------------------------------------------------------------------------
RESUME_LINK_DAYS = env_int("RESUME_LINK_DAYS", 30, minimum=1)
DRAFT_RETENTION_DAYS = env_int("DRAFT_RETENTION_DAYS", 60, minimum=1)

# --- Staff workflow ------------------------------------------------------------------------
# Won, lost and closed submissions, with their files, are deleted this long after closing
# (docs/retention.md); celery beat runs the purge daily (config/celery.py).
CLOSED_SUBMISSION_RETENTION_DAYS = env_int("CLOSED_SUBMISSION_RETENTION_DAYS", 365, minimum=1)
SHARE_LINK_DAYS = env_int("SHARE_LINK_DAYS", 7, minimum=1)

# --- Metrics (pipeline/metrics.py) ------------------------------------------------------------
# /metrics for Prometheus: queue depth per Celery queue, the outbox and the pipeline by status.
# Answered only with "Authorization: Bearer <METRICS_TOKEN>"; unset, the URL does not exist.
METRICS_TOKEN = env_str("METRICS_TOKEN") or ""
if METRICS_TOKEN and not DEBUG and len(METRICS_TOKEN) < 32:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 32 characters (a random string).")

# --- Errors reach a person (config/error_reports.py) -------------------------------------------
# With SENTRY_DSN: Sentry (web, Celery, Redis), no request bodies, no personal data. Without it:
# an email to DJANGO_ADMINS ("Name <address>, ...") for each web 500 and each task that fails
# for good.
SENTRY_DSN = env_str("SENTRY_DSN") or ""
ADMINS = error_reports.parse_admins(env_str("DJANGO_ADMINS") or "")
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.error_reports.AnswersHiddenFilter"
if SENTRY_DSN:
    error_reports.start_sentry(
        SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT") or "production",
        release=env_str("SENTRY_RELEASE") or None,
    )

# --- Logging -------------------------------------------------------------------------------
# LOG_FORMAT=json (the default outside debug): one JSON object a line with the request id and
# the Celery task id (config/log_context.py); plain: readable lines for a developer.
LOG_FORMAT = env_str("LOG_FORMAT") or ("plain" if DEBUG else "json")
if LOG_FORMAT not in ("json", "plain"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or plain, not {LOG_FORMAT!r}")
_error_handlers = [] if SENTRY_DSN else ["mail_admins"]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s %(task_id)s] %(message)s"
        },
        "json": {"()": "config.log_context.JsonFormatter"},
    },
    "filters": {
        # No share-link or resume token in a log line ("Not Found: /proposals/shared/…/").
        "without_tokens": {"()": "config.redacted_logs.TokenRedactingFilter"},
        "ids": {"()": "config.log_context.ContextFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        # WeasyPrint's warning for each font of each render when libharfbuzz-subset0 is missing
        # (reports/checks.py says so at start-up): once per process is enough.
        "fonttools_subset_once": {
            "()": "config.log_filters.OncePerProcess",
            "prefixes": ["Using fontTools instead of HarfBuzz-Subset"],
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["without_tokens", "ids"],
        },
        "mail_admins": {
            "level": "ERROR",
            "class": "config.error_reports.RedactedAdminEmailHandler",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
    "loggers": {
        # WeasyPrint logs every layout step of every PDF at INFO; keep its warnings only.
        "weasyprint.progress": {"level": "WARNING"},
        "weasyprint": {"filters": ["fonttools_subset_once"]},
        # fontTools (WeasyPrint's font subsetter without libharfbuzz-subset0, and its font
        # reading) logs each table it subsets at INFO: dozens of lines a PDF.
        "fontTools": {"level": "WARNING"},
        # Django's default emails ADMINS from "django" without redacting tokens: ours instead.
        "django": {"handlers": [], "level": "INFO"},
        # A web 500 (Django logs it here) and a task failed for good (config/celery.py).
        "django.request": {"handlers": _error_handlers},
        error_reports.TASK_FAILURES_LOGGER: {"handlers": _error_handlers},
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
