"""Liquid cooling is said with the rule that chose it (sizing/words/cooling.py): customer 7's
proposal planned "direct liquid cooling" for racks of 39 kW while its appendix said air removes
up to 40 kW a rack; their servers' own draw (13 kW each) chose it."""

from __future__ import annotations

from reports.bill import bill_of_materials
from reports.demo import demo_data
from sizing.engine.assumptions import value
from sizing.engine.numbers import format_quantity
from sizing.stored_result import read_result
from sizing.words.cooling import cooling_words
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of


def _result(story: str):
    return read_result(demo_data(answers=answers_of(STORIES[story]), today=TODAY).result)


def test_liquid_cooling_under_the_racks_air_limit_names_the_servers_draw_that_chose_it():
    result = _result("7 research centre power limit")
    deployment = result.section("deployment")
    air_max = value("rack_power_air_max_kw")
    assert deployment["cooling"] == "direct liquid cooling"
    assert deployment["rack_power_kw"] <= air_max  # the rack alone would be air-cooled
    server_kw = deployment["facility_power_kw"] / deployment["servers"]
    assert server_kw >= value("liquid_cooling_server_kw")
    words = cooling_words(result)
    assert words == (
        f"direct liquid cooling: each server draws {format_quantity(server_kw, 'kW')}, and we "
        f"plan liquid for servers of {format_quantity(value('liquid_cooling_server_kw'), 'kW')} "
        "or more"
    )
    assert bill_of_materials(result)["racks"].endswith(words)


def test_air_cooling_is_said_as_the_engine_plans_it():
    result = _result("1 insurance classifier")
    assert cooling_words(result) == result.section("deployment")["cooling"]
    assert cooling_words(result).startswith("air cooling")
