"""Template tags for the signed-in user's top bar and menu (templates/includes/nav.html, user-menu.html)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from accounts.models import UserType

register = template.Library()


# The top bar by role (the mobile drawer repeats it): a helper works from her schedule, calendar
# and earnings and never requests a service as a helper; clients and staff get the spec's bar.
_CLIENT_LINKS = [
    (_("Dashboard"), "/dashboard"),
    (_("Request Service"), "/request-service"),
    (_("Providers"), "/providers"),
    (_("Messages"), "/messages"),
]
_PROVIDER_LINKS = [
    (_("Dashboard"), "/dashboard"),
    (_("Schedule"), "/schedule"),
    (_("Calendar"), "/calendar"),
    (_("Earnings"), "/earnings"),
    (_("Messages"), "/messages"),
]


def nav_links_for(user) -> list[dict[str, str]]:
    """The signed-in user's top-bar links, as {"label", "href"}."""
    if user.is_admin:
        links = [*_CLIENT_LINKS, (_("Admin"), "/admin")]
    elif user.user_type == UserType.PROVIDER:
        links = _PROVIDER_LINKS
    else:
        links = _CLIENT_LINKS
    return [{"label": str(label), "href": href} for label, href in links]


@register.simple_tag(takes_context=True)
def nav_links(context) -> list[dict[str, str]]:
    user = context["request"].user
    return nav_links_for(user) if user.is_authenticated else []


@register.simple_tag(takes_context=True)
def user_menu_props(context) -> dict:
    """Props of the user-menu island: who is signed in, as the menu shows them."""
    user = context["request"].user
    if not user.is_authenticated:
        return {}
    return {
        "firstName": user.first_name,
        "email": user.email,
        "profileImageUrl": user.profile_image_url,
        "userType": user.user_type,
        "isAdmin": user.is_admin,
        "navLinks": nav_links_for(user),
    }
