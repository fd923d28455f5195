"""Engineering words said plainly for a customer who told us no one knows the set-up."""

from sizing.words.plain import plainly


def test_a_server_of_the_bill_says_its_links_and_drives_plainly_with_their_names():
    server = "8 × NVIDIA H100 SXM5 80GB on NVLink 4 + NVSwitch, 64 CPU cores, 30.7 TB local NVMe"
    assert plainly(server) == (
        "8 × NVIDIA H100 SXM5 80GB on fast links between the accelerators in a server "
        "(NVLink 4 + NVSwitch), 64 CPU cores, 30.7 TB local fast drives (NVMe)"
    )


def test_a_term_already_said_plainly_is_left_as_it_is():
    said = "16-bit numbers (BF16)"
    assert plainly(said) == said
    assert plainly("BF16") == said
    assert plainly("on PCIe Gen5") == "on the standard link inside a server (PCIe Gen5)"


def test_a_phrase_nobody_outside_needs_is_replaced():
    assert plainly("no scale-out fabric needed") == "no network between servers needed"


def test_the_host_cores_are_never_said_to_talk_to_other_servers():
    # customer 8's one cloud instance read "cores to ... talk to the other servers"
    said = plainly(
        "data prepared before training: cores for loaders, communication and checkpoint staging"
    )
    assert "other servers" not in said
    assert "coordinate the accelerators" in said
