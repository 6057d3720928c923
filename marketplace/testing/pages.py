"""Helpers for page tests (Django test client): the props a view hands to its island."""

from __future__ import annotations

import json

from django.http import HttpResponse


def island_props(page: HttpResponse | str, props_id: str):
    """The JSON of ``{{ props|json_script:"<props_id>" }}`` in a page (a response or its HTML)."""
    html = page if isinstance(page, str) else page.content.decode()
    marker = f'<script id="{props_id}" type="application/json">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start : html.index("</script>", start)])
