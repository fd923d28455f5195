"""Staff sign-in in two steps: the password (``password``), then a code from an authenticator
app or a recovery code (``views``), enforced on every other page by ``middleware``.

docs/workflow.md ("Signing in") says what staff see; ``manage.py reset_second_factor`` starts
over for someone who lost their phone and their recovery codes.
"""
