# Gunicorn reads this file from its working directory (the repository root; /app in the image),
# so every way of starting it here (Dockerfile, docker-compose.yml, the README's by-hand
# commands, the tests) gets these settings. Command-line options still win.
# https://docs.gunicorn.org/en/stable/settings.html#config-file

# The access log writes "[token]" in place of share-link and resume tokens
# (config/redacted_logs.py).
logger_class = "config.redacted_logs.TokenRedactingLogger"

# Gunicorn's usual access line, then the request's id (the X-Request-ID response header that
# config/log_context.py sets), to find the same request in the application's JSON logs.
access_log_format = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %({x-request-id}o)s'
)
