"""The scripted emotional user: rule-based replies in an emotion's tone, deterministic per seed.

The user opens with the scenario's opening (which volunteers some facts: ``volunteered``), then
reads each agent text through its reader (``users.perception.Reader``: the rule reader
``users.dialogue.AgentTextReader``, or with ``reader=PROVIDER/MODEL`` a model,
``users.model_reader.ModelReader``) into its acts: it gives the values of the
known-info slots it is asked for (several when one question names several; a choice question,
"which one", is not taken for one the agent's tools could answer),
says "yes" to confirmation questions, says it does not know what it does not know, and closes with
``###STOP###`` when the agent asks whether there is anything else. Every turn feeds the triggers
it found into a ``DissatisfactionModel``; once past its threshold the user leaves with
``###UNSATISFIED###`` and the reason.

Where the user has tools of its own (its phone: ``UserView.steps``), a request naming one of
them makes the user run it (a turn of tool calls, arguments filled from the known-info slots of
the same names), then tell the agent each result in words along with the rest of its reply; a
step whose required arguments it does not know is an unclear request. Steps are triggers
(``user_step:NAME``) the dynamics do not weigh.

The three dimensions of the profile change what it does, not only how it words it:

- urgency: a lookup announced but not done ("let me check …") is an ``announced_delay`` trigger
  (instead of ``no_progress``) and the user answers it in its urgency ("no rush" … "please
  hurry"); the dynamics weigh both by urgency and lower the threshold of an urgent user;
- trust: a progress claim with no stated detail is an ``unbacked_claim`` trigger for a cautious or
  skeptical user (a trusting one takes it at face value); told that an action was done without
  a detail, a skeptical user also asks once whether it really went through, instead of closing
  on that turn;
- politeness: the wording of every phrase (warm, neutral, cold) and, in the dynamics, how much a
  dismissive tone or an ignored cue hurts.

Only the negative families (anger, fear, sadness, disgust) expect an acknowledgement: enjoyment and
neutral users never emit ``dismissive`` or ``ignored_cue``.

Where the scenario has a ``demand`` (the right answer is a refusal), the user pushes back
(``users.pushback``): while the demand is pending, an agent text that refuses it or closes
without doing it, and asks nothing, gets an insistence instead of the closing (trigger
``insisted:STYLE``, worded by ``Tone.insist``), as many times as the profile's pushback says;
then the user accepts ("Alright, I understand.") and closes as before. A neutral user accepts
at once. The first refusal counts as progress as it did; the same refusal again after an
insistence does not, and answering an insistence without an acknowledgement is
``dismissive``. This path is apart from answering the agent's questions: a text that asks for
a slot, a step or a confirmation is answered as usual.

Where the scenario has a ``later`` need, the user raises it in its reply to the agent's
``LATER_AFTER``-th text, or earlier in place of its closing when the agent asks whether there is
anything else (trigger ``later``, weighed by nothing), after its insistence where it insists on
a refusal in that reply; the facts that text states count as given. Every message but the last
is written in the scenario's persona (``users.personas.styled``: terse, rambling, formal,
non-native), the facts in it and the phrases that carry its feeling and pushback
(``users.tone.FEELING_WORDS``) verbatim.
"""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import anyio
import msgspec

from tau_sim.simulator.core import (
    STOP,
    UNSATISFIED,
    UNSTRUCTURED_REPLY,
    USERS,
    ChatMessage,
    EmotionUpdate,
    NothingToStart,
    ToolCallSpec,
    Usage,
    UserTurn,
    make_model_provider,
)
from tau_sim.simulator.models import convert_options
from tau_sim.simulator.world import LATER_AFTER, UserView
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.dynamics import DissatisfactionModel
from tau_sim.users.emotions import profile_of
from tau_sim.users.model_reader import ModelReader
from tau_sim.users.perception import AgentActs, Reader
from tau_sim.users.personas import styled
from tau_sim.users.pushback import ACCEPT, Insisting, pushback_of, worded
from tau_sim.users.tone import FEELING_WORDS, Tone

if TYPE_CHECKING:
    from tau_sim.simulator.core import ModelProvider

FLAG = "--user-arg"
RULES = "rules"
"""The ``reader`` option that reads with the rules (no model)."""


class ScriptedUserOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Options of the scripted user (``--user-arg key=value`` or a run file).

    Attributes:
        latency: seconds each turn takes, as if a model answered (0..60).
        threshold_scale: multiplies the patience thresholds (above 1: more patient).
        reader: ``rules`` (the rule reader) or ``PROVIDER/MODEL``, a model that reads each
            agent text into the acts (its options are the user's other ``--user-arg``s).
    """

    latency: Annotated[float, msgspec.Meta(ge=0.0, le=60.0)] = 0.0
    threshold_scale: Annotated[float, msgspec.Meta(ge=0.01)] = 1.0
    reader: str = RULES


class ScriptedUser:
    """Plays the user of one conversation from its task, emotion, intensity and seed."""

    model_name = "scripted"

    def __init__(
        self,
        view: UserView,
        *,
        latency: float = 0.0,
        threshold_scale: float = 1.0,
        reader: Reader | None = None,
    ) -> None:
        self.profile = profile_of(view)
        self.view = view
        self.scenario = view.scenario
        self.latency = latency
        self.dynamics = DissatisfactionModel(self.profile, threshold_scale)
        self.tone = Tone(self.profile, view.rng(f"user:{view.task_id}"))
        self.style = view.rng(f"persona:{view.task_id}")
        self.kept = [*self.scenario.known_info.values(), *FEELING_WORDS]
        self.reader = reader or AgentTextReader(view.slots, self.scenario.unknown_info, view.steps)
        if isinstance(reader, ModelReader):  # its calls are priced as that model's
            self.model_name = reader.model.name
        self.insisting = Insisting(self.scenario.demand, pushback_of(self.profile))
        self.given: set[str] = set()
        self.agent_turns = 0
        self.complained = False
        self.pushed = False  # whether the user's last message insisted on its demand
        self.doubted = False
        self.later_pending = bool(self.scenario.later)
        self.last: UserTurn | None = None
        # the reply held back while the user's own tool calls run: parts, triggers, reason
        self._held: tuple[list[str], list[str], str] | None = None
        self._calls: list[ToolCallSpec] = []

    async def respond(self, transcript: list[ChatMessage]) -> UserTurn:
        """Write the next user message given what the user has seen so far."""
        if self.latency > 0:
            await anyio.sleep(self.latency)
        if self.last is not None and self.last.ends is not None:
            return self.last
        if not transcript:
            text, ends, triggers, reason = self._opening()
        elif self._held is not None and transcript[-1].role == "tool":
            text, ends, triggers, reason = self._report(transcript)
        else:
            acts = await self.reader.perceive(_new_agent_text(transcript))
            text, ends, triggers, reason = self._reply(acts)
            if acts.fallback:
                triggers.append(UNSTRUCTURED_REPLY)  # the model's reading was malformed
            if self._calls:
                calls, self._calls = self._calls, []
                return UserTurn(text="", model=self.model_name, tool_calls=calls)
        if ends is None:
            text = styled(self.scenario.persona, text, self.kept, self.style)
        state = EmotionUpdate(
            conversation=self.view.conversation_id,
            emotion=self.profile.leaf,
            intensity=round(self.dynamics.intensity, 4),
            dissatisfaction=round(self.dynamics.dissatisfaction, 4),
            reason=reason,
            triggers=triggers,
        )
        # the rule reader calls no model: no tokens, no cost (a model reader reports its calls)
        usage = self.reader.spent() or Usage(latency_s=self.latency)
        self.last = UserTurn(text=text, ends=ends, state=state, model=self.model_name, usage=usage)
        return self.last

    def _opening(self) -> tuple[str, None, list[str], str]:
        opening = self.scenario.opening
        self.given.update(self.scenario.volunteered())
        return self.tone.opening(opening, self.dynamics.intensity), None, ["opening"], ""

    def _triggers(self, acts: AgentActs) -> tuple[list[str], list[str]]:
        """This turn's triggers and the complaints they deserve."""
        triggers: list[str] = []
        complaints: list[str] = []
        if self.profile.wants_acknowledgement and not acts.acknowledged:
            if self.agent_turns == 1 or self.pushed:
                triggers.append("dismissive")
            elif self.complained:
                triggers.append("ignored_cue")
        for name in acts.asked:
            slot = self.view.slot(name)
            if name in self.given:
                triggers.append(f"repeated_question:{name}")
                complaints.append("repeated")
            elif slot is not None and slot.lookupable and name not in acts.chosen:
                triggers.append(f"lookupable_question:{name}")
                complaints.append("lookupable")
            else:
                triggers.append(f"question:{name}")
        triggers.extend(f"unknown_question:{item}" for item in acts.unknown)
        if acts.unclear:
            triggers.append("unclear_question")
        if acts.confirmation:
            triggers.append("confirmation")
        if acts.progress or acts.completion:
            triggers.append("progress")
        if acts.unbacked and self.profile.trust != "trusting":
            triggers.append("unbacked_claim")
        if acts.transfer:
            triggers.append("transfer")
        if not acts.substantive:
            triggers.append("announced_delay" if acts.announced else "no_progress")
        return triggers, list(dict.fromkeys(complaints))

    def _reply(self, acts: AgentActs) -> tuple[str, str | None, list[str], str]:
        self.agent_turns += 1
        triggers, complaints = self._triggers(acts)
        answering, self.pushed = self.pushed, False
        pushback = self.insisting.react(acts)
        insisting = pushback not in ("", ACCEPT)
        if insisting:
            if answering:  # the same refusal again, after the user insisted: no progress to it
                triggers = [t for t in triggers if t != "progress"]
            triggers.append(f"insisted:{pushback}")
        change = self.dynamics.apply(triggers)
        intensity = self.dynamics.intensity
        reason = self.dynamics.reason if change > 0 else ("progress" if change < 0 else "")
        if self.dynamics.abandoned:
            reason = self.dynamics.reason or "no progress"
            text = f"{self.tone.abandon(self.dynamics.reason, intensity)} {UNSATISFIED}"
            return text, UNSATISFIED, triggers, reason
        later = self.later_pending and (acts.completion or self.agent_turns >= LATER_AFTER)
        if later:
            triggers.append("later")
        if insisting:
            return (
                " ".join([self._insist(pushback), *self._raise_later(later)]),
                None,
                triggers,
                reason,
            )
        doubt = acts.done and acts.unbacked and self.profile.trust == "skeptical"
        doubt = doubt and not self.doubted
        answers = acts.asked or acts.steps or acts.confirmation or doubt
        if acts.completion and not (answers or later):
            closing = self.tone.closing()
            if pushback == ACCEPT and self.insisting.used:
                closing = f"{self.tone.accept()} {closing}"
            return f"{closing} {STOP}", STOP, triggers, reason
        parts: list[str] = []
        if doubt:
            parts.append(self.tone.phrase("doubt"))
            self.doubted = True
        if complaints:
            parts.append(self.tone.complaint(complaints, intensity))
        facts = [(s.prompt, s.value) for n in acts.asked if (s := self.view.slot(n)) is not None]
        if facts:
            parts.append(self.tone.answer(facts))
        parts.extend(self.tone.phrase("unknown", item) for item in acts.unknown)
        if acts.unclear and not facts:
            parts.append(self.tone.phrase("unclear"))
        if acts.confirmation:
            parts.append(self.tone.phrase("confirm"))
        if acts.transfer and not parts:
            parts.append(self.tone.phrase("transfer"))
        if acts.announced and not parts:
            parts.append(self.tone.wait())
        if pushback == ACCEPT and not parts:
            parts.append(self.tone.accept())
        calls = self._step_calls(acts.steps)
        if len(calls) < len(acts.steps) and not facts:
            parts.append(self.tone.phrase("unclear"))
        parts.extend(self._raise_later(later))
        if not parts and not calls:
            parts.append(self.tone.phrase("nudge"))
        self.given.update(acts.asked)
        self.complained = bool(complaints) or bool(acts.unclear and not facts)
        triggers.extend(f"user_step:{call.name}" for call in calls)
        if calls:
            self._calls = calls
            self._held = (parts, triggers, reason)
            return "", None, triggers, reason
        return " ".join(parts), None, triggers, reason

    def _raise_later(self, due: bool) -> list[str]:
        """The later need's text, once, when it is ``due``; the facts it states count as given."""
        if not due:
            return []
        self.later_pending = False
        said = self.scenario.later.lower()
        self.given.update(n for n, v in self.scenario.known_info.items() if v and v.lower() in said)
        return [self.scenario.later]

    def _insist(self, style: str) -> str:
        """Turn down the agent's refusal or closing: insist on the demand in ``style``.

        Insisting itself weighs nothing in the dynamics. An agent that answers it without
        acknowledging the user's feeling is dismissive (``dismissive``, for the negative
        families), which is how holding firm curtly can cost it the user.
        """
        self.pushed = True
        wording = worded(style, self.profile)
        return self.tone.insist(wording, self.scenario.demand, self.dynamics.intensity)

    def _step_calls(self, names: list[str]) -> list[ToolCallSpec]:
        """Calls of the requested user tools whose required arguments the user knows."""
        calls: list[ToolCallSpec] = []
        for name in names:
            step = next((s for s in self.view.steps if s.name == name), None)
            if step is None:
                continue
            arguments = {
                p: slot.value for p in step.parameters if (slot := self.view.slot(p)) is not None
            }
            if all(p in arguments for p in step.required):
                calls.append(ToolCallSpec(f"user_{self.agent_turns}_{len(calls)}", name, arguments))
        return calls

    def _report(self, transcript: list[ChatMessage]) -> tuple[str, None, list[str], str]:
        """The held reply, opened by what the user's own tool calls showed."""
        assert self._held is not None
        parts, triggers, reason = self._held
        self._held = None
        results: list[str] = []
        for message in reversed(transcript):
            if message.role != "tool":
                break
            results.append(message.content or "")
        said = [
            f"I tried, but my phone says: {r.removeprefix('Error: ')}"
            if r.startswith("Error")
            else f"Okay, I did that. {r}"
            for r in reversed(results)
        ]
        return " ".join([*said, *parts]), None, triggers, reason


def _new_agent_text(transcript: list[ChatMessage]) -> str:
    """The agent's texts since the user's last message."""
    texts: list[str] = []
    for message in reversed(transcript):
        if message.role == "user":
            break
        if message.role == "assistant" and message.content:
            texts.append(message.content)
    return "\n".join(reversed(texts))


class ScriptedUserProvider(NothingToStart):
    """Makes scripted users; ``latency`` (s) emulates a model call, ``threshold_scale`` patience.

    With ``reader=PROVIDER/MODEL`` each user reads through that model (``ModelReader``); the
    provider then starts and stops the model's provider, and the options that are not the
    scripted user's own go to it.
    """

    reads_free_text: ClassVar[bool] = False
    """It answers from a scenario's slots; a free-text scenario (τ²-bench's) has none."""

    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        own = {k: v for k, v in args.items() if k in ScriptedUserOptions.__struct_fields__}
        options = convert_options(own, ScriptedUserOptions, FLAG)
        rest = {k: v for k, v in args.items() if k not in own}
        self.latency = options.latency
        self.threshold_scale = options.threshold_scale
        self.model_provider: ModelProvider | None = None
        if options.reader != RULES:
            self.model_provider = make_model_provider(options.reader, rest, flag=FLAG)
        elif rest:
            convert_options(rest, ScriptedUserOptions, FLAG)  # names the unknown option

    async def __aenter__(self) -> ScriptedUserProvider:
        """Start the reader's model provider, if any."""
        if self.model_provider is not None:
            await self.model_provider.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the reader's model provider, if any."""
        if self.model_provider is not None:
            await self.model_provider.__aexit__(exc_type, exc, tb)

    def for_conversation(self, view: UserView) -> ScriptedUser:
        """A fresh scripted user for one conversation."""
        reader: Reader | None = None
        if self.model_provider is not None:
            model = self.model_provider.for_conversation(view.conversation_id, "user")
            reader = ModelReader(model, view.slots, view.scenario.unknown_info, view.steps)
        return ScriptedUser(
            view, latency=self.latency, threshold_scale=self.threshold_scale, reader=reader
        )


@USERS.register("scripted")
def make_scripted_user(name: str, args: dict[str, Any]) -> ScriptedUserProvider:
    """The ``scripted`` user kind."""
    return ScriptedUserProvider(name, args)
