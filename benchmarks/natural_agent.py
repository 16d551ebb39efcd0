"""A natural-wording agent double: an OpenAI chat-completions server that plays gold's calls.

It stands in for a capable LLM agent behind ``--agent openai/natural --agent-arg
base_url=http://127.0.0.1:PORT/v1``: each request (the whole conversation so far, with the
domain's tools) is answered with one assistant message, a tool call or a text. It knows the
domains' tasks (their answer keys) but not which task a conversation is: it works that out from
what the user said (``identify``: the known-info values the user's messages contain, then the
words they share with each task's opening), again at every request, so the guess narrows as
facts arrive. Then it plays that task's gold path as ``agents.plan`` decides it (what to ask,
when to confirm, ids from live results: ``NaturalPolicy`` keeps gold's decisions and replaces
every text) in its own varied words (``benchmarks.natural_wording``), chosen by a ``Style``:
a seed (``--seed``, or the request's own ``seed``: ``--agent-arg seed=N``) and how its report
ends (``--closing``: a question, a farewell, or either, drawn).
It keeps no state between requests: each answer is replayed from the messages.

    PYTHONPATH=$PWD python benchmarks/natural_agent.py --port 0 --domain retail,telecom \
        [--tasks-of IDS] [--seed N] [--closing mixed|question|farewell]

prints ``READY <port>`` once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from benchmarks.fake_openai_server import HTTPServer, Request, Response, completion
from benchmarks.natural_wording import (
    AMOUNT,
    AUTH,
    AUTH_LIST,
    CHECKED,
    COMFORT,
    CONFIRM,
    CONFIRM_LIST,
    DECLINED,
    DONE,
    DONE_LIST,
    FACTS,
    FAILED,
    FAREWELL,
    FIXED,
    GREETINGS,
    HOLDING,
    MORE,
    NOTED,
    OUTPUT,
    REFUSED,
    REPHRASE,
    RESTATE,
    STEP_MANY,
    STEP_ONE,
    STEPS,
    TRANSFER,
    WHICH,
    Wording,
    bullets,
    listing,
    plain_action,
)
from tau_sim.agents.bindings import Bindings, Path
from tau_sim.agents.plan import Call, GoldPolicy, Say, Step
from tau_sim.simulator.core import ChatMessage, ToolCallSpec, UsageError
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world import Action, AnswerKey, InfoSlot, Task
from tau_sim.simulator.world.views import answer_key

_UPSET = re.compile(
    r"\b(upset|angry|furious|frustrat\w*|annoy\w*|ridiculous|unacceptable|unbelievable|"
    r"terrible|awful|worried|anxious|scared|panic\w*|stress\w*|disappoint\w*|fed up|hate|"
    r"sick of|useless|waste|seriously|desperate|sad|hopeless|upsetting|immediately|right now|"
    r"come on|proof|yourself|nonsense|joke|forget it|how hard|still waiting|are you sure)\b|"
    r"\breally\?|!!|\?!",
    re.IGNORECASE,
)
_DECLINE = re.compile(
    r"^\W*(no\b|nope|nah|wait|hold on|stop)|\b(don't|do not) (do|go|proceed|make|change)",
    re.IGNORECASE,
)
_CONTENT = re.compile(
    r"\b(thanks?|thank you|that's all|that is all|bye|goodbye|ok(ay)?|fine|alright|all right|"
    r"understood|i see|got it|i understand|great|perfect|nothing else|no,? that's it)\b",
    re.IGNORECASE,
)
_LOST = re.compile(
    r"what do you mean|what you mean|don't understand|do not understand|do(n't| not) follow|"
    r"not following|lost me|unclear|"
    r"makes no sense|what's next|what now|is it sorted|^\W*and\?|get on with it|^\W*sorry\?|"
    r"what are you (even )?asking|what is (this|that)\?|confus\w*|come again|huh\b|"
    r"explain|what\?\s*$|^\W*so\?",
    re.IGNORECASE,
)
_REPORTED = re.compile(
    r"\b(i did|did that|done|says|shows|showing|screen|i see|there is|there's|it's|is on|is off|"
    r"restarted|turned|switched|tried|reads|displays|connects|sent|detected|allowed)\b",
    re.IGNORECASE,
)
"""Words of a customer's report of a device step (what it did, what the phone shows)."""
RETRIES = 2
"""How many times the double rewords a question or step the user did not follow."""
_YES = re.compile(
    r"\b(yes|yeah|yep|sure|go ahead|please do|correct|that's right|confirm\w*|ok(ay)?|do it|"
    r"proceed|sounds good|right|fine|absolutely|of course)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9]+")
