"""axe-core in Playwright: run the WCAG 2.x A/AA rules on the current page and report violations.

Usage in a browser test::

    from marketplace.testing.axe import assert_no_axe_violations

    page.goto(f"{live_server.url}/landing")
    assert_no_axe_violations(page)

axe-core comes from node_modules (npm dev dependency); nothing is fetched from the network.
"""

from __future__ import annotations

from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
AXE_SCRIPT = PROJECT_DIR / "node_modules" / "axe-core" / "axe.min.js"

# The rule tags the issue asks for (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

_RUN = """async (tags) => {
  const options = { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] };
  const results = await window.axe.run(document, options);
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary, html: n.html.slice(0, 200) })),
  }));
}"""


def inject_axe(page) -> None:
    """Load axe-core into the page. Evaluated through the DevTools protocol, which the page's
    Content-Security-Policy does not govern (an injected <script> would be refused, rightly)."""
    page.evaluate(AXE_SCRIPT.read_text(encoding="utf-8") + "\n;undefined")


def axe_violations(page, *, tags: list[str] | None = None) -> list[dict]:
    """Inject axe-core (once per document) and return the violations on the page as it is now."""
    if not AXE_SCRIPT.exists():
        raise RuntimeError(f"axe-core is missing: {AXE_SCRIPT} (run npm ci)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        inject_axe(page)
    return page.evaluate(_RUN, tags or WCAG_TAGS)


def format_violations(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:5]:
            lines.append(f"    at {node['target']}: {node['html']}")
            if node.get("summary"):
                lines.append("      " + node["summary"].replace("\n", "\n      "))
    return "\n".join(lines)


def assert_no_axe_violations(page, *, context: str = "") -> None:
    violations = axe_violations(page)
    where = context or page.url
    report = format_violations(violations)
    assert violations == [], f"axe-core found {len(violations)} violation(s) on {where}:\n{report}"
