"""One name per page: a page's island is spelled once, from its URL to its file.

Each island file under frontend/islands/ is named in kebab-case; every template mounts islands only
through {% island "<name>" %} (no hand-written json_script ids, root ids or vite_asset tags), and
every island a template names exists as frontend/islands/<name>.tsx.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
ISLANDS = ROOT / "frontend" / "islands"
TEMPLATES = ROOT / "templates"
KEBAB = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
ISLAND_TAG = re.compile(r'\{% island "([^"]+)"')


def test_island_files_are_named_in_kebab_case():
    names = [p.stem for p in ISLANDS.glob("*.tsx")]
    assert names
    assert [n for n in names if not KEBAB.match(n)] == []


def test_templates_mount_islands_only_through_the_island_tag():
    named: set[str] = set()
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        assert "vite_asset" not in text, template
        assert "json_script" not in text, template
        assert [n for n in re.findall(r'id="([^"]+-root)"', text)] == [], template
        named.update(ISLAND_TAG.findall(text))
    files = {p.stem for p in ISLANDS.glob("*.tsx")}
    assert named - files == set(), "templates name islands that have no file"
    assert files - named == set(), "island files no template mounts"


def test_page_templates_are_named_like_their_urls():
    names = [p.stem for p in (TEMPLATES / "pages").glob("*.html")]
    assert [n for n in names if not KEBAB.match(n)] == []
