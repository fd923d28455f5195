"""What the short path's "we chose it for you" says of the set-up, from one sizing."""

from __future__ import annotations

from typing import Any

from sizing.adapters import Decision, setup_decisions

_INFINIBAND = {
    "key": "network.inter_node",
    "value": "infiniband",
    "unit": "",
    "provided_by": "assumed",
    "source": "our usual assumption",
}
_SOURCES = {"network.inter_node": "not_sure"}
_QUESTION_OF = {"network.inter_node": "network"}


def _result(fabric: str) -> dict[str, Any]:
    return {"assumptions": [_INFINIBAND], "network": {"fabric": fabric}}


def test_a_run_in_one_server_names_no_network_technology() -> None:
    # reader finding B7: "Network between servers: InfiniBand — the usual choice" beside
    # "No network between servers is needed" for 2 accelerators in one server
    decided = setup_decisions(_result("none: one server"), _SOURCES, _QUESTION_OF, ("network",))
    assert decided["network"] == [
        Decision("", "No network between servers is needed: each run fits in one server.")
    ]


def test_a_run_across_servers_names_the_technology_chosen() -> None:
    decided = setup_decisions(
        _result("two-tier leaf-spine fat tree"), _SOURCES, _QUESTION_OF, ("network",)
    )
    (choice,) = decided["network"]
    assert choice.what.startswith("Network between servers")
    assert choice.why.startswith("the usual choice")
