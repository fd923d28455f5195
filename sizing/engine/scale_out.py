"""The scale-out ports each platform's servers ship with: the network card (or the
accelerator's own ports), the speeds it runs at, and the InfiniBand generation it speaks.

A new server is sold with its network: a plan that needs only 100 Gb/s per accelerator on an
H100 server still runs on the 400 Gb/s ConnectX-7 the server ships with [2]_, never on an
end-of-life InfiniBand EDR card; a B200 server ships ConnectX-7 400 Gb/s [3]_, never HDR.
InfiniBand is named by the card's generation, so a ConnectX-7 run at 200 Gb/s is NDR200
(two lanes of NDR), not HDR [5]_.  Intel Gaudi accelerators carry their scale-out ports on the
chip: of Gaudi 3's 24 × 200 GbE RoCE ports, 21 join the eight cards of a server and 3 go out
of it (6 × 800 GbE OSFP ports per server), so a Gaudi cluster buys no network cards and speaks
Ethernet only [6]_.  AMD Instinct servers take one 400 Gb/s card per accelerator: AMD
Pensando Pollara 400, Broadcom Thor2 or NVIDIA ConnectX-7 [7]_.

References
----------
.. [1] NVIDIA DGX A100 system architecture (2020-05; reference catalog [DGXA100-sec]):
       8 × single-port ConnectX-6 HDR 200 Gb/s for compute traffic.
.. [2] NVIDIA DGX H100/H200 user guide (2023) and DGX SuperPOD H100 reference architecture
       RA-11333-001 V11 (2023-09-22): 8 × single-port ConnectX-7 400 Gb/s (InfiniBand NDR or
       400 GbE), one per GPU.
.. [3] NVIDIA DGX B200 user guide (docs.nvidia.com, 2024): 8 × ConnectX-7 400 Gb/s
       (InfiniBand or Ethernet) for compute, 2 × BlueField-3 for storage.
.. [4] NVIDIA ConnectX-7 product brief (2022): PCIe Gen5 x16; InfiniBand NDR 400, NDR200;
       Ethernet up to 400 GbE; NVIDIA Spectrum-X (2023): Spectrum-4 switches with BlueField-3
       SuperNICs or ConnectX-7 for RoCE.
.. [5] Reference catalog, section 3a (compiled 2026-12-02; atgbics.com port-speed overview):
       EDR 100, HDR 200, NDR 400 (NDR200 = 2 lanes), XDR 800 Gb/s.
.. [6] Intel Gaudi network configuration (docs.habana.ai, read 2026-12): 21 scale-up and 3
       scale-out ports per Gaudi 3 at 200 Gb/s, bundled as OSFP 4 × 200G; Gaudi 2 the same at
       100 Gb/s.  Intel Gaudi 3 AI accelerator white paper (2024): 24 × 200 GbE RoCE v2 ports.
.. [7] AMD Instinct MI300 Series Cluster Reference Architecture Guide, publication 63916 v1.00
       (2024-11) and AMD Instinct MI3XX reference design (instinct.docs.amd.com, 2025): one
       400 Gb/s NIC per GPU on a rail or fat-tree fabric.
.. [8] HPE Cray EX with MI250X (Frontier, 2022): Slingshot 11 200 Gb/s per node slot; MI250X
       servers of the A100 generation carry 200 Gb/s cards (HDR or 200 GbE).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .hardware import AcceleratorSpec


@dataclass(frozen=True)
class ServerPorts:
    """The scale-out ports of one platform's servers, one port group per accelerator."""

    card: str  # the InfiniBand-capable card; "" when the ports are on the accelerator
    ethernet_cards: str  # what carries Ethernet (RoCE v2) on this platform
    speeds_gbps: tuple[int, ...]  # [Gb/s] per accelerator, slowest first
    infiniband: Mapping[int, str] = field(default_factory=dict)  # generation by speed; {}: none
    on_accelerator: str = ""  # the accelerator's own ports in words; "" for cards
    source: str = ""
    as_of: str = ""


