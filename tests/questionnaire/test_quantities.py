"""Numbers as people write them: a table of typed text and what we read from it."""

import pytest

from questionnaire.quantities import Kind, Quantity, QuantityError, describe, parse_quantity


@pytest.mark.parametrize(
    ("text", "kind", "default_unit", "expected", "unit"),
    [
        ("70B", Kind.COUNT, "", 70_000_000_000, None),
        ("7.5 billion", Kind.COUNT, "", 7_500_000_000, None),
        ("1.2T tokens", Kind.COUNT, "", 1_200_000_000_000, "tokens"),
        ("350M", Kind.COUNT, "", 350_000_000, None),
        ("4k", Kind.COUNT, "", 4_000, None),
        ("32,000", Kind.COUNT, "", 32_000, None),
        ("about 400,000 documents", Kind.COUNT, "", 400_000, "samples"),
        ("46.7 bn parameters", Kind.COUNT, "", 46_700_000_000, None),
        ("1e9", Kind.COUNT, "", 1_000_000_000, None),
        ("~12.9B", Kind.COUNT, "", 12_900_000_000, None),
        ("4k", Kind.CONTEXT, "", 4_096, None),
        ("32K", Kind.CONTEXT, "", 32_768, None),
        ("8,192", Kind.CONTEXT, "", 8_192, None),
        ("2 TB", Kind.DATA, "", 2_000, "gb"),
        ("1.2T tokens", Kind.DATA, "", 1_200_000_000_000, "tokens"),
        ("1.2 million clips", Kind.DATA, "", 1_200_000, "samples"),
        ("2 TB", Kind.SIZE, "GB", 2_000, None),
        ("500GB", Kind.SIZE, "GB", 500, None),
        ("40 MB", Kind.SIZE, "GB", 0.04, None),
        ("40", Kind.SIZE, "MB", 0.04, None),
        ("1 TiB", Kind.SIZE, "GB", 1_099.511627776, None),
        ("12 hours", Kind.DURATION, "hours", 12, None),
        ("3 days", Kind.DURATION, "hours", 72, None),
        ("2 weeks", Kind.DURATION, "hours", 336, None),
        ("90 min", Kind.DURATION, "hours", 1.5, None),
        ("30", Kind.DURATION, "days", 720, None),
        ("20 GB/s", Kind.RATE, "GB/s", 20, None),
        ("800 MB/s", Kind.RATE, "GB/s", 0.8, None),
        ("400G", Kind.LINK, "Gb/s", 400, None),
        ("200 Gbit/s", Kind.LINK, "Gb/s", 200, None),
        ("30 %", Kind.PERCENT, "", 30, None),
        ("50%", Kind.PERCENT, "", 50, None),
    ],
)
def test_typed_values_are_read_as_people_mean_them(text, kind, default_unit, expected, unit):
    quantity = parse_quantity(text, kind, default_unit=default_unit)
    assert quantity.value == pytest.approx(expected)
    assert quantity.unit == unit
    assert quantity.text == text


@pytest.mark.parametrize("text", ["", "   ", "not sure", "Not sure yet", "?", "unknown", "TBD"])
def test_empty_or_not_sure_is_accepted_as_no_value(text):
    assert parse_quantity(text, Kind.COUNT) == Quantity(text, None)


def test_whole_values_are_stored_as_integers_so_they_read_back_exactly():
    value = parse_quantity("32,000", Kind.COUNT).value
    assert value == 32000 and isinstance(value, int)


@pytest.mark.parametrize(
    ("text", "kwargs", "message"),
    [
        ("-7B", {}, "cannot be negative"),
        ("0", {}, "must be more than 0"),
        ("5000T", {"maximum": 1e14}, "looks too large"),
        ("2.5", {"whole": True}, "must be a whole number"),
        ("lots", {}, "as a number"),
        ("2-4", {}, "not a range"),
        ("70 parsecs", {}, "did not understand"),
        ("1e400", {}, "too large"),
    ],
)
def test_impossible_values_get_a_clear_message(text, kwargs, message):
    with pytest.raises(QuantityError, match=message):
        parse_quantity(text, Kind.COUNT, what="the number of parameters", **kwargs)


def test_units_of_another_kind_are_refused():
    with pytest.raises(QuantityError, match="unit"):
        parse_quantity("3 days", Kind.SIZE, default_unit="GB")
    with pytest.raises(QuantityError):
        parse_quantity("2 TB", Kind.COUNT)


def test_zero_is_allowed_where_it_makes_sense():
    assert parse_quantity("0", Kind.PERCENT, allow_zero=True).value == 0


@pytest.mark.parametrize(
    ("value", "kind", "text"),
    [
        (7e10, Kind.COUNT, "70 billion"),
        (4096, Kind.CONTEXT, "4,096 tokens"),
        (2000, Kind.SIZE, "2 TB"),
        (72, Kind.DURATION, "3 days"),
        (1, Kind.DURATION, "1 hour"),
    ],
)
def test_values_are_described_in_plain_words(value, kind, text):
    assert describe(value, kind) == text


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("seventy billion", Kind.COUNT, 70e9),
        ("seventy-five billion", Kind.COUNT, 75e9),
        ("one hundred billion", Kind.COUNT, 100e9),
        ("a hundred million", Kind.COUNT, 100e6),
        ("two trillion tokens", Kind.DATA, 2e12),
        ("overnight", Kind.DURATION, 12),
        ("a few weeks", Kind.DURATION, 3 * 168),
        ("a couple of days", Kind.DURATION, 48),
        ("about a week", Kind.DURATION, 168),
    ],
)
def test_number_words_and_everyday_durations_are_understood(text, kind, expected):
    """Issue 13: "overnight" (question 5's own help), "a few weeks", "seventy billion"."""
    assert parse_quantity(text, kind).value == expected


@pytest.mark.parametrize("text", ["ASAP", "as soon as possible", "urgent!"])
def test_as_soon_as_possible_is_no_duration_and_counts_as_not_sure(text):
    assert parse_quantity(text, Kind.DURATION).value is None


def test_a_bare_number_far_too_small_for_parameters_asks_for_the_missing_scale_word():
    with pytest.raises(QuantityError) as raised:
        parse_quantity("70", Kind.COUNT, what="total parameters", minimum=1e6, maximum=1e14)
    assert "Did you mean 70 billion?" in str(raised.value)
    assert parse_quantity("70B", Kind.COUNT, minimum=1e6).value == 70e9


def test_a_size_in_bytes_is_never_taken_for_a_count_too_small():
    assert parse_quantity("2 TB", Kind.DATA, minimum=1e6).value == 2000


def test_a_message_quotes_everything_the_customer_typed_not_a_fragment():
    with pytest.raises(QuantityError) as raised:
        parse_quantity("70b-ish", Kind.COUNT, what="total parameters")
    assert "“70b-ish”" in str(raised.value)
