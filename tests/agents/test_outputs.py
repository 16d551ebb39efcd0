"""Required outputs said in sentences: from a result's field, a tool's error, the policy."""

from tau_sim.agents.outputs import bare, sentence, sentences

POLICY = (
    "- **Ownership**: act only on the customer's own orders. If an order does not belong to "
    "the customer, tell them the order does not belong to them and change nothing.\n"
)


def test_a_result_field_names_the_output() -> None:
    content = '{"flight_number": "AT970", "status": "scheduled", "price": 147.0}'
    assert sentence("scheduled", [content], POLICY) == "The status is scheduled."
    assert sentence("$147.00", [content], POLICY) == "The price is $147.00."


def test_a_refusal_word_comes_with_the_policy_sentence_that_holds_it() -> None:
    said = sentence("belong", ['{"order_id": "#W1", "user_id": "someone_else"}'], POLICY)
    assert "does not belong to them" in said
    assert not bare(said, ["belong"])


def test_a_tool_error_is_said_in_its_own_words() -> None:
    said = sentence("frozen", ["Error: the card is frozen"], POLICY)
    assert said == "The card is frozen."


def test_the_old_details_list_is_bare_and_the_sentences_are_not() -> None:
    outputs = ["belong", "$147.00"]
    assert bare("Here are the details: belong; $147.00.", outputs)
    assert bare("That is $147.00.", outputs)
    said = sentences(outputs, ['{"price": 147.0}'], POLICY)
    assert not bare(said, outputs)


def test_a_count_with_its_unit_is_named_by_its_field() -> None:
    content = '{"flight_number": "AT294", "status": "delayed", "delay_minutes": 170}'
    assert sentence("170 minutes", [content], POLICY) == "The delay is 170 minutes."
    refills = '{"rx_id": "RX-1", "refills_left": 1}'
    assert sentence("1 refill", [refills], POLICY) == "There is 1 refill left."


def test_a_time_is_said_with_its_day_and_what_it_is() -> None:
    content = '[{"outage_id": "OUT-1", "estimated_restoration": "2025-11-14T13:00"}]'
    said = sentence("13:00", [content], POLICY)
    assert said == "The estimated restoration is 2025-11-14 at 13:00."


def test_a_worked_out_figure_says_how() -> None:
    calls = [("calculate", {"expression": "54420 - 53985"}, "435.00")]
    said = sentence("435 kWh", ["435.00"], POLICY, calls)
    assert said == "Working it out (54420 - 53985), it comes to 435 kWh."
    days = [("days_between", {"start_date": "2025-03-08", "end_date": "2025-06-15"}, "99")]
    assert sentence("99 days", ["99"], POLICY, days) == "From 2025-03-08 to 2025-06-15 is 99 days."


def test_a_refusal_output_is_said_of_the_request_with_the_policy_words() -> None:
    ways = {"cannot be added": ("cannot be added", "only household members can be added")}
    said = sentence("cannot be added", [], POLICY, (), ways)
    assert said == "I'm afraid it cannot be added: only household members can be added."
    assert sentence("not eligible", [], POLICY) == "I'm afraid it is not eligible."
    assert sentence("cannot cancel", [], POLICY) == "I'm afraid I cannot cancel."


def test_a_policy_sentence_comes_whole_without_its_instructions_to_the_agent() -> None:
    policy = (
        "- Premium classes require a driver **at\n  least 25** years old: refuse such a\n"
        "  booking and say why. [rule premium-min-age-25]\n"
        "- delivered **45 minutes or more** late: **$10.00**.\n"
    )
    assert sentence("at least 25", [], policy) == (
        "Our policy says: premium classes require a driver at least 25 years old."
    )
    said = sentence("$10.00", [], policy)
    assert said == "Our policy says: $10.00 when delivered 45 minutes or more late."
    assert not bare(said, ["$10.00"])