_CONNECTX_6 = ServerPorts(
    card="NVIDIA ConnectX-6",
    ethernet_cards="NVIDIA ConnectX-6",
    speeds_gbps=(200,),
    infiniband=MappingProxyType({200: "HDR"}),
    source="NVIDIA DGX A100 system architecture [1]",
    as_of="2020-05",
)
_CONNECTX_7 = ServerPorts(
    card="NVIDIA ConnectX-7",
    ethernet_cards="NVIDIA ConnectX-7 or BlueField-3 SuperNIC",
    speeds_gbps=(400,),
    infiniband=MappingProxyType({400: "NDR"}),
    source="NVIDIA DGX H100/H200 user guide, DGX B200 user guide [2] [3]",
    as_of="2024",
)
# PCIe cards' servers (H100 PCIe, L40S, L4, RTX A6000): ConnectX-7 at 200 or 400 Gb/s, as
# many as the PCIe slot carries [4]
_CONNECTX_7_PCIE = ServerPorts(
    card="NVIDIA ConnectX-7",
    ethernet_cards="NVIDIA ConnectX-7",
    speeds_gbps=(200, 400),
    infiniband=MappingProxyType({200: "NDR200", 400: "NDR"}),
    source="NVIDIA ConnectX-7 product brief [4]",
    as_of="2022",
)
_AMD_INSTINCT = ServerPorts(
    card="NVIDIA ConnectX-7",
    ethernet_cards="AMD Pensando Pollara 400, Broadcom Thor2 or NVIDIA ConnectX-7",
    speeds_gbps=(400,),
    infiniband=MappingProxyType({400: "NDR"}),
    source="AMD Instinct MI300 Series Cluster Reference Architecture Guide 63916 [7]",
    as_of="2024-11",
)
_MI250X = ServerPorts(
    card="NVIDIA ConnectX-6",
    ethernet_cards="HPE Slingshot 11 or NVIDIA ConnectX-6",
    speeds_gbps=(200,),
    infiniband=MappingProxyType({200: "HDR"}),
    source="HPE Cray EX (Frontier) [8]",
    as_of="2022",
)
_GAUDI_3 = ServerPorts(
    card="",
    ethernet_cards="",
    speeds_gbps=(600,),
    on_accelerator="3 × 200 GbE of the 24 ports on each Gaudi 3 (6 × 800 GbE OSFP per server)",
    source="Intel Gaudi network configuration; Gaudi 3 white paper [6]",
    as_of="2024",
)
_GAUDI_2 = ServerPorts(
    card="",
    ethernet_cards="",
    speeds_gbps=(300,),
    on_accelerator="3 × 100 GbE of the 24 ports on each Gaudi 2 (6 × 400 GbE QSFP-DD per server)",
    source="Intel Gaudi network configuration [6]",
    as_of="2024",
)

SERVER_PORTS: Mapping[str, ServerPorts] = MappingProxyType(
    {
        "a100-40gb": _CONNECTX_6,
        "a100-80gb": _CONNECTX_6,
        "h100-sxm": _CONNECTX_7,
        "h800": _CONNECTX_7,
        "h200": _CONNECTX_7,
        "b200": _CONNECTX_7,
        "h100-pcie": _CONNECTX_7_PCIE,
        "l40s": _CONNECTX_7_PCIE,
        "rtx-a6000": _CONNECTX_7_PCIE,
        "l4": _CONNECTX_7_PCIE,
        "mi300x": _AMD_INSTINCT,
        "mi325x": _AMD_INSTINCT,
        "mi250x": _MI250X,
        "gaudi3": _GAUDI_3,
        "gaudi2": _GAUDI_2,
    }
)
"""Accelerator id -> the scale-out ports its servers ship with (module docstring)."""

# [Gb/s] fastest card an x16 slot of each PCIe generation carries at line rate (PCI-SIG,
# PCI Express Base Specification 4.0 / 5.0 / 6.0: about 256 / 512 / 1,024 Gb/s raw)
_CARD_MAX_GBPS_BY_PCIE = {3: 100, 4: 200, 5: 400, 6: 800}


def server_ports(acc: AcceleratorSpec) -> ServerPorts:
    """The ports ``acc``'s servers ship with (a ConnectX-7 server when the catalog has none)."""
    return SERVER_PORTS.get(acc.id, _CONNECTX_7_PCIE)


def port_speeds(acc: AcceleratorSpec) -> tuple[int, ...]:
    """The speeds one accelerator's scale-out port can run at in its server [Gb/s]: a card no
    faster than the PCIe slot carries; the accelerator's own ports as they are."""
    ports = server_ports(acc)
    if ports.on_accelerator:
        return ports.speeds_gbps
    fastest = _CARD_MAX_GBPS_BY_PCIE.get(acc.pcie_gen, max(ports.speeds_gbps))
    return tuple(s for s in ports.speeds_gbps if s <= fastest) or ports.speeds_gbps[:1]


def port_for(acc: AcceleratorSpec, needed_gbps: float) -> int:
    """The port a plan that needs ``needed_gbps`` per accelerator runs on: the slowest the
    server ships that carries it, else its fastest [Gb/s]."""
    speeds = port_speeds(acc)
    return next((s for s in speeds if s >= needed_gbps), speeds[-1])


def technology_words(acc: AcceleratorSpec, inter_node: str, port_gbps: int) -> str:
    """The fabric as bought: "InfiniBand NDR (NVIDIA ConnectX-7)", "Ethernet 400 GbE, RoCE v2
    (AMD Pensando Pollara 400, Broadcom Thor2 or NVIDIA ConnectX-7)", or the accelerator's own
    Ethernet ports."""
    ports = server_ports(acc)
    if ports.on_accelerator:
        return f"Ethernet (RoCE v2) on the accelerators: {ports.on_accelerator}"
    generation = ports.infiniband.get(port_gbps)
    if inter_node == "infiniband" and generation:
        return f"InfiniBand {generation} ({ports.card})"
    return f"Ethernet {port_gbps} GbE, RoCE v2 ({ports.ethernet_cards})"


def fabric_refused(acc: AcceleratorSpec, inter_node: str) -> str:
    """Why the fabric asked for cannot be built on ``acc``'s servers ("" when it can)."""
    ports = server_ports(acc)
    if inter_node == "infiniband" and not ports.infiniband:
        return (
            f"{acc.name} links servers over the Ethernet ports on each accelerator, so the "
            "network is Ethernet (RoCE v2): no InfiniBand cards are bought"
        )
    return ""
