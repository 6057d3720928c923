"""The forms' limits and words are generated from the server's (manage.py export_rules): the
committed frontend/lib/rules.generated.ts is a fresh generation, and it carries the very values
the services and serializers answer with."""

from __future__ import annotations

import io
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

import circles.services as circle_services
import messaging.services as messaging_services
import requests_app.services as request_services
from marketplace.management.commands.export_rules import render, rules

GENERATED = Path(settings.BASE_DIR) / "frontend" / "lib" / "rules.generated.ts"


def test_the_committed_module_is_a_fresh_generation():
    out = io.StringIO()
    call_command("export_rules", stdout=out)
    assert out.getvalue() == render()
    assert GENERATED.read_text() == render(), "Run 'make api-types' and commit frontend/lib/rules.generated.ts."


def test_the_module_holds_the_services_own_words_and_numbers():
    exported = rules()
    assert exported["serviceRequest"]["TITLE_REQUIRED"] == request_services.TITLE_REQUIRED
    assert exported["serviceRequest"]["BUDGET_MAX"] == request_services.BUDGET_MAX
    assert exported["decline"]["DECLINE_REASON_TOO_LONG"] == request_services.DECLINE_REASON_TOO_LONG
    assert exported["circle"]["LIMITS"]["notesForHelpers"] == circle_services.LIMITS["notes_for_helpers"]
    assert exported["message"]["MAX_CONTENT_LENGTH"] == messaging_services.MAX_CONTENT_LENGTH


def test_a_template_the_form_fills_reads_as_the_api_answers():
    """The blanks the forms fill give the API's own text: a too long message, a too long title."""
    template = rules()["message"]["CONTENT_TOO_LONG_TEMPLATE"]
    assert messaging_services.CONTENT_TOO_LONG == template.format(max=f"{messaging_services.MAX_CONTENT_LENGTH:,}")
    plain = rules()["plain"]["MAX_LENGTH"]
    assert request_services.TITLE_TOO_LONG == plain.format(label="Title", max_length="200")


def test_the_messages_follow_the_page_language_and_the_values_do_not():
    """Each other language carries the messages Django's catalogue words differently; values the
    server compares (roles, the typed CLOSE, patterns) stay as they are in every language."""
    from django.utils import translation

    from core.languages import LANGUAGES_REQUIRED
    from marketplace.management.commands.export_rules import words_by_language

    english, others = words_by_language()
    assert english["provider"]["LANGUAGES_REQUIRED"] == LANGUAGES_REQUIRED
    with translation.override("es"):
        spanish = translation.gettext(LANGUAGES_REQUIRED)
    assert spanish != LANGUAGES_REQUIRED
    assert others["es"]["provider.LANGUAGES_REQUIRED"] == spanish
    assert not [key for key in others["es"] if key.startswith(("circle.ROLES", "browse.SORT_VALUES"))]
    assert "account.CONFIRM_WORD" not in others["es"]
    assert render().count("const WORDS") == 1
