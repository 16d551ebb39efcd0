"""The calibrators read natural user turns: insistence, correction, threats, calm."""

from tau_sim.agents.cues import corrects, feeling, insists, refuses, threatens


def test_natural_insistence_and_threats_are_read() -> None:
    assert insists("I'll book with another airline next time, and everyone I know will too.")
    assert threatens("I'll book with another airline next time.")
    assert insists("Is there truly no way to refund it?")
    assert not insists("Okay, that makes sense. Thanks for explaining.")


def test_a_correction_turns_the_proposal_down() -> None:
    assert corrects("That's wrong, it's the other order.")
    assert refuses("That's wrong, it's the other order.")
    assert refuses("Not Denver, Seattle. The Denver one is next month.")
    assert not refuses("Yes, please go ahead.")


def test_a_calm_turn_shows_no_feeling() -> None:
    assert feeling("Could you check whether my order has shipped?") is None
    assert feeling("Are you SERIOUS?? Three hours on the tarmac?!") is not None
    assert feeling("Thanks, that's everything. ###STOP###") is None


def test_asking_to_be_told_a_fact_is_calm_and_pleading_is_fear() -> None:
    for calm in (
        "Please tell me the total for both tickets.",
        "Could you please tell me when the refund will arrive?",
        "Please tell me which days Dr. Muller works.",
    ):
        assert feeling(calm) is None, calm
    for afraid in ("Please tell me this can be fixed!", "Please tell me my order isn't lost."):
        shown = feeling(afraid)
        assert shown is not None and shown.family == "fear", afraid
