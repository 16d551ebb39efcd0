"""The referee's loop rules: an empty user turn, or one message sent ``REPEATED_USER_TURNS``
times in a row, ends the conversation with ``user_error``; a loop the agent caused (its turns
gave the user nothing to answer) with ``agent_stalled``, charged to the agent."""

import msgspec

from tau_sim.simulator.core.chat import ToolCallSpec
from tau_sim.simulator.core.endings import REPEATED_USER_TURNS, Limits, TerminationReason
from tau_sim.simulator.core.events import AgentMessage, EmotionUpdate, UserMessage
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


LOOPED = "Sorry, I'm not sure what you mean."


def loop(agent_turn: object, triggers: list[str] | None = None) -> Referee:
    """The user sends ``LOOPED`` until the referee ends it; ``agent_turn(i)`` answers each."""
    referee = Referee(Limits(max_steps=1000), {})
    for i in range(3 * REPEATED_USER_TURNS):
        if triggers is not None and i:
            state = EmotionUpdate(
                conversation="c", emotion="anger", intensity=0.5, dissatisfaction=0.2
            )
            referee.observe(msgspec.structs.replace(state, triggers=triggers))
        referee.observe(UserMessage(conversation="c", text=LOOPED))
        if referee.reason is not None:
            break
        referee.observe(agent_turn(i))  # type: ignore[operator]
    return referee


def test_a_loop_over_empty_or_repeated_agent_texts_is_the_agents_stall() -> None:
    for answer in (
        lambda i: AgentMessage(conversation="c", text=""),
        lambda i: AgentMessage(conversation="c", text="Our hours are nine to five."),
        lambda i: AgentMessage(conversation="c", text=["Okay.", "okay!!"][i % 2]),
    ):
        referee = loop(answer)
        assert referee.reason == TerminationReason.AGENT_STALLED, referee.detail
        assert "nothing to answer" in referee.detail and LOOPED in referee.detail


def test_new_texts_the_user_could_not_place_are_the_agents_stall_too() -> None:
    def chatter(i: int) -> AgentMessage:
        return AgentMessage(conversation="c", text=f"Fun fact number {i} about our company.")

    assert loop(chatter).reason == TerminationReason.USER_ERROR  # nothing says it was unplaced
    stalled = loop(chatter, ["unclear_question", "dismissive"])
    assert stalled.reason == TerminationReason.AGENT_STALLED
    answered = loop(chatter, ["question:email"])  # the agent asked something real
    assert answered.reason == TerminationReason.USER_ERROR


def test_a_loop_while_the_agent_works_is_the_user_simulators() -> None:
    def working(i: int) -> AgentMessage:
        call = ToolCallSpec(f"c{i}", "get_order_details", {"order_id": "#W1"})
        return AgentMessage(conversation="c", text="", tool_calls=[call])

    assert loop(working).reason == TerminationReason.USER_ERROR
    assert loop(working, ["no_progress"]).reason == TerminationReason.USER_ERROR
