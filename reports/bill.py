"""The bill of materials: what the recommended option buys (servers, accelerators, network
cards, switches and cables, storage, installation) or, for a cloud option, what it rents.

Quantities and prices come from the engine's ``cost.bill_of_materials``; what each server holds
comes from the sized cluster (network, hosts) and the accelerator catalog. No make or model of
server is sourced, so the proposal says who confirms it instead of naming one.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sizing.public import (
    ACCELERATORS,
    HardwareBought,
    Money,
    StoredResult,
    UsedAssumption,
    cooling_words,
    count_of,
    format_count,
    format_number,
    format_percent,
    format_quantity,
    format_table_money,
    money_of,
    read_counts,
    rented_text,
    round_to_add_up,
    table_money_step,
    validity_sentence,
)

TO_CONFIRM = "to be confirmed in our quotation"

_HALVES = {"H1": "the first half of", "H2": "the second half of"}


def when_published(as_of: str) -> str:
    """A source's date in words: "April 2024", "28 February 2025", "the second half of 2024",
    "2024"; as given when it is none of these."""
    year, _, rest = as_of.partition("-")
    if rest in _HALVES:
        return f"{_HALVES[rest]} {year}"
    try:
        if len(as_of) == len("2024-04"):
            return f"{date.fromisoformat(as_of + '-01'):%B %Y}"
        day = date.fromisoformat(as_of)
        return f"{day.day} {day:%B %Y}"
    except ValueError:
        return as_of


def _assumed(result: StoredResult, key: str) -> UsedAssumption | None:
    return next((a for a in result.assumptions if a.key == key), None)


def purchase_terms(result: StoredResult, issued_on: date | None = None) -> dict[str, str]:
    """Lead times and how long the prices hold, in the words the bill and the summary share:
    ``lead`` (the last published lead times of GPU servers, with their date, when the plan buys
    hardware) and ``validity``: until when the prices hold (the proposal's date ``issued_on``
    plus the one setting, :func:`sizing.words.cost.validity_words`) and the date of the price
    the plan rests on."""
    best = result.recommended_cost
    owned = bool(best and best.capex_usd)
    terms = {"lead": "", "validity": ""}
    low = _assumed(result, "gpu_server_lead_weeks_low")
    high = _assumed(result, "gpu_server_lead_weeks_high")
    if owned and low and high:
        terms["lead"] = (
            f"Lead times: GPU servers took {low.value:g} to {high.value:g} weeks from order to "
            f"delivery in the last published figures ({when_published(low.as_of)}, Appendix B); "
            "our quotation confirms them, and the network's and storage's, before you order."
        )
    wanted = ("purchase",) if owned else ("gpu_cloud", "large_cloud")
    price = next((p for key in wanted for p in result.price_sources if p.get("price") == key), None)
    if price and price.get("as_of"):
        item = str(price.get("item") or "price")
        if item[1:2].islower():  # "Purchase price …" but "GPU cloud price …"
            item = item[:1].lower() + item[1:]
        terms["validity"] = (
            f"Prices: we used {_firmness(str(price.get('flag') or ''))} of "
            f"{when_published(str(price['as_of']))} for the {item} (“What we assumed”); such "
            "prices move month to month, and our quotation replaces them with firm ones."
        )
    if issued_on is not None:
        hold = validity_sentence(issued_on)
        terms["validity"] = f"{hold} {terms['validity']}".strip()
    return terms


def _firmness(flag: str) -> str:
    """A price's flag as a noun phrase: "a public quote", "an estimate", "the figure you gave"."""
    if flag == "your figure":
        return "the figure you gave us"
    noun = flag.split(" —")[0].strip() or "published price"
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def server_spec(result: StoredResult, gpus: int | None = None) -> str:
    """What one server holds: "8 × NVIDIA H100 SXM5 80GB on NVLink 4 + NVSwitch, 64 CPU cores,
    1,280 GB RAM, 30.7 TB local NVMe"; ``gpus`` when it holds fewer than a full server's."""
    hosts = result.section("hosts")
    spec = ACCELERATORS.get(result.accelerator)
    parts = [f"{format_count(gpus or result.gpus_per_node or 0)} × {result.accelerator_name}"]
    if spec is not None:
        parts[0] += f" on {spec.scale_up_name}"
    if gpus and gpus < (result.gpus_per_node or 0):
        # the host figures are a full server's; part of one has its share of them
        return f"{parts[0]}, with its share of a server's CPU cores, memory and local disk"
    if hosts.get("cpu_cores_per_node"):
        parts.append(f"{format_number(hosts['cpu_cores_per_node'])} CPU cores")
    if hosts.get("ram_gb_per_node"):
        parts.append(f"{format_quantity(hosts['ram_gb_per_node'], 'GB')} RAM")
    if hosts.get("local_nvme_tb_per_node"):
        parts.append(f"{format_quantity(hosts['local_nvme_tb_per_node'], 'TB')} local NVMe")
    return ", ".join(parts)