FOLLOW_UPS = 4
"""How many messages after its report the double answers before it only says goodbye."""


CLOSINGS = ("mixed", "question", "farewell")


@dataclass(frozen=True)
class Style:
    """How the double words things: the seed of its choices and how its report ends."""

    seed: int = 0
    closing: str = "mixed"


def upset(text: str) -> bool:
    """Whether a user's words show a feeling worth acknowledging."""
    return bool(_UPSET.search(text))


class NaturalPolicy(GoldPolicy):
    """Gold's decisions for one task, every text in the double's own words.

    The inherited parts decide what is needed (missing authentication, held facts, which
    record, write groups, ids from live results); everything said is written here.
    """

    def __init__(self, key: AnswerKey, task: Task, bindings: Bindings, style: Style) -> None:
        super().__init__(key, profile="gold", bindings=bindings)
        self.task = task
        self.style = style
        self._stopped = False
        """Whether the user declined (or never approved) the writes: nothing to hold firm on."""

    def words(self) -> Wording:
        """The seeded chooser for the text about to be said."""
        turn = sum(1 for m in self.history if m.role == "assistant")
        return Wording(self.style.seed, self.answer_key.task_id, turn)

    @staticmethod
    def script(me: GoldPolicy) -> Iterator[Step]:
        """The double's own plan (gold's decisions, its own words)."""
        return cast(NaturalPolicy, me)._natural()

    def goodbye(self) -> str:
        """One of the double's many farewells."""
        return self.words().pick(FAREWELL)

    # --- how texts open and end -------------------------------------------------------------

    def _opener(self) -> str:
        first = not self._acked
        self._acked = True
        texts = self._user_texts() if first else [self._last_user_text()]
        if any(upset(t) for t in texts):
            return self.words().pick(COMFORT) + " "
        return self.words().pick(GREETINGS) + " " if first else ""

    def _more(self) -> str:
        return self.words().pick(MORE)

    # --- asking ----------------------------------------------------------------------------

    def _ask_slots(self, slots: list[InfoSlot], auth: bool) -> str:
        words = self.words()
        prompts = [s.prompt for s in slots]
        if auth and len(slots) >= 3 and words.chance(0.35):
            return words.pick(AUTH_LIST, bullets=bullets(prompts))
        return words.pick(AUTH if auth else FACTS, slots=listing(prompts))

    def _ask_held(self, indexes: list[int], live: dict[tuple[int, Path], str]) -> Iterator[Step]:
        if not self.answer_key.slotted_facts:
            return
        held = self._held_facts([self._bind(i, live) for i in indexes])
        names = dict.fromkeys(n for i in indexes for n in self.bindings.which.get(i, []))
        which = [s for s in self._unsaid(list(names)) if s not in held]
        if held:
            yield Say(self._opener() + self._ask_slots(held, auth=False))
            yield from self._until_told(held)
        if which:
            prompts = listing([s.prompt for s in which])
            yield Say(self._opener() + self.words().pick(WHICH, slots=prompts))
            yield from self._until_told(which)
        self._given.extend(s for s in [*held, *which] if s not in self._given)

    def _lost(self) -> bool:
        """Whether the user's last message says it did not follow the agent."""
        return bool(_LOST.search(self._last_user_text()))

    def _until_told(self, slots: list[InfoSlot]) -> Iterator[Step]:
        """Ask again, reworded, for the slots the user has not given (at most ``RETRIES``)."""
        for _ in range(RETRIES):
            heard = self._heard()
            unsaid = [s for s in slots if not heard.said(s.value)]
            if not unsaid or not self._lost():
                return
            again = self.words().pick(FACTS, slots=listing([s.prompt for s in unsaid]))
            yield Say(self.words().pick(REPHRASE) + again)

    def _until_followed(
        self, text: str, answer: bool = False, report: bool = False
    ) -> Iterator[Step]:
        """Say a request again, reworded, while the user says it did not follow it.

        With ``answer`` (a yes/no question) any reply that is neither a yes nor a no counts
        as not followed; with ``report`` (a device step), any reply that reports nothing.
        """
        for _ in range(RETRIES):
            last = self._last_user_text()
            unanswered = answer and not (_YES.search(last) or _DECLINE.search(last))
            unanswered |= report and not _REPORTED.search(last)
            if not (self._lost() or unanswered):
                return
            yield Say(self.words().pick(REPHRASE) + text)

    def _ask_steps(self, indexes: list[int]) -> str:
        actions = self.answer_key.actions
        asks = [STEPS.get(actions[i].name, self.answer_key.user_steps[i]) for i in indexes]
        words = self.words()
        if len(asks) == 1:
            return words.pick(STEP_ONE, step=asks[0])
        return words.pick(STEP_MANY, bullets=bullets([a[0].upper() + a[1:] for a in asks]))

    def _confirm(self, writes: list[Action]) -> str:
        words = self.words()
        plain = [plain_action(a.name, dict(a.arguments)) for a in writes]
        if len(plain) > 1 and words.chance(0.5):
            return words.pick(CONFIRM_LIST, bullets=bullets(plain))
        return words.pick(CONFIRM, summary=listing(plain))

    # --- reporting -------------------------------------------------------------------------

    def _outputs(self) -> str:
        words = self.words()
        return " ".join(
            words.pick(AMOUNT if o.startswith("$") else OUTPUT, out=o)
            for o in self.answer_key.required_outputs
        )

    def _outcome(self, upto: int | None = None) -> str:
        key = self.answer_key
        words = self.words()
        written = {key.actions[i].name for i in key.writes}
        writes = [a for a in self._done if a.name in written]
        checked = [a for a in self._done if a.name not in written and a.name != "calculate"]
        parts: list[str] = []
        steps = [STEPS.get(key.actions[i].name, key.user_steps[i]) for i in key.user_steps]
        if steps and upto is None:
            steps = list(dict.fromkeys(steps))
            parts.append(words.pick(FIXED, bullets=bullets(steps), steps=listing(steps)))
        if writes:
            plain = [plain_action(a.name, dict(a.arguments)) for a in writes]
            if len(plain) > 1 and words.chance(0.4):
                parts.append(words.pick(DONE_LIST, bullets=bullets(plain)))
            else:
                parts.append(words.pick(DONE, what=listing(plain)))
        elif not parts:
            looked = [a.name for a in checked if a.name.startswith("get_")]
            what = looked[-1].removeprefix("get_").replace("_", " ") if looked else "request"
            parts.append(words.pick(CHECKED, what=what))
        if self.task.scenario.demand and upto is None:
            parts.append(words.pick(REFUSED))
        if upto is None and key.required_outputs:
            parts.append(self._outputs())
        return " ".join(parts)

    def _final(self, transfer: bool) -> str:
        words = self.words()
        if transfer:
            return f"{self._held_or_opener()}{self._outcome()} {words.pick(TRANSFER)}"
        closing = self.style.closing
        farewell = closing == "farewell" or (closing == "mixed" and words.chance(0.3))
        ending = words.pick(FAREWELL) if farewell else self._more()
        return f"{self._held_or_opener()}{self._outcome()} {ending}"

    def _held_or_opener(self) -> str:
        return self._opener()

    def _failure(self) -> Say | None:
        content = self._last_content()
        if not content.startswith("Error"):
            return None
        error = content.removeprefix("Error:").strip()
        return Say(f"{self.words().pick(FAILED, error=error)} {self._more()}")

    def _insists(self) -> bool:
        """Whether the user presses on a refused request (a refusal task, not contented words)."""
        last = self._last_user_text()
        refused = bool(self.task.scenario.demand) and not self._stopped
        return refused and not _CONTENT.search(last)

    def _hold_firm(self) -> Say | None:
        if not self._insists():
            return None
        words = self.words()
        comfort = words.pick(COMFORT) + " " if upset(self._last_user_text()) else ""
        return Say(f"{comfort}{words.pick(RESTATE)} {self._outputs()} {self._more()}".strip())

    def _follow_ups(self) -> Iterator[Step]:
        for _ in range(FOLLOW_UPS):
            last = self._last_user_text()
            held = self._hold_firm()
            if held is not None:
                yield held
            elif "?" in last:
                yield Say(f"{self._opener()}{self._outcome()} {self._more()}")
            else:
                yield Say(self.words().pick(FAREWELL))

    # --- the script ------------------------------------------------------------------------

    def _natural(self) -> Iterator[Step]:
        key = self.answer_key
        opening = self._user_texts()[0] if self._user_texts() else ""
        missing = self._missing_auth(opening)
        if missing:
            yield Say(self._opener() + self._ask_slots(missing, auth=True))
            yield from self._until_told(missing)
        known = [s for s in key.known_info if s.value.lower() in opening.lower()]
        self._given = [*missing, *known]
        endings = set(key.endings)
        confirmed = {part[0]: part for part in self._parts()}
        live: dict[tuple[int, Path], str] = {}
        transfer: Action | None = None
        asked: set[int] = set()
        for i, action in enumerate(key.actions):
            if i == key.later_at and not self._later_raised():
                yield Say(f"{self._opener()}{self._outcome(upto=i)} {self._more()}")
            if i in endings:
                transfer = action
                continue
            if i in asked:
                continue
            if i in key.user_steps:
                group = [i]
                if i + 1 in key.user_steps and self.words().chance(0.3):
                    group.append(i + 1)
                asked.update(group)
                reported = _REPORTED.search(self._last_user_text()) and not self._lost()
                after = i - 1 in key.user_steps and reported
                noted = self.words().pick(NOTED) + " " if after else ""
                yield Say(self._opener() + noted + self._ask_steps(group))
                for j in group:
                    yield from self._until_followed(self._ask_steps([j]), report=True)
                continue
            part = confirmed.get(i)
            if part is not None:
                yield from self._ask_held(part, live)
            elif i not in key.writes:
                yield from self._ask_held([i], live)
            if part is not None:
                writes = [self._bind(w, live) for w in part]
                yield Say(self._opener() + self._confirm(writes))
                yield from self._until_followed(self._confirm(writes), answer=True)
                last = self._last_user_text()
                if _DECLINE.search(last) or self._lost() or not _YES.search(last):
                    held = DECLINED if _DECLINE.search(last) else HOLDING
                    self._stopped = True
                    yield Say(f"{self.words().pick(held)} {self._more()}")
                    return
            call = self._bind(i, live)
            self._done.append(call)
            yield Call(call)
            failed = self._failure()
            if failed is not None:
                yield failed
                return
            live.update(self.bindings.read(i, self._last_content()))
        yield Say(self._final(transfer is not None))
        if transfer is not None:
            yield Call(transfer)
            return
        yield from self._follow_ups()


