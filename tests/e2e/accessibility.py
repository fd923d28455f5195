"""axe-core accessibility scans inside the page (axe-core comes from the npm registry)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import require

AXE_SCRIPT = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0/2.1/2.2 A and AA rules, the level the questionnaire promises.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING_IMPACTS = {"serious", "critical"}


def serious_violations(page, impacts: frozenset[str] | set[str] = BLOCKING_IMPACTS) -> list[str]:
    """Run axe on the page as it is now; return one line per serious or critical violation
    (or of the ``impacts`` given: issue 13's pages also allow no moderate one).

    The browser context must be created with ``bypass_csp=True``: our Content-Security-Policy
    rightly refuses the injected axe script otherwise.
    """
    require("axe-core (npm ci)", AXE_SCRIPT.exists())
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE_SCRIPT))
    result = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})",
        WCAG_TAGS,
    )
    return [
        f"{page.url}: {violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] for node in violation["nodes"][:3])
        for violation in result["violations"]
        if violation["impact"] in impacts
    ]
