"""{% island %}: a page's island spelled once."""

from __future__ import annotations

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import RequestFactory
from django_vite.core.asset_loader import DjangoViteAssetLoader


def render(source: str, **context) -> str:
    return Template("{% load islands %}" + source).render(Context(context))


def test_emits_props_root_with_fallback_and_the_islands_script():
    request = RequestFactory().get("/provider-signup")
    request.csp_nonce = "n0nce"
    html = render(
        '{% island "provider-signup" props class="wide" %}<p>Loading…</p>{% endisland %}',
        props={"name": "</script><b>"},
        request=request,
    )
    assert '<script id="provider-signup-props" type="application/json">' in html
    # The JSON cannot close its script element early.
    assert "</script><b>" not in html
    assert "\\u003C/script\\u003E" in html
    assert '<div id="provider-signup-root" class="island wide"><p>Loading…</p></div>' in html
    assert 'src="/static/dist/assets/provider-signup-' in html
    assert 'nonce="n0nce"' in html


def test_each_page_gets_django_vites_tags_with_its_own_nonce():
    """The tags are built once per process with a stand-in for the nonce: every page still gets
    exactly what django-vite writes for its nonce, and no other page's nonce."""
    loader = DjangoViteAssetLoader.instance()
    for nonce in ("first+/Nonce=", "second", "first+/Nonce="):
        request = RequestFactory().get("/dashboard")
        request.csp_nonce = nonce
        html = render('{% island "dashboard" %}{% endisland %}', request=request)
        expected = loader.generate_vite_asset("frontend/islands/dashboard.tsx", nonce=nonce)
        assert html.endswith(expected)
        assert html.count("nonce=") == expected.count(f'nonce="{nonce}"') > 1
    without = render('{% island "dashboard" %}{% endisland %}', request=RequestFactory().get("/"))
    assert without.endswith(loader.generate_vite_asset("frontend/islands/dashboard.tsx"))
    assert "nonce" not in without


def test_props_may_be_left_out():
    html = render('{% island "landing" %}{% endisland %}', request=RequestFactory().get("/"))
    assert '<script id="landing-props" type="application/json">{}</script>' in html
    assert '<div id="landing-root" class="island"></div>' in html


@pytest.mark.parametrize(
    "source",
    [
        "{% island landing %}{% endisland %}",
        '{% island "provider_signup" %}{% endisland %}',
        '{% island "ProviderSignup" %}{% endisland %}',
        '{% island "landing" a b %}{% endisland %}',
        '{% island "landing" %}',
    ],
)
def test_a_name_that_is_not_a_quoted_kebab_case_url_is_refused(source):
    with pytest.raises(TemplateSyntaxError):
        render(source)
