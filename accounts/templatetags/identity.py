"""Template tags for the signed-in user's menu (templates/includes/user-menu.html)."""

from __future__ import annotations

from django import template

register = template.Library()


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
    }
