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