# --- which task a conversation is ---------------------------------------------------------


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class Catalogue:
    """The tasks the double knows, with their answer keys, grouped by their domain's tools."""

    def __init__(self, domains: Iterable[str], task_ids: set[str] | None = None) -> None:
        self.by_tools: dict[frozenset[str], list[tuple[Task, AnswerKey, Bindings]]] = {}
        self.task_ids: set[str] = set()
        for name in domains:
            domain = get_domain(name)
            tools = frozenset(spec.name for spec in domain.toolkit.specs)
            rows = self.by_tools.setdefault(tools, [])
            for task in domain.tasks:
                if task_ids is None or task.id in task_ids:
                    key = answer_key(domain, task)
                    self.task_ids.add(task.id)
                    rows.append((task, key, Bindings(key)))

    def identify(
        self, tools: frozenset[str], user_texts: list[str]
    ) -> list[tuple[Task, AnswerKey, Bindings]]:
        """The tasks that best match what the user has said so far (ties all kept).

        A known-info value the user said counts most (values are specific: ids, names,
        amounts); the share of the task's opening words the first message shares comes next.
        """
        rows = self.by_tools.get(tools)
        if not rows or not user_texts:
            return []
        said = " ".join(user_texts).lower()
        first = _words(user_texts[0])

        def score(row: tuple[Task, AnswerKey, Bindings]) -> float:
            task = row[0]
            values = task.scenario.known_info.values()
            hits = sum(1 for v in values if len(v) > 2 and v.lower() in said)
            opening = _words(task.scenario.opening)
            overlap = len(opening & first) / max(1, len(opening))
            return 2.0 * hits + 3.0 * overlap

        scored = [(score(row), row) for row in rows]
        best = max(s for s, _row in scored)
        return [row for s, row in scored if s >= best - 1e-9]