def _nic_text(result: StoredResult) -> str:
    network = result.section("network")
    if not network.get("nic_gbps"):
        return ""
    return f"{format_number(network['nic_gbps'])} Gb/s {network.get('technology')}"


def _fabric_text(result: StoredResult) -> str:
    """The switches' line: the technology and the layout of the fabric bought (the engine's
    ``cost.hardware_bought``); when the servers bought over the plan need another layer of
    switches than one run's servers, it says for how many."""
    network = result.section("network")
    bought = result.hardware_bought
    if not network.get("nic_gbps") or bought is None:
        return "data-centre network for the servers and storage"
    text = f"{network.get('technology')}, {bought.fabric}"
    if _outgrown_fabric(result) is not None:
        text += f", for all {format_count(bought.servers)} servers bought"
    return text


def _outgrown_fabric(result: StoredResult) -> HardwareBought | None:
    """What the recommended option buys, when its servers outgrow one run's layer of switches
    (None otherwise, and when the recommended option buys nothing)."""
    network = result.section("network")
    bought = result.hardware_bought
    best = result.recommended_cost
    if not (bought and best and bought.option == best.key and network.get("nic_gbps")):
        return None
    if bought.fabric_tiers == int(network.get("switch_tiers") or bought.fabric_tiers):
        return None
    return bought


def fabric_bought(result: StoredResult) -> str:
    """The fabric in the headline, as the bill buys it: one run's fabric, or the larger one
    bought for every server with one run's alongside, so the summary and the bill agree."""
    fabric = str(result.section("network").get("fabric") or "")
    outgrown = _outgrown_fabric(result)
    if outgrown is None:
        return fabric
    servers = format_count(outgrown.servers)
    return f"{outgrown.fabric}, for all {servers} servers bought (one run alone: {fabric})"


def fabric_growth(result: StoredResult) -> str:
    """When the servers the plan buys outgrow one run's layer of switches, a sentence for the
    network section saying what the bill buys instead ("" otherwise)."""
    network = result.section("network")
    outgrown = _outgrown_fabric(result)
    if outgrown is None:
        return ""
    run = format_count(result.nodes_per_job or 1)
    return (
        f"One run's {run} servers need {_TIERS_WORDS.get(int(network.get('switch_tiers') or 1))}"
        f"; the {format_count(outgrown.servers)} servers bought over the plan need more, so the "
        f"bill of materials buys a {outgrown.fabric}, for all of them."
    )


_TIERS_WORDS = {1: "one layer of switches", 2: "two layers of switches"}


def _uplink_text(result: StoredResult) -> str:
    bought = result.hardware_bought
    if bought is None or bought.oversubscription <= 1.0:
        return "leaf to spine: one uplink per network card (non-blocking)"
    return f"leaf to spine: one uplink per {bought.oversubscription:g} network cards"


def _line(
    money: Money,
    item: str,
    what: str,
    quantity: str,
    each: Any,
    total: Any,
    *,
    network: bool = False,
) -> dict[str, Any]:
    """One line of the bill; ``total`` in dollars is rounded later, with the others, so that
    the lines add up to the bill's total as printed (:func:`_add_up`)."""
    return {
        "item": item,
        "what": what,
        "quantity": quantity,
        "each": money(each) if isinstance(each, int | float) else str(each or ""),
        "total": total if isinstance(total, int | float) else str(total or ""),
        "priced": isinstance(total, int | float),
        # network cards, switches and cables: what "no network is needed" must never sit beside
        "network": network,
    }


def _add_up(lines: list[dict[str, Any]], total_usd: float, money: Money) -> None:
    """The priced lines' totals printed to the unit of the customer's currency, rounded so
    that they add up to ``total_usd`` printed the same way (largest remainder): $696,781,
    never lines of $696,782."""
    priced = [line for line in lines if line["priced"]]
    total = money.local(total_usd)
    step = table_money_step(total)
    shown = round_to_add_up(
        [money.local(float(line["total"])) for line in priced], step, total=total
    )
    for line, amount in zip(priced, shown, strict=True):
        line["total"] = format_table_money(amount, step, currency=money.currency)


def _owned_estate(result: StoredResult) -> str:
    """What runs the plan when it runs on accelerators the customer owns ("" otherwise)."""
    estate = result.estate
    if not (result.on_owned_estate and estate):
        return ""
    return (
        f"It runs on the {format_count(estate.owned_count)} × {estate.owned_name} you already own."
    )


