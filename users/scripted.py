"""The scripted emotional user: rule-based replies in an emotion's tone, deterministic per seed.

It reads each agent text into acts (``users.perception``), answers what it is asked from its
scenario, confirms, runs its own device steps, pushes back on a refusal as its profile says
(``users.pushback``), raises unsaid goal items and a later need, feeds the triggers it found to
its ``DissatisfactionModel`` and closes or abandons. What it does in each case, and how the
profile's dimensions change it: docs/users.md, "How the scripted user replies".
"""

from __future__ import annotations

import re
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import anyio
import msgspec

from tau_sim.simulator.core import (
    AGENT_CONDUCT_TAGS,
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
from tau_sim.users.tone import FEELING_WORDS, Tone, grievance, refused_grievance, stated

if TYPE_CHECKING:
    from tau_sim.simulator.core import ModelProvider

FLAG = "--user-arg"
RULES = "rules"
"""The ``reader`` option that reads with the rules (no model)."""

IDENTITY: frozenset[str] = frozenset(
    {"first_name", "last_name", "zip", "email", "dob", "pin", "account_number", "phone_number"}
    | {"member_id"}
)
"""Known facts that say who the user is (what any task may authenticate with): never goal
items, given only when asked."""

COURTEOUS_DROPS: frozenset[str] = frozenset({"no_progress", "announced_delay", "unbacked_claim"})
"""Triggers a courteous answer to an insistence does not count: restating a refusal politely is
the right answer to the pressure, not a turn without progress."""


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
        self.happened: dict[str, int] = {}  # how often each trigger occurred (the complaint)
        self.said_asides: set[str] = set()  # the persona's asides used (at most one)
        self.spoken = ""  # everything the user said so far, lower-cased
        self.heard = ""  # everything the agent said so far, lower-cased
        self.agent_turns = 0
        self.complained = False
        self.backed = False  # whether the agent backed a report of work done with a detail
        self.pushed = False  # whether the user's last message insisted on its demand
        self.reported = False  # whether the agent has said an action was done
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
            heard = _new_agent_text(transcript)
            self.heard += f" {heard.lower()}"
            acts = await self.reader.perceive(heard)
            text, ends, triggers, reason = self._reply(acts)
            if acts.fallback:
                triggers.append(UNSTRUCTURED_REPLY)  # the model's reading was malformed
            if self._calls:
                calls, self._calls = self._calls, []
                return UserTurn(text="", model=self.model_name, tool_calls=calls)
        self.spoken += f" {text.lower()}"
        if ends is None:
            text = styled(self.scenario.persona, text, self.kept, self.style, self.said_asides)
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

    @property
    def goal_items(self) -> list[str]:
        """The unsaid goal items: known facts the user came to get acted on and has not said.

        A goal item is a known-info slot that says nothing about who the user is (``IDENTITY``),
        that the agent cannot look up (``lookupable``), that the scenario's goal names as
        wanted (``_wanted``: "I also need a quiet room …"; a fact that only describes, such as
        the month of a bill, is not one) and that is not part of the demand (a refused demand
        is settled by the pushback): a special request, the item to return, the new dates.
        Decided from the scenario alone; once said it is no longer pending: asked for, raised
        at a closing, or its words said in the user's own messages (the opening says "3 more
        checked bags" for "3 more checked bag(s)": ``_said_in``) or in the agent's (a summary
        "room type: suite" shows the agent has it).
        """
        demand = self.scenario.demand.lower()
        return [
            slot.name
            for slot in self.view.slots
            if slot.name not in IDENTITY
            and not slot.lookupable
            and slot.name not in self.given
            and not (demand and slot.value.lower() in demand)
            and _wanted(slot.value, self.scenario.goal)
            and not _said_in(slot.value, self.spoken)
            and not _said_in(slot.value, self.heard)
        ]

    def _raise_goal_items(self, names: list[str]) -> str:
        """The unsaid goal items in plain words; they count as given."""
        said = []
        for name in names:
            slot = self.view.slot(name)
            if slot is not None:
                said.append(stated(slot.prompt, slot.value))
        self.given.update(names)
        if not said:
            return ""
        text = said[0] if len(said) == 1 else "; ".join(said[:-1]) + "; and " + said[-1]
        return f"Before we finish, one more thing: {text}."

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
            elif slot is not None and slot.needless and name not in acts.chosen:
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
        if self._unbacked(acts) and self.profile.trust != "trusting":
            triggers.append("unbacked_claim")
        if acts.transfer:
            triggers.append("transfer")
        if not acts.substantive and not (acts.refused and not self.insisting.settled):
            triggers.append("announced_delay" if acts.announced else "no_progress")
        return triggers, list(dict.fromkeys(complaints))

    def _unbacked(self, acts: AgentActs) -> bool:
        """Whether the text claims progress with no detail to back it.

        A goodbye that sums up work an earlier turn backed ("you're all set then, bye!") claims
        nothing new.
        """
        return acts.unbacked and not (acts.completion and self.backed)

    def _reply(self, acts: AgentActs) -> tuple[str, str | None, list[str], str]:
        self.agent_turns += 1
        triggers, complaints = self._triggers(acts)
        self.backed = self.backed or (acts.done and acts.detailed)
        answering, self.pushed = self.pushed, False
        pushback = self.insisting.react(acts)
        insisting = pushback not in ("", ACCEPT)
        if insisting:
            if answering:  # the same refusal again, after the user insisted: no progress to it
                triggers = [t for t in triggers if t != "progress"]
            triggers.append(f"insisted:{pushback}")
        courteous = answering and (insisting or pushback == ACCEPT)
        courteous = courteous and acts.refused and self._courteous(acts)
        if courteous:
            triggers = [t for t in triggers if t not in COURTEOUS_DROPS]
        for trigger in triggers:
            self.happened[trigger] = self.happened.get(trigger, 0) + 1
        change = self.dynamics.apply(triggers)
        intensity = self.dynamics.intensity
        reason = self.dynamics.reason if change > 0 else ("progress" if change < 0 else "")
        if self.dynamics.abandoned:
            reason = self.dynamics.reason or "no progress"
            prompts = {slot.name: slot.prompt for slot in self.view.slots}
            complaint = grievance(self.dynamics.reason, self.happened, prompts)
            conduct = any(t.partition(":")[0] in AGENT_CONDUCT_TAGS for t in self.happened)
            if self.insisting.used and not self.insisting.settled and not conduct:
                # its own pushback on a refusal brought it here: say so, not the agent's conduct
                complaint = refused_grievance(self.scenario.demand, self.insisting.used)
            text = f"{self.tone.abandon(complaint, intensity)} {UNSATISFIED}"
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
        doubt = acts.done and self._unbacked(acts) and self.profile.trust == "skeptical"
        doubt = doubt and not self.doubted
        answers = acts.asked or acts.steps or acts.confirmation or doubt
        closes = (acts.completion or self._farewell(acts, answers)) and not (answers or later)
        self.reported = self.reported or acts.done or pushback == ACCEPT
        pending = self.goal_items if closes else []
        if pending:
            triggers.extend(f"goal_item:{name}" for name in pending)
            lines = [self.tone.accept()] if pushback == ACCEPT and self.insisting.used else []
            return " ".join([*lines, self._raise_goal_items(pending)]), None, triggers, reason
        if closes:
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
            again = all(n in self.given for n in acts.asked)
            parts.append(self.tone.answer(facts, again))
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
        if not parts and not calls:  # a report of work done is thanked, anything else nudged
            parts.append(self.tone.phrase("noted" if acts.done and not acts.refused else "nudge"))
        self.given.update(acts.asked)
        self.complained = bool(complaints) or bool(acts.unclear and not facts)
        triggers.extend(f"user_step:{call.name}" for call in calls)
        if calls:
            self._calls = calls
            self._held = (parts, triggers, reason)
            return "", None, triggers, reason
        return " ".join(parts), None, triggers, reason

    def _farewell(self, acts: AgentActs, answers: object) -> bool:
        """Whether ``acts`` are a goodbye in other words, after the work is done.

        After the agent reported an action done (or the user accepted its refusal), a text in
        which the reader finds nothing (no question, placed or not, no claim, no lookup
        announced, no refusal or handoff) with nothing pending (demand settled, no later need;
        unsaid goal items are raised instead) is one: "You're welcome! Take care." ends it.
        """
        if not self.reported or answers or acts.substantive or acts.refused or acts.announced:
            return False
        return self.insisting.settled and not self.later_pending

    def _courteous(self, acts: AgentActs) -> bool:
        """Whether an answer to an insistence is courteous.

        It acknowledges the user (where its feeling expects it) and asks nothing needless (no
        fact already given or needless: ``InfoSlot.needless``).
        """
        if self.profile.wants_acknowledgement and not acts.acknowledged:
            return False
        needless = [
            n
            for n in acts.asked
            if n in self.given or ((slot := self.view.slot(n)) is not None and slot.needless)
        ]
        return not needless

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
            self.tone.did(r.removeprefix("Error: "), r.startswith("Error"))
            for r in reversed(results)
        ]
        return " ".join([*said, *parts]), None, triggers, reason


