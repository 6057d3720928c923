"""The six services of spec section 1. Their slugs are the provider specialty ids (spec section 9).
Their names are marked for translation: a page says them in its reader's language
(ServiceCategory.display_name)."""

from django.utils.translation import gettext_noop

CATEGORIES = [
    {
        "slug": "tech-support",
        "name": gettext_noop("Technology Support"),
        "icon": "laptop",
        "description": "Patient help with phones, tablets, computers, email and video calls.",
        "features": [
            "Smartphone and tablet setup",
            "Video calls with family",
            "Email and online safety",
            "Printer and Wi-Fi help",
        ],
    },
    {
        "slug": "wellness-checks",
        "name": gettext_noop("Wellness Checks"),
        "icon": "heart",
        "description": "Friendly visits to check in, share a conversation and make sure all is well.",
        "features": [
            "In-person check-ins",
            "Companionship and conversation",
            "Reports to family members",
            "Medication reminders",
        ],
    },
    {
        "slug": "light-errands",
        "name": gettext_noop("Light Errands"),
        "icon": "shopping-bag",
        "description": "Groceries, prescriptions, post office runs and other everyday errands.",
        "features": ["Grocery shopping", "Prescription pick-up", "Post office and bank trips", "Returns and exchanges"],
    },
    {
        "slug": "appointment-support",
        "name": gettext_noop("Appointment Support"),
        "icon": "calendar",
        "description": "A companion for doctor visits and appointments, with notes to share afterwards.",
        "features": [
            "Accompaniment to appointments",
            "Note-taking during visits",
            "Scheduling help",
            "Transportation coordination",
        ],
    },
    {
        "slug": "home-organization",
        "name": gettext_noop("Home Organization"),
        "icon": "home",
        "description": "Tidying, decluttering and arranging the home so it is safe and easy to live in.",
        "features": [
            "Decluttering and sorting",
            "Closet and pantry organization",
            "Mail and paperwork sorting",
            "Fall-risk tidying",
        ],
    },
    {
        "slug": "communication-support",
        "name": gettext_noop("Communication Support"),
        "icon": "message-circle",
        "description": "Help staying in touch: letters, calls, forms and keeping up with family and friends.",
        "features": ["Letter and card writing", "Phone call assistance", "Form filling", "Social media with family"],
    },
]


def ensure_default_categories() -> None:
    """Create or refresh the six categories (used by tests whose tables are flushed)."""
    from requests_app.models import ServiceCategory

    for data in CATEGORIES:
        ServiceCategory.objects.update_or_create(slug=data["slug"], defaults=data)