def bill_of_materials(result: StoredResult) -> dict[str, Any]:
    """The bill for the recommended option: ``lines`` to buy (empty for a cloud option),
    ``rented`` for a cloud option, and notes on what is still to confirm."""
    best = result.recommended_cost
    money = money_of(result)
    gpn = result.gpus_per_node or 1
    items = {str(line.get("item")): line for line in result.bill_of_materials}
    bought = best is not None and result.bill_of_materials_option == best.key and items
    network = result.section("network")
    deployment = result.section("deployment")
    lines: list[dict[str, Any]] = []
    if bought:
        if "servers" in items:  # shared storage alone buys no servers
            servers = items.get("servers") or {}
            hardware = result.hardware_bought
            gpus = hardware.gpus if hardware else 0
            # a plan smaller than one server buys one server of its size, priced as such (the
            # engine buys 1, 2, 4 or 8 within a node), never a full server's description
            count = hardware.servers if hardware else 1
            held = gpus if gpus < gpn else None
            each = float(servers.get("unit_usd") or 0) * (held or gpn)
            lines.append(
                _line(
                    money,
                    "Servers",
                    f"{server_spec(result, held)}; make and model {TO_CONFIRM}",
                    f"{format_count(count)}",
                    each,
                    servers.get("total_usd"),
                )
            )
            lines.append(
                _line(
                    money,
                    "Accelerators",
                    f"{result.accelerator_name}, in the servers above",
                    format_count(gpus),
                    "included",
                    "included",
                )
            )
            nic = _nic_text(result)
            if nic:
                nics = count * int(network.get("nics_per_node") or 0)
                on_chip = bool(network.get("ports_on_accelerator"))
                lines.append(
                    _line(
                        money,
                        "Network ports" if on_chip else "Network cards",
                        f"{nic}, {'on the accelerators' if on_chip else 'in the servers'} above",
                        format_count(nics),
                        "included",
                        "included",
                        network=True,
                    )
                )
        for key, item, what in (
            ("switches", "Network switches", _fabric_text(result)),
            ("links", "Cables and transceivers", "one link per network card to its switch"),
            ("switch_links", "Switch-to-switch links", _uplink_text(result)),
        ):
            if key in items:
                part = items[key]
                quantity = format_count(int(part.get("quantity") or 0))
                lines.append(
                    _line(
                        money,
                        item,
                        what,
                        quantity,
                        part.get("unit_usd"),
                        part.get("total_usd"),
                        network=True,
                    )
                )
        if "storage" in items:
            disk = items["storage"]
            lines.append(
                _line(
                    money,
                    "Shared storage",
                    "parallel file system, usable capacity",
                    # the bill's own quantity: beside storage they own, only the shortfall
                    format_quantity(disk.get("quantity"), "TB"),
                    f"{money(disk.get('unit_usd'))} per TB",
                    disk.get("total_usd"),
                )
            )
        if "installation" in items:
            install = items["installation"]
            # a share says of what: "3 % of $676,486 of hardware", not "3%"
            hardware = sum(
                float(line.get("total_usd") or 0)
                for key, line in items.items()
                if key != "installation"
            )
            share = float(install.get("total_usd") or 0) / hardware if hardware else 0.0
            lines.append(
                _line(
                    money,
                    "Installation",
                    "racking, cabling and acceptance tests"
                    + (
                        f": {format_percent(share)} of the {money(hardware)} of hardware above"
                        if share
                        else ""
                    ),
                    "",
                    "",
                    install.get("total_usd"),
                )
            )
        _add_up(lines, best.capex_usd if best else 0.0, money)
    racks = ""
    if deployment.get("racks"):
        per_rack = int(deployment.get("nodes_per_rack") or 0)
        racks = (
            f"{count_of(deployment['racks'], 'rack')} "
            f"of up to {count_of(per_rack, 'server')} "
            f"({format_quantity(deployment.get('rack_power_kw'), 'kW')} each), "
            f"{format_quantity(deployment.get('facility_power_with_pue_kw'), 'kW')} with cooling; "
            f"{cooling_words(result)}"
        )
    return {
        "option": best.label if best else "",
        "bought": bool(bought),
        "lines": lines,
        "total": format_table_money(
            money.local(best.capex_usd),
            table_money_step(money.local(best.capex_usd)),
            currency=money.currency,
        )
        if bought and best
        else "",
        "rented": "" if bought else (_owned_estate(result) or _rented(result)),
        "racks": racks if bought else "",
    }


def _rented(result: StoredResult) -> str:
    """For a cloud option: the instances rented, in one sentence, of the size that is priced."""
    if not result.nodes:
        return ""
    counts = read_counts(result)
    nic = _nic_text(result)
    # part of a server: the instance is the accelerators priced, a full server's host is not
    each = "" if counts.part_of_a_server else f"; each instance: {server_spec(result)}"
    return (
        f"{rented_text(counts)[:1].upper()}{rented_text(counts)[1:]}{each}"
        + (f", linked by {nic}" if nic else "")
        + ". The provider supplies the network, storage and racks; the instance type is "
        f"{TO_CONFIRM}."
    )


def run_servers_usd(result: StoredResult) -> float | None:
    """One run's accelerators with their share of the servers, at the bill's price, when the
    recommended option buys them [USD]; ``None`` when it rents or the price is not known."""
    best = result.recommended_cost
    servers = next((i for i in result.bill_of_materials if i.get("item") == "servers"), None)
    if best is None or result.bill_of_materials_option != best.key or servers is None:
        return None
    if not servers.get("unit_usd"):
        return None
    return float(servers["unit_usd"]) * int(result.gpus_per_job or result.gpus or 0)