def ask_either(
    candidates: list[tuple[Task, AnswerKey, Bindings]], opening: str, seed: int
) -> str | None:
    """One authentication question offering each way the candidate tasks verify a user.

    None where they all verify the same way (their own first question then serves).
    """
    ways: dict[tuple[str, ...], str] = {}
    for _task, key, _b in candidates:
        slots = {s.name: s.prompt for s in key.known_info}
        names = tuple(n for n in key.auth_slots if n in slots)
        if names:
            ways.setdefault(names, listing([slots[n] for n in names]))
    if len(ways) < 2:
        return None
    words = Wording(seed, "either", 0)
    either = ", or ".join(ways.values())
    hello = words.pick(COMFORT if upset(opening) else GREETINGS)
    return f"{hello} {words.pick(AUTH, slots=either)}"


def _history(messages: list[dict[str, Any]]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in messages:
        role = m.get("role")
        if role == "assistant":
            calls = [
                ToolCallSpec(
                    c.get("id", ""),
                    c["function"]["name"],
                    json.loads(c["function"].get("arguments") or "{}"),
                )
                for c in m.get("tool_calls") or []
            ]
            out.append(ChatMessage(role="assistant", content=m.get("content"), tool_calls=calls))
        elif role == "tool":
            out.append(
                ChatMessage(
                    role="tool", content=m.get("content"), tool_call_id=m.get("tool_call_id")
                )
            )
        elif role == "user":
            out.append(ChatMessage(role="user", content=m.get("content")))
    return out


def answer(catalogue: Catalogue, body: dict[str, Any], style: Style) -> dict[str, Any]:
    """The assistant message for one chat-completions request (an OpenAI message dict)."""
    if isinstance(body.get("seed"), int):
        style = Style(body["seed"], style.closing)
    history = _history(body.get("messages", []))
    tools = frozenset(t["function"]["name"] for t in body.get("tools") or [])
    texts = [m.content or "" for m in history if m.role == "user"]
    found = catalogue.identify(tools, texts)
    if not found:
        return {"role": "assistant", "content": "Hello! How can I help you today?"}
    if not any(m.role == "assistant" for m in history) and len(found) > 1:
        either = ask_either(found, texts[0], style.seed)
        if either is not None:
            return {"role": "assistant", "content": either}
    task, key, bindings = found[0]
    policy = NaturalPolicy(key, task, bindings, style)
    step: Step = Say("")
    for at, message in enumerate([*history, None]):
        if message is None or message.role == "assistant":
            step = policy.step(history[:at])
    if isinstance(step, Call):
        index = sum(1 for m in history if m.role == "assistant")
        call = {
            "id": f"call_{index}",
            "type": "function",
            "function": {"name": step.action.name, "arguments": json.dumps(step.action.arguments)},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"role": "assistant", "content": step.text}


def handler(catalogue: Catalogue, style: Style) -> Any:
    """The HTTP handler: ``POST .../chat/completions`` and ``GET .../models``."""

    async def handle(request: Request) -> Response:
        if request.method == "GET" and request.path.endswith("/models"):
            return Response.json({"object": "list", "data": [{"id": "natural", "object": "model"}]})
        if not request.path.endswith("/chat/completions"):
            return Response.json({"error": {"message": "not found"}}, status=404)
        message = answer(catalogue, request.json(), style)
        return Response.json(completion(message, 0, 0))

    return handle


async def serve(catalogue: Catalogue, style: Style, host: str, port: int) -> None:
    """Listen until cancelled, printing ``READY <port>`` once listening."""
    server = HTTPServer(handler(catalogue, style), host, port, keep_requests=False)
    await server.start()
    print(f"READY {server.port}", flush=True)
    await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", required=True, help="comma-separated domains it knows")
    parser.add_argument("--tasks-of", default="", help="comma-separated task ids of the run")
    parser.add_argument("--seed", type=int, default=0, help="chooses the phrasings")
    parser.add_argument(
        "--closing", choices=CLOSINGS, default="mixed", help="how the report ends (default mixed)"
    )
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args(argv)
    ids = {t for t in args.tasks_of.split(",") if t} or None
    try:
        catalogue = Catalogue([d for d in args.domain.split(",") if d], ids)
    except UsageError as exc:
        print(f"--domain: {exc}", file=sys.stderr)
        return 2
    unknown = sorted((ids or set()) - catalogue.task_ids)
    if unknown:
        print(f"--tasks-of: no such task in --domain: {', '.join(unknown)}", file=sys.stderr)
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(catalogue, Style(args.seed, args.closing), args.host, args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
