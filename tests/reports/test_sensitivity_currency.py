"""The cost-sensitivity table moves each price in the currency of the totals beside it: the bank
(customer 6, amounts in euros) read "$36,018 per accelerator to $39,625" in the same row as
"€145,428 to €156,806"."""

from reports.cost_page import cost_page
from reports.demo import demo_data
from sizing.engine.numbers import Money
from sizing.engine.vocabulary import describe_price
from sizing.public import read_result
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of


def test_the_banks_sensitivity_rows_move_prices_in_euros_beside_euro_totals():
    data = demo_data(answers=answers_of(STORIES["6 Frankfurt bank adapters"]), today=TODAY)
    result = read_result(data.result)
    rows = cost_page(result)["sensitivity"]
    priced = [row for row in rows if "per " in row["range"]]
    assert priced, rows
    for row in priced:
        assert "$" not in row["range"] and "€" in row["range"], row
        assert "€" in row["at_low"], row


def test_a_price_is_written_in_the_customers_currency_at_the_dated_rate():
    euros = Money("EUR", 0.85)
    assert describe_price(40_000.0, "USD/GPU", euros) == "€34,000 per accelerator"
    assert describe_price(3.99, "USD/GPU-h", euros) == "€3.39 per accelerator-hour"
    assert describe_price(3.99, "USD/GPU-h") == "$3.99 per accelerator-hour"
