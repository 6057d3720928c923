"""Kindly's own locale formats (settings.FORMAT_MODULE_PATH), where they differ from Django's."""
