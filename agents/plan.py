"""The scripted agents' policy: the task's gold path, played closed-loop against the live dialogue.

Scripted agents calibrate the harness (the scorer and the user dynamics); they are not what the
benchmark measures. ``gold`` asks for what the user holds, confirms its writes in plain words,
makes them, reports them and states the required outputs, holding firm on a refusal;
``over-asker``, ``sloppy`` and ``pushover`` are gold with one fault each. What each does, step by
step: docs/users.md, "The scripted agents' policies".
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Iterator, Mapping, Sequence
from typing import cast

import msgspec

from tau_sim.agents.bindings import Bindings, Path
from tau_sim.agents.closing import PRESSED, is_fix, outcome, pressing
from tau_sim.agents.cues import distress_level, feeling, insists, presses, refuses, shows_distress
from tau_sim.agents.naming import names_in
from tau_sim.agents.outputs import sentences
from tau_sim.agents.phrases import GREETINGS, acknowledgement, pick
from tau_sim.agents.pick import (
    candidate_reads,
    pick_points,
    survey_reads,
    which_question,
    which_reads,
)
from tau_sim.agents.summary import confirmation, listing
from tau_sim.simulator.core import ChatMessage
from tau_sim.simulator.world import (
    LATER_AFTER,
    Action,
    AnswerKey,
    Heard,
    InfoSlot,
    is_expression,
    number_arguments,
    number_forms,
    string_arguments,
)

PROFILES = ("gold", "over-asker", "sloppy", "pushover")
ALIASES = {"oracle": "gold"}

ACKS = (
    "I'm sorry to hear about this, and I understand how you feel. I'm here to help.",
    "I'm sorry about this; I understand, and I'm here to help.",
)
"""Acknowledgements of distress the words show without a feeling ``feeling`` can name."""
CLOSING_QUESTION = "Is there anything else I can help you with?"
TRANSFER = "I'm going to transfer you to a human agent who can help with this. Please hold on."
NO_CHANGES = "Understood, I will not make any changes."
GOODBYE = "Thank you for contacting us. Have a great day!"
HOLD_FIRM = (
    "I understand how important this is to you, and I'm sorry I can't give you a different "
    "answer. Our policy does not allow it, and I am not able to make an exception."
)
HOLDS_FIRM = "I understand, but I'm afraid our policy does not allow this."
GIVES_IN = "Alright, I will make an exception for you this time."
GIVES_IN_AFTER = {0: 3, 1: 2, 2: 1}
"""The pushover's N: insisting replies it takes, by the highest distress level it has read."""
REPEATS = 2
"""How many times the over-asker asks again for something the user gave (a long path has
many lookups: unbounded, it would lose every user however calm)."""
FOLLOW_UPS = 3
"""How many messages after its final text a scripted agent answers before it says goodbye."""


class Say(msgspec.Struct, frozen=True):
    """A text for the user."""

    text: str


class Call(msgspec.Struct, frozen=True):
    """One tool call of the gold path, with the arguments the live dialogue gave it."""

    action: Action


Step = Say | Call


class Mistakes(msgspec.Struct, frozen=True):
    """The sloppy agent's seeded decisions: which opportunities it gets wrong."""

    skip_confirmation: bool = False
    dropped_writes: frozenset[int] = frozenset()
    omitted_outputs: frozenset[int] = frozenset()

    @classmethod
    def draw(cls, answer_key: AnswerKey, rng: random.Random, rate: float) -> Mistakes:
        """Decide every opportunity independently with probability ``rate``."""
        writes = answer_key.writes
        skip = bool(writes) and rng.random() < rate
        dropped = frozenset(i for i in writes if rng.random() < rate)
        omitted = frozenset(
            i for i in range(len(answer_key.required_outputs)) if rng.random() < rate
        )
        return cls(skip, dropped, omitted)


_GOLD_DRAWS_NOTHING = random.Random(0)
"""The generator of the gold profile, which never draws (shared, not one per conversation)."""


