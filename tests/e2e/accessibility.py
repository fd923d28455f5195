"""axe-core accessibility scans inside the page (axe-core comes from the npm registry)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import require

AXE_SCRIPT = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0/2.1/2.2 A and AA rules, the level the questionnaire promises.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
# axe's own best practices too (landmarks, one main heading, ...): the customer's pages pass them.
CUSTOMER_TAGS = (*WCAG_TAGS, "best-practice")
# Issue 13: moderate issues block as well as serious and critical ones; "minor" ones do not.
BLOCKING_IMPACTS = {"moderate", "serious", "critical"}


def serious_violations(page, tags: tuple[str, ...] = WCAG_TAGS) -> list[str]:
    """Run axe on the page as it is now; return one line per violation of moderate impact or
    worse (``BLOCKING_IMPACTS``) of the rules with ``tags``.

    The browser context must be created with ``bypass_csp=True``: our Content-Security-Policy
    rightly refuses the injected axe script otherwise.
    """
    require("axe-core (npm ci)", AXE_SCRIPT.exists())
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_SCRIPT))
    result = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})",
        list(tags),
    )
    return [
        f"{page.url}: {violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in result["violations"]
        if violation["impact"] in BLOCKING_IMPACTS
    ]


def violations_in_html(browser, html: str, tags: tuple[str, ...] = WCAG_TAGS) -> list[str]:
    """:func:`serious_violations` of a page made of ``html`` alone (tests of the scan itself)."""
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.set_content(html)
        return serious_violations(page, tags)
    finally:
        context.close()
