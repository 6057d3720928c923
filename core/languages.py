"""The languages Kindly speaks and the languages a helper may speak.

Kindly's pages, emails and texts come in SITE languages (settings.LANGUAGES; gettext catalogues in
locale/). A person, and a care recipient, has one of them (`language`); a helper lists the languages
she speaks (`Provider.languages`), which may be more than Kindly's own: a family looks for a helper
who speaks with their mother in Vietnamese even though Kindly's pages are in English or Spanish.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    """A language Kindly's pages, emails and texts come in. Each name is written in its own language,
    so a person who reads only that one still finds it in the list."""

    ENGLISH = "en", "English"
    SPANISH = "es", "Español"


DEFAULT_LANGUAGE = Language.ENGLISH

# A language a helper may say she speaks: the languages most spoken at home in the US after
# English (Census, American Community Survey), named in the reader's language.
SPOKEN: dict[str, object] = {
    "en": _("English"),
    "es": _("Spanish"),
    "zh": _("Chinese"),
    "tl": _("Tagalog"),
    "vi": _("Vietnamese"),
    "ar": _("Arabic"),
    "fr": _("French"),
    "ko": _("Korean"),
    "ru": _("Russian"),
    "ht": _("Haitian Creole"),
    "pt": _("Portuguese"),
    "de": _("German"),
    "hi": _("Hindi"),
    "pl": _("Polish"),
    "it": _("Italian"),
}
SPOKEN_MAX = len(SPOKEN)

# The rule's words (the forms read them from the generated rules, in English for now).
LANGUAGES_NOT_LISTED = gettext_noop("Choose the languages you speak from the list.")
LANGUAGES_TWICE = gettext_noop("List each language once.")
LANGUAGES_REQUIRED = gettext_noop("Choose at least one language you speak.")


def spoken_options() -> list[dict[str, str]]:
    """The languages a helper may speak as {id, name}, named in the reader's language, for forms."""
    return [{"id": code, "name": str(name)} for code, name in SPOKEN.items()]


def site_language(code: str | None) -> str:
    """The site language nearest to a code ("es-MX" -> "es"); English when Kindly has none."""
    base = (code or "").split("-")[0].split("_")[0].lower()
    return base if base in Language.values else DEFAULT_LANGUAGE


def spoken_problem(codes: object) -> str:
    """Why a helper's list of languages is not acceptable ("" when it is): a list of known codes, each once."""
    if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
        return gettext(LANGUAGES_NOT_LISTED)
    unknown = [code for code in codes if code not in SPOKEN]
    if unknown:
        return gettext(LANGUAGES_NOT_LISTED)
    if len(set(codes)) != len(codes):
        return gettext(LANGUAGES_TWICE)
    if not codes:
        return gettext(LANGUAGES_REQUIRED)
    return ""


def spoken_names(codes: list[str]) -> list[str]:
    """The names of the languages, in the reader's language, in the helper's order (unknown codes left out)."""
    return [str(SPOKEN[code]) for code in codes if code in SPOKEN]


def speaks_line(codes: list[str]) -> str:
    """'Speaks English, Spanish', in the reader's language; "" for none."""
    names = spoken_names(codes)
    return gettext("Speaks %(languages)s") % {"languages": ", ".join(names)} if names else ""
