"""The referee's user-simulator rules: an empty user turn, or one message sent
``REPEATED_USER_TURNS`` times in a row, ends the conversation with ``user_error``."""

from tau_sim.simulator.core.endings import REPEATED_USER_TURNS, Limits, TerminationReason
from tau_sim.simulator.core.events import AgentMessage, UserMessage
from tau_sim.simulator.core.roles import EMPTY_TURN, STOP
from tau_sim.simulator.engine.referee import Referee


def play(*texts: str, ends: str | None = None) -> Referee:
    """A referee shown these user texts, each answered by a different agent question until the
    referee ends the conversation (as the channel stops routing then)."""
    referee = Referee(Limits(max_steps=1000), {})
    for i, text in enumerate(texts):
        referee.observe(UserMessage(conversation="c", text=text, ends=ends))
        if referee.reason is not None:
            break
        referee.observe(AgentMessage(conversation="c", text=f"question {i}?"))
    return referee


def test_the_same_message_in_a_row_ends_as_user_error_spelling_aside() -> None:
    variants = ["I need help.", "i need help", "  I NEED help!!", "I need... help?"]
    texts = [variants[i % len(variants)] for i in range(REPEATED_USER_TURNS)]
    assert play(*texts[:-1]).reason is None
    referee = play(*texts)
    assert referee.reason == TerminationReason.USER_ERROR
    assert referee.detail.startswith("user: [repeated turn] ")
    assert referee.steps == 2 * REPEATED_USER_TURNS - 1  # the agent never answered the last


def test_a_different_message_starts_the_count_again() -> None:
    line = "I don't know account ids."
    texts = (
        [line] * (REPEATED_USER_TURNS - 1)
        + ["My PIN is 1794."]
        + [line] * (REPEATED_USER_TURNS - 1)
    )
    assert play(*texts).reason is None


def test_an_empty_turn_ends_at_once_and_a_stop_is_no_repetition() -> None:
    for text in ("", "   ", EMPTY_TURN):
        referee = play("Hello, I need a refund.", text)
        assert referee.reason == TerminationReason.USER_ERROR
        assert referee.detail.startswith("user: [empty turn] ")
    assert play(STOP, ends=STOP).reason == TerminationReason.USER_STOP  # no text, but an end
