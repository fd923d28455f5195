"""Forms of the questionnaire, one module per group of questions (see questions.py)."""
