"""{% island %}: one page's React island, spelled once.

    {% island "request-service" props %}<p class="muted">Loading the form…</p>{% endisland %}

emits, for the name "request-service" (the page's URL in kebab-case):
- the props as JSON: <script id="request-service-props" type="application/json">, read by
  frontend/lib/mount.tsx;
- the root element <div id="request-service-root">, holding what
  the tag encloses until the island replaces it (a loading line, or the page without JavaScript);
- the island's script frontend/islands/request-service.tsx with its CSS and preloads, through
  django-vite's public asset loader, with the page's CSP nonce.
`class="..."` adds classes to the root element (which always has the class "island").
"""

from __future__ import annotations

import re
from functools import cache

from django import template
from django.utils.html import format_html, json_script
from django.utils.safestring import mark_safe
from django_vite.core.asset_loader import DjangoViteAssetLoader

register = template.Library()

_NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def island_asset(name: str) -> str:
    """The island's source path in the Vite manifest."""
    return f"frontend/islands/{name}.tsx"


# Stands for the request's CSP nonce in the cached tags (a nonce is URL-safe base64: never this).
_NONCE_SLOT = "{{nonce}}"


@cache
def _asset_tags(name: str, with_nonce: bool) -> str:
    """django-vite's tags for the island (script, CSS, preloads), built once per process: they
    depend only on the manifest, which django-vite reads once per process too (a deploy restarts
    the processes). Building them took about a sixth of a page's CPU (a dozen preload tags, each
    through urljoin)."""
    attrs = {"nonce": _NONCE_SLOT} if with_nonce else {}
    return DjangoViteAssetLoader.instance().generate_vite_asset(island_asset(name), **attrs)


class IslandNode(template.Node):
    def __init__(self, name: str, props: template.base.FilterExpression | None, css_class: str, nodelist):
        self.name = name
        self.props = props
        self.css_class = css_class
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        props = self.props.resolve(context) if self.props is not None else {}
        request = context.get("request")
        # django-csp's nonce is lazy and false until read: str() reads it, so the header names it.
        nonce = getattr(request, "csp_nonce", None)
        asset = _asset_tags(self.name, nonce is not None)
        if nonce is not None:
            asset = asset.replace(_NONCE_SLOT, str(nonce))
        # class "island": its own block formatting context (kindly.css), so the page above it keeps
        # its place when the island replaces the fallback (no margin collapses through the root).
        root = format_html(
            '<div id="{}-root" class="{}">{}</div>',
            self.name,
            " ".join(["island", *self.css_class.split()]),
            self.nodelist.render(context),
        )
        # The asset's tags are django-vite's, built from its manifest (its own tag marks them safe too).
        return json_script(props if props is not None else {}, f"{self.name}-props") + root + mark_safe(asset)  # noqa: S308


@register.tag
def island(parser: template.base.Parser, token: template.base.Token) -> IslandNode:
    """{% island "name" [props] [class="..."] %}fallback{% endisland %}"""
    bits = token.split_contents()
    if len(bits) < 2 or not (bits[1][0] == bits[1][-1] and bits[1][0] in "\"'"):
        raise template.TemplateSyntaxError('{% island %} takes a quoted name: {% island "request-service" props %}')
    name = bits[1][1:-1]
    if not _NAME.match(name):
        raise template.TemplateSyntaxError(f"Island names are kebab-case like their URL: {name!r}")
    props = None
    css_class = ""
    for bit in bits[2:]:
        if bit.startswith("class="):
            css_class = bit[len("class=") :].strip("\"'")
        elif props is None:
            props = parser.compile_filter(bit)
        else:
            raise template.TemplateSyntaxError(f"Unexpected {bit!r} in {{% island %}}")
    nodelist = parser.parse(("endisland",))
    parser.delete_first_token()
    return IslandNode(name, props, css_class, nodelist)
