"""Test helpers shared by every app (pytest plugins)."""
