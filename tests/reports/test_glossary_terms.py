"""The proposal's glossary picks up the terms issue 13 added, where the proposal uses them."""

from reports.document import glossary_for


def test_new_terms_are_listed_where_the_proposal_uses_them():
    body = (
        "<p>Assumed efficiency (MFU) 38 %.</p><p>400 Gb/s InfiniBand NDR, a two-level fat tree.</p>"
        "<p>With ZeRO/FSDP stage 2, the 70 billion parameters fit.</p>"
    )
    listed = {term.key for term in glossary_for(body)}
    assert {"mfu", "ndr-xdr", "fat-tree", "fsdp", "infiniband", "parameter"} <= listed
    # "billion" is not the Lion optimizer; nor is a plain number format a TF32 one
    assert not {"lion", "adafactor", "tf32"} & listed


def test_a_term_is_listed_only_as_a_whole_word():
    listed = {term.key for term in glossary_for("<p>64 processor cores per server.</p>")}
    assert "roce" not in listed  # "processor" holds "roce"
    assert "roce" in {term.key for term in glossary_for("<p>RoCE at 400 Gb/s.</p>")}
    assert "parameter" in {term.key for term in glossary_for("<p>8 billion parameters</p>")}
