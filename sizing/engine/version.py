"""Engine version."""

ENGINE_VERSION = "2026.12.18"
"""Bump when results change, so old proposals can be explained."""