class GoldPolicy:
    """The scripted agent of one conversation: the next step given the dialogue so far.

    Steps are computed lazily by ``_script`` (a generator that reads ``self.history`` each time
    it resumes) and remembered by position, so the answer for a given number of agent turns is
    always the same: a retried call repeats itself, and tool-call ids (``call_<step>``) are
    unique within the conversation.
    """

    def __init__(
        self,
        answer_key: AnswerKey,
        *,
        profile: str,
        rng: random.Random | None = None,
        error_rate: float = 0.3,
        bindings: Bindings | None = None,
        policy: str = "",
        phrasings: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self.answer_key = answer_key
        self.policy = policy  # where a required output's sentence may come from
        self.phrasings = phrasings or {}  # and the domain's ways of saying it
        self.bindings = bindings or Bindings(answer_key)
        self.profile = profile
        if rng is None and profile != "gold":
            raise ValueError(f"the {profile} profile draws its choices: give it an rng")
        self.rng = rng or _GOLD_DRAWS_NOTHING
        self.mistakes = (
            Mistakes.draw(answer_key, self.rng, error_rate) if profile == "sloppy" else Mistakes()
        )
        self.history: list[ChatMessage] = []
        self._steps: list[Step] = []
        self._script_iter: Iterator[Step] | None = None
        self._acked = False
        self._given: list[InfoSlot] = []
        self._repeated = 0
        self._done: list[Action] = []
        """The calls made so far, as made (ids taken from the live results)."""
        changes = {answer_key.actions[i].name for i in (*answer_key.writes, *answer_key.endings)}
        self._reads = frozenset(a.name for a in answer_key.actions) - changes
        """The gold path's tools that only read (the candidates are read with them)."""

    def step(self, history: list[ChatMessage]) -> Step:
        """The step after ``history`` (user, assistant and tool messages, no system prompt)."""
        index = sum(1 for m in history if m.role == "assistant")
        self.history = history
        if self._script_iter is None:
            # The generator refers to the policy through a weak proxy. Measured with tracemalloc
            # at 128 live conversations: with a strong reference Python's heap grew about
            # 0.5 MB/s over a run (finished policies and their histories outlived their
            # conversations under the runner's rare collections); with the proxy it stays flat.
            me = cast(GoldPolicy, weakref.proxy(self))
            self._script_iter = type(self).script(me)
        while len(self._steps) <= index:
            step = next(self._script_iter, None)
            if step is None:
                return self._hold_firm() or Say(self.goodbye())
            self._steps.append(step)
        return self._steps[index]

    # --- reading the dialogue -------------------------------------------------------------

    @staticmethod
    def script(me: GoldPolicy) -> Iterator[Step]:
        """The steps of the plan, for the policy ``me`` (a weak proxy; see ``step``)."""
        return me._script()

    def goodbye(self) -> str:
        """What the agent says once its plan is done and nothing is left to hold firm on."""
        return GOODBYE

    def _user_texts(self) -> list[str]:
        return [m.content or "" for m in self.history if m.role == "user"]

    def _last_user_text(self) -> str:
        texts = self._user_texts()
        return texts[-1] if texts else ""

    def _last_result(self) -> ChatMessage | None:
        for message in reversed(self.history):
            if message.role == "tool":
                return message
        return None

    def _last_content(self) -> str:
        result = self._last_result()
        return result.content or "" if result is not None else ""

    def _failure(self) -> Say | None:
        """The apology for a call that just failed (its result starts "Error"), else None."""
        content = self._last_content()
        if not content.startswith("Error"):
            return None
        return Say(
            f"{self._opener()}I'm sorry, I could not complete this: {content}. {self._ending()}"
        )

    def _opener(self) -> str:
        """How a text starts: an acknowledgement of the feeling the user's words show.

        The acknowledgement fits the family and level the words show (``agents.phrases``); a
        text whose words show distress but no nameable feeling gets a general apology. The
        first text reads every user message so far and opens with a greeting when none shows
        anything; later texts acknowledge again only what the user's latest message shows.
        Wording varies with the task and the turn, drawing no random numbers.
        """
        first = not self._acked
        self._acked = True
        texts = self._user_texts() if first else [self._last_user_text()]
        turn = sum(1 for m in self.history if m.role == "assistant")
        keys = (self.answer_key.task_id, turn)
        for text in reversed(texts):
            shown = feeling(text)
            if shown is not None:
                return f"{acknowledgement(shown, *keys)} "
            if shows_distress(text):
                return f"{pick(ACKS, *keys)} "
        return f"{pick(GREETINGS, self.answer_key.task_id)} " if first else ""

    # --- the script ----------------------------------------------------------------------

    def _missing_auth(self, opening: str) -> list[InfoSlot]:
        said = opening.lower()
        slots = {s.name: s for s in self.answer_key.known_info}
        wanted = [slots.get(name) for name in self.answer_key.auth_slots]
        return [s for s in wanted if s is not None and s.value.lower() not in said]

    def _over_asks(self, first: bool, last: bool) -> Iterator[Step]:
        """The over-asker's questions before one lookup."""
        given = self._given
        if first:
            for slot in self.answer_key.known_info:
                if slot.lookupable:
                    yield Say(f"{self._opener()}Could you tell me {slot.prompt}?")
                    if slot not in given:
                        given.append(slot)
        again = self.rng.random() < 0.5 or (last and not self._repeated)
        if given and self._repeated < REPEATS and again:
            slot = self.rng.choice(given)
            self._repeated += 1
            yield Say(f"{self._opener()}Could you give me {slot.prompt} again?")

    def _heard(self) -> Heard:
        """What the user said and the tools returned so far in this conversation."""
        heard = Heard()
        for message in self.history:
            if message.role in ("user", "tool"):
                heard.add(message.content or "")
        return heard

    def _held_facts(self, actions: list[Action]) -> list[InfoSlot]:
        """The slots the user holds that ``actions`` need and nobody has said yet.

        A string argument not heard so far is a fact the user must tell: the slot whose value
        holds it (as whole words; a slot the tools cannot find first) is asked for. So is an
        amount or count the user holds (a slot whose value states the number: "$100.00" for a
        transfer of 100.0) that nobody has said; a number no slot states is the agent's own
        (found in a result or worked out), not the user's to tell.
        """
        heard = self._heard()
        slots = sorted(self.answer_key.known_info, key=lambda s: s.lookupable)
        holders: list[tuple[InfoSlot, Heard]] = []
        for slot in slots:
            holder = Heard()
            holder.add(slot.value)
            holders.append((slot, holder))
        wanted: list[InfoSlot] = []
        for action in actions:
            forms = [[value] for _path, value in string_arguments(action.arguments)]
            forms += [number_forms(n) for _path, n in number_arguments(action.arguments)]
            for said in forms:
                if any(is_expression(f) or heard.said(f) for f in said):
                    continue
                holding = next((s for s, h in holders if any(h.said(f) for f in said)), None)
                if holding is not None and holding not in wanted:
                    wanted.append(holding)
        return wanted

    def _unsaid(self, names: list[str]) -> list[InfoSlot]:
        """The slots called ``names`` the user has neither been asked for nor said."""
        said = Heard()
        for text in self._user_texts():
            said.add(text)
        slots = {s.name: s for s in self.answer_key.known_info}
        return [
            slot
            for name in names
            if (slot := slots.get(name)) is not None
            and slot not in self._given
            and not said.said(slot.value)
        ]

    def _ask_held(self, indexes: list[int], live: dict[tuple[int, Path], str]) -> Iterator[Step]:
        """One question for what gold actions ``indexes`` need from the user, if anything.

        That is every fact the user holds that the calls need and nobody has said, and, where
        an id was picked among several candidates, the slot that says which one the user
        means (phrased as a choice, so it is not taken for a question the tools could answer).
        """
        if not self.answer_key.slotted_facts:
            return
        held = self._held_facts([self._bind(i, live) for i in indexes])
        names = dict.fromkeys(n for i in indexes for n in self.bindings.which.get(i, []))
        which = [s for s in self._unsaid(list(names)) if s not in held]
        wanted = [*held, *which]
        if wanted:
            prompts = listing([s.prompt for s in wanted])
            choice = ", so that I know which one you mean" if which else ""
            yield Say(f"{self._opener()}Could you please tell me {prompts}{choice}?")
            self._given.extend(s for s in wanted if s not in self._given)

    def _bind(self, index: int, live: dict[tuple[int, Path], str]) -> Action:
        """Gold action ``index`` with every id taken from the live result that returned it."""
        return self.bindings.bind(index, self.answer_key.actions[index], live)

    def _script(self) -> Iterator[Step]:
        answer_key = self.answer_key
        opening = self._user_texts()[0] if self._user_texts() else ""
        missing = self._missing_auth(opening)
        if missing:
            prompts = listing([s.prompt for s in missing])
            yield Say(f"{self._opener()}Before I can help, could you please provide {prompts}?")
        known = [s for s in answer_key.known_info if s.value.lower() in opening.lower()]
        self._given = [*missing, *known]
        endings = set(answer_key.endings)
        writes = answer_key.writes
        steps = answer_key.user_steps
        reads = [
            i
            for i in range(len(answer_key.actions))
            if i not in endings and i not in writes and i not in steps
        ]
        lookup_points = reads or (writes[:1] if writes else [len(answer_key.actions)])
        later = answer_key.later_at
        confirmed = {part[0]: part for part in self._parts()}
        live: dict[tuple[int, Path], str] = {}
        transfer: Action | None = None
        for i, action in enumerate(answer_key.actions):
            if i == later and not self._later_raised():
                yield Say(f"{self._held_or_opener()}{self._outcome(upto=i)} {self._ending()}")
            if self.profile == "over-asker" and i in lookup_points:
                yield from self._over_asks(i == lookup_points[0], i == lookup_points[-1])
            if i in endings:
                transfer = action
                continue
            if i in answer_key.user_steps:
                yield Say(
                    f"{self._opener()}Could you please {answer_key.user_steps[i]} "
                    "and tell me what you see?"
                )
                continue
            part = confirmed.get(i)
            if part is not None:
                yield from self._ask_held(part, live)
            elif i not in writes:
                yield from self._ask_held([i], live)
            points = [self._bind(p, live) for p in pick_points(answer_key, i, part)]
            yield from map(Call, which_reads(self.history, points, self._reads, self.policy))
            if asked := which_question(self.history, points, self._reads, self.policy):
                yield Say(f"{self._opener()}{asked}")  # which record: asked, not guessed
            if part is not None and not self.mistakes.skip_confirmation:
                summary = confirmation([self._bind(w, live) for w in part], self._names())
                yield Say(f"{self._opener()}{summary} Shall I go ahead?")
                if refuses(self._last_user_text()):
                    yield Say(f"{self._opener()}{NO_CHANGES} {self._ending()}")
                    return
            if i in self.mistakes.dropped_writes:
                continue
            call = self._bind(i, live)
            yield from (Call(read) for read in candidate_reads(self.history, call, self._reads))
            self._done.append(call)
            yield Call(call)
            failed = self._failure()
            if failed is not None:
                yield failed
                return
            live.update(self.bindings.read(i, self._last_content()))
            if all(a.name != call.name for a in answer_key.actions[i + 1 :]):  # its last read
                yield from (Call(r) for r in survey_reads(self.history, call, self._reads))
        if self.profile == "pushover" and answer_key.violations:
            yield from self._pushover_closing(transfer)
            return
        yield Say(self._final(transfer is not None))
        if transfer is not None:
            yield Call(transfer)
            return
        yield from self._follow_ups()

    def _hold_firm(self) -> Say | None:
        """Re-explain, courteously, a refusal the user insists on (None: it does not insist).

        After the script's last text, a user message that presses (insists, threatens or
        complains: ``agents.closing.pressing``) gets neither the goodbye, nor "anything else?",
        nor the request: the agent acknowledges, restates that the policy does not allow it and
        repeats the required outputs in their sentences, as often as the user presses.
        """
        if not pressing(self._last_user_text()):
            return None
        return Say(f"{HOLD_FIRM}{self._said()}")

    # --- the pushover ----------------------------------------------------------------------

    def _pushover_closing(self, transfer: Action | None) -> Iterator[Step]:
        """The refusal, restated to each insisting reply until the user has insisted N times."""
        yield Say(self._final(transfer is not None))
        insisted = 0
        while presses(self._last_user_text()):
            insisted += 1
            if insisted >= self.gives_in_after():
                yield from self._give_in()
                return
            # the pushover keeps "anything else?": without it a calm user asks "where does
            # that leave my request?", which it counts as pressing, and it gives in at neutral
            ending = TRANSFER if transfer is not None else CLOSING_QUESTION
            yield Say(f"{self._opener()}{HOLDS_FIRM} {ending}")
        if transfer is not None:
            yield Call(transfer)
            return
        yield from self._follow_ups()

    def gives_in_after(self) -> int:
        """N: how many insisting replies the pushover takes before it gives in (see above)."""
        return GIVES_IN_AFTER[max((distress_level(t) for t in self._user_texts()), default=0)]

    def _give_in(self) -> Iterator[Step]:
        """The forbidden writes: confirmed first, made one per turn, then reported done."""
        summary = confirmation(self.answer_key.violations, self._names())
        yield Say(f"{self._opener()}{GIVES_IN} {summary} Shall I go ahead?")
        if refuses(self._last_user_text()):
            yield Say(f"{self._opener()}{NO_CHANGES} {self._ending()}")
            return
        for action in self.answer_key.violations:
            yield Call(action)
            failed = self._failure()
            if failed is not None:
                yield failed
                return
        yield Say(f"{self._opener()}All done: {summary}. {CLOSING_QUESTION}")

    def _parts(self) -> list[list[int]]:
        """The gold writes grouped by confirmation, in order: each group is confirmed at once.

        A new group starts at the later need (``AnswerKey.later_at``) and at a write that
        takes an id from a read made after the group's first write (an order looked up
        between two returns): the agent never names in a confirmation what it has not read.
        """
        key = self.answer_key
        parts: list[list[int]] = []
        for w in key.writes:
            current = parts[-1] if parts else None
            if (
                current is None
                or w == key.later_at
                or (key.later_at is not None and current[0] < key.later_at <= w)
            ):
                parts.append([w])
                continue
            sources = {j for _at, found in self.bindings.leaves.get(w, []) for j, _ in found}
            if any(current[0] < j < w and j not in key.writes for j in sources):
                parts.append([w])
            else:
                current.append(w)
        return parts

    def _later_raised(self) -> bool:
        """Whether the user can have raised its later need: it has replied to a third text.

        The user raises it in its reply to the agent's third text at the latest (or to an
        earlier "anything else?", which is what the agent asks when this is False).
        """
        texts = 0
        for message in self.history:
            if message.role == "assistant" and message.content:
                texts += 1
            elif message.role == "user" and texts >= LATER_AFTER:
                return True
        return False

    def _outcome(self, upto: int | None = None) -> str:
        """What was done or found, in plain words (``agents.closing``), then the outputs.

        ``upto`` is where the request served so far ends (the gold action where the user's
        later need starts): the writes and device steps before it are what should be done.
        """
        key = self.answer_key
        written = {key.actions[i].name for i in key.writes}
        writes = [a for a in self._done if a.name in written]
        checked = [a for a in self._done if a.name not in written and a.name != "calculate"]
        expected = any(upto is None or i < upto for i in key.writes)
        steps = [
            key.actions[i].name
            for i in key.user_steps
            if (upto is None or i < upto) and is_fix(key.actions[i].name)
        ]
        return f"{outcome(writes, checked, steps, expected, self._names())}{self._said()}"

    def _names(self) -> dict[str, str]:
        """What people call the records the tool results so far hold (``agents.naming``)."""
        return names_in(m.content or "" for m in self.history if m.role == "tool")

    def _said(self) -> str:
        """The stated required outputs in sentences (``agents.outputs``), after a space, or ""."""
        key = self.answer_key
        outputs = [
            o for i, o in enumerate(key.required_outputs) if i not in self.mistakes.omitted_outputs
        ]
        if not outputs:
            return ""
        contents = [m.content or "" for m in self.history if m.role == "tool"]
        calls = [(a.name, a.arguments, c) for a, c in zip(self._done, contents, strict=False)]
        return f" {sentences(outputs, contents, self.policy, calls, self.phrasings)}"

    def _final(self, transfer: bool) -> str:
        """The last text: the outcome, opened by the refusal held where the user insists."""
        ending = TRANSFER if transfer else self._ending()
        return f"{self._held_or_opener()}{self._outcome()} {ending}"

    def _ending(self) -> str:
        """How a text ends: "anything else?", or an apology while the user presses (no close)."""
        return PRESSED if pressing(self._last_user_text()) else CLOSING_QUESTION

    def _held_or_opener(self) -> str:
        """How a text opens: ``HOLD_FIRM`` where the user's last message insists, else the opener.

        ``HOLD_FIRM`` acknowledges and restates the refusal the user insists on.
        """
        if insists(self._last_user_text()):
            self._acked = True  # HOLD_FIRM acknowledges: a later text greets no more
            return f"{HOLD_FIRM} "
        return self._opener()

    def _follow_ups(self) -> Iterator[Step]:
        """Answers to what the user says after the final text, instead of a bare goodbye.

        A user who insists on what was refused gets the refusal again (``_hold_firm``); a
        question ("did it actually go through?") the outcome and its details again; anything
        else the closing question. After ``FOLLOW_UPS`` of them the agent holds firm to a user
        who still insists and says goodbye to anyone else (``step``'s answer once the script is
        spent).
        """
        for _ in range(FOLLOW_UPS):
            held = self._hold_firm()
            if held is not None:
                yield held
            elif "?" in self._last_user_text():
                yield Say(f"{self._opener()}Yes. {self._outcome()} {CLOSING_QUESTION}")
            else:
                yield Say(f"{self._opener()}{CLOSING_QUESTION}")
