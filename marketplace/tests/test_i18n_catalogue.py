"""The Spanish catalogue keeps up with the code (docs/i18n.md).

Every string marked for translation in the templates and the Python code (what `makemessages`
extracts) has a Spanish translation in locale/es/LC_MESSAGES/django.po, none of them fuzzy or
empty, each keeping the placeholders of its English; and the committed django.mo is the .po
compiled (make run needs no gettext). A new or changed string fails here until `make messages`
is run and its Spanish written against docs/glossary-es.md.
"""

from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

PO = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# The same folders the Makefile's `messages` target leaves out (built assets, the islands' own sources).
NOT_SCANNED = {".git", ".venv", "node_modules", "static", "staticfiles", "frontend", "bench", "scripts", "locale"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def parse_po(text: str) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (a list), flags. Enough of
    the format for what makemessages writes."""
    entries = []
    for block in text.split("\n\n"):
        entry: dict = {"flags": set(), "msgstr": []}
        field = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
                continue
            if line.startswith("#"):
                continue
            match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if match:
                field = match.group(1)
                value = _unquote(match.group(2))
                if field.startswith("msgstr"):
                    entry["msgstr"].append(value)
                else:
                    entry[field] = value
            elif line.startswith('"') and field:
                value = _unquote(line[1:-1])
                if field.startswith("msgstr"):
                    entry["msgstr"][-1] += value
                else:
                    entry[field] += value
        if "msgid" in entry and entry["msgid"]:
            entries.append(entry)
    return entries


def _key(entry: dict) -> tuple:
    return (entry.get("msgctxt"), entry["msgid"], entry.get("msgid_plural"))


@pytest.fixture(scope="module")
def committed() -> dict[tuple, dict]:
    return {_key(entry): entry for entry in parse_po(PO.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[tuple, dict]:
    """What makemessages finds in the code as it is now, extracted into a copy of the project (the
    working tree is not touched: makemessages writes beside the templates while it reads them)."""
    copy = tmp_path_factory.mktemp("catalogue") / "kindly"
    shutil.copytree(
        settings.BASE_DIR,
        copy,
        ignore=lambda folder, names: [
            name for name in names if name in NOT_SCANNED or name.endswith((".pyc", ".mo", ".po"))
        ],
        symlinks=True,
    )
    (copy / "locale").mkdir()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "marketplace.settings.test"}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "es", "--add-location", "never"],
        cwd=copy,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    fresh = copy / "locale" / "es" / "LC_MESSAGES" / "django.po"
    return {_key(entry): entry for entry in parse_po(fresh.read_text(encoding="utf-8"))}


def test_the_extraction_finds_the_marked_strings(extracted):
    """The extraction really reads the code: a string of a template, of the catalogue of notices
    and of a plural are among what it finds (an empty extraction would pass the test below)."""
    assert (None, "Save language", None) in extracted
    assert (None, "Speaks %(languages)s", None) in extracted
    assert (None, "A new request matches your services", "New requests match your services") in extracted
    assert len(extracted) > 300


def test_every_marked_string_has_spanish(extracted, committed):
    missing = sorted(str(key) for key in extracted if key not in committed)
    assert not missing, "Run `make messages` and translate into Spanish (docs/glossary-es.md):\n" + "\n".join(missing)


def test_no_spanish_entry_is_empty_or_fuzzy(committed):
    problems = [
        str(key)
        for key, entry in committed.items()
        if "fuzzy" in entry["flags"] or not entry["msgstr"] or not all(entry["msgstr"])
    ]
    assert not problems, "Untranslated or fuzzy entries in locale/es:\n" + "\n".join(problems)


def test_each_translation_keeps_the_placeholders_of_its_english(committed):
    problems = []
    for key, entry in committed.items():
        english = set(PLACEHOLDER.findall(entry["msgid"])) | set(PLACEHOLDER.findall(entry.get("msgid_plural") or ""))
        for spanish in entry["msgstr"]:
            # A singular may leave out the count ("una nueva solicitud"), never add or rename a name.
            if not set(PLACEHOLDER.findall(spanish)) <= english or (
                not entry.get("msgid_plural") and set(PLACEHOLDER.findall(spanish)) != english
            ):
                problems.append(f"{key}: {spanish!r}")
    assert not problems, "\n".join(problems)


def test_the_committed_mo_is_the_po_compiled(committed):
    """make run reads the .mo without gettext installed: it must say what the .po says."""
    with MO.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    for (context, msgid, plural), entry in committed.items():
        if plural:
            found = catalog.npgettext(context, msgid, plural, 1) if context else catalog.ngettext(msgid, plural, 1)
            assert found == entry["msgstr"][0], f"{msgid!r}: the .mo says {found!r}; run `make messages`"
            continue
        found = catalog.pgettext(context, msgid) if context else catalog.gettext(msgid)
        assert found == entry["msgstr"][0], f"{msgid!r}: the .mo says {found!r}; run `make messages`"


def test_the_po_parser_reads_fuzzy_and_plural_entries():
    """The reader above can fail: it sees a fuzzy flag, an empty translation and plural forms."""
    sample = (
        'msgid ""\nmsgstr ""\n"Language: es\\n"\n\n'
        '#, fuzzy, python-format\nmsgid "Hello %(name)s"\nmsgstr "Hola %(name)s"\n\n'
        'msgid "Bye"\nmsgstr ""\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "uno"\nmsgstr[1] "mu"\n"chos"\n'
    )
    entries = {entry["msgid"]: entry for entry in parse_po(sample)}
    assert "fuzzy" in entries["Hello %(name)s"]["flags"]
    assert entries["Bye"]["msgstr"] == [""]
    assert entries["one"]["msgstr"] == ["uno", "muchos"]
