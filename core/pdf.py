"""Printable documents (receipts, statements, the visit record) as PDF: a Django template rendered to
HTML, then laid out by WeasyPrint. Nothing is fetched while printing (no network, no files): the
style sheet is inline in templates/print/base.html, and a document carries no images or links to
load, so a name a family typed can never make the server fetch anything."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

PDF_CONTENT_TYPE = "application/pdf"


class _NoFetching(Exception):
    pass


def _refuse(url: str, *args: Any, **kwargs: Any) -> dict:
    raise _NoFetching(f"printing fetches nothing ({url[:40]})")


def render_html(template: str, context: dict[str, Any]) -> str:
    """The HTML a PDF is printed from (tests read it when they need the markup)."""
    return render_to_string(template, context)


def render_pdf(template: str, context: dict[str, Any]) -> bytes:
    """The template printed as a PDF document (US Letter, see templates/print/base.html)."""
    from weasyprint import HTML  # imported on use: it loads pango, which only printing needs

    return HTML(string=render_html(template, context), base_url=None, url_fetcher=_refuse).write_pdf()
