"""Every word a template shows is marked for translation (docs/i18n.md).

Each template of the project (`templates/` and every Kindly app's `templates/`) is cut into tokens
by Django's own template `Lexer` (the public `django.template.base` token types). The text tokens
outside `{% translate %}`/`{% blocktranslate %}` are put back together, with every tag and variable
replaced by a neutral mark, and read by the standard library's `HTMLParser`: the words a reader sees
(the text between tags, and the attributes read aloud or shown: `aria-label`, `title`, `alt`,
`placeholder`) must then have no letters left. Markup, CSS and scripts are not words; the brand
"Kindly" stays as it is in every language.

The staff-only phone simulator (a DEBUG tool, `templates/pages/phone-simulator.html`) stays English
and is left out, as its own comment says.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.template.base import Lexer, TokenType

BASE = Path(settings.BASE_DIR)
# Staff-only tools that stay English (each says so in a comment at its top).
LEFT_OUT = {"templates/pages/phone-simulator.html"}
# Words that are the same in every language.
NOT_PROSE = re.compile(r"\bKindly\b")
LETTER = re.compile(r"[^\W\d_]")
# Attributes whose values a reader sees or hears (the others are markup: class, href, data-*...).
READ_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder", "aria-description", "aria-roledescription"}
# A tag or a variable, in the text rebuilt for the HTML parser: a private-use character, not a letter.
MARK = "\ue000"
OPENERS = {"blocktranslate", "blocktrans", "comment", "verbatim"}
CLOSERS = {"endblocktranslate", "endblocktrans", "endcomment", "endverbatim"}


def template_files() -> list[Path]:
    folders = [BASE / "templates"]
    for config in apps.get_app_configs():
        folder = Path(config.path) / "templates"
        if folder.is_dir() and BASE in folder.parents and ".venv" not in folder.parts:
            folders.append(folder)
    files = {path for folder in folders for path in folder.rglob("*") if path.suffix in {".html", ".txt"}}
    return sorted(files)


class _Words(HTMLParser):
    """The words of an HTML text: the data outside <style>/<script>, and the read attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._skipping: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag in {"style", "script"}:
            self._skipping = tag
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.words.append(value)

    def handle_startendtag(self, tag, attrs):
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.words.append(value)

    def handle_endtag(self, tag):
        if tag == self._skipping:
            self._skipping = None

    def handle_data(self, data):
        if not self._skipping:
            self.words.append(data)


def unmarked_words(source: str) -> list[str]:
    """The pieces of text a reader would see in this template that no translation tag holds."""
    kept: list[str] = []
    depth = 0
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.split_contents()[0] if token.contents.strip() else ""
            if name in OPENERS:
                depth += 1
            elif name in CLOSERS:
                depth -= 1
            kept.append(MARK)
        elif token.token_type == TokenType.TEXT and depth == 0:
            kept.append(token.contents)
        else:  # a variable, a {# comment #}, or text inside a translation block or a comment
            kept.append(MARK)
    parser = _Words()
    parser.feed("".join(kept))
    parser.close()
    found = []
    for words in parser.words:
        rest = NOT_PROSE.sub("", words.replace(MARK, " "))
        if LETTER.search(rest):
            found.append(" ".join(words.replace(MARK, "…").split()))
    return found


def test_the_walk_finds_the_templates():
    """The walk reads the project's templates, the apps' ones included (an empty walk would pass)."""
    names = {str(path.relative_to(BASE)) for path in template_files()}
    assert "templates/base.html" in names
    assert "templates/pages/privacy-policy.html" in names
    assert "templates/print/receipt.html" in names
    assert "notifications/templates/notifications/email/message.html" in names
    assert not any(".venv" in name for name in names)


@pytest.mark.parametrize("path", template_files(), ids=lambda path: str(path.relative_to(BASE)))
def test_every_template_word_is_marked_for_translation(path):
    name = str(path.relative_to(BASE))
    if name in LEFT_OUT:
        assert "stays English" in path.read_text(encoding="utf-8"), f"{name} must say why it is left out"
        return
    found = unmarked_words(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{name} shows words not marked for translation; wrap them in {{% translate %}} or "
        f"{{% blocktranslate trimmed %}}, then `make messages` and write the Spanish:\n" + "\n".join(found)
    )


def test_the_check_fails_on_an_unmarked_word(tmp_path):
    """The check can fail: an English word in a template, in text or in a read attribute, is found;
    the same words marked, markup, styles, comments and the brand are not."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '{% load i18n %}<section class="card" data-testid="x">\n'
        "  <h1>{% translate 'Welcome' %}</h1>\n"
        "  <p>Hello {{ name }}, your visit is booked.</p>\n"
        '  <nav aria-label="Calendar"></nav>\n'
        "</section>\n",
        encoding="utf-8",
    )
    assert unmarked_words(bad.read_text(encoding="utf-8")) == ["Hello …, your visit is booked.", "Calendar"]

    good = (
        '{% load i18n %}<!DOCTYPE html><html lang="{{ LANGUAGE_CODE }}"><head>'
        "<style>body { font-family: Arial, sans-serif; }</style></head>\n"
        '<body class="{% if x %}button-primary{% else %}button-secondary{% endif %}">\n'
        "{# A note for developers. #}{% comment %}Another note.{% endcomment %}\n"
        '<nav aria-label="{% translate "Main" %}"><a class="brand" href="/">Kindly</a> &middot; &rarr;</nav>\n'
        "<p>{% blocktranslate with name=user.first_name trimmed %}Hello {{ name }}, your visit is booked."
        "{% endblocktranslate %}</p>\n"
        "<p>${{ amount }} ({{ count }})</p></body></html>\n"
    )
    assert unmarked_words(good) == []