_WANT = re.compile(r"\b(?:want|need|would like|'d like|asking for)\b", re.IGNORECASE)


def _wanted(value: str, goal: str) -> bool:
    """Whether the scenario's ``goal`` names ``value`` as something the user wants done.

    That is, after "want", "need", "would like" … in one of its sentences ("I also need a
    quiet room").
    """
    for sentence in re.split(r"(?<=[.!?])\s+", goal):
        want = _WANT.search(sentence)
        if want is not None and value.lower() in sentence[want.end() :].lower():
            return True
    return False


_CONTENT = re.compile(r"[a-z0-9$][a-z0-9$.:@-]*")
_SMALL = frozenset({"the", "and", "for", "with", "from", "that", "this", "more", "than", "not"})


def _plain(text: str) -> str:
    """``text`` lower-cased with amounts written alike ("$30,400.00" and "30400" -> "30400")."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text.lower().replace("$", ""))
    return re.sub(r"(?<=\d)\.0+\b", "", text)


def _said_in(value: str, spoken: str) -> bool:
    """Whether ``spoken`` says ``value`` in other words.

    Two thirds or more of the value's content words ("(s)" and short words left out) are in it.
    """
    value, spoken = _plain(value), _plain(spoken)
    words = {w.rstrip(".:").removesuffix("(s)") for w in _CONTENT.findall(value)}
    words = {w for w in words if (len(w) > 2 or w.isdigit()) and w not in _SMALL}
    if not words:
        return False
    heard = set(_CONTENT.findall(spoken))
    heard |= {w.rstrip(".:") for w in heard} | {w.rstrip(".:").removesuffix("s") for w in heard}
    return 3 * sum(w in heard or w.removesuffix("s") in heard for w in words) >= 2 * len(words)


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
