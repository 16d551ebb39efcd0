"""Whether a paraphrased goal or opening still says which request it is: an intent classifier.

The classifier is built from the base-tier intents' own texts (a hard intent builds on a base
one's request, so the two cannot be told apart by their words): for each, the goals and
openings of a few tasks it samples (``IntentIndex.of``, seeded) plus any tasks given (the
templates being paraphrased). A text becomes its content words (lower case, letters only, a
light stem; stop words, the scenario's known values and words of fewer than three letters
left out). A word weighs ``log(intents / intents using it)`` (a word every intent uses weighs
nothing, one a single intent uses the most) times the share of the intent's texts that use it
(a word each of its openings says counts in full, an incidental one little). A text's score
for an intent is the sum of those weights over its words, per part (goal, opening).

``rank`` is the number of intents scoring at least as high as the task's own (ties count
against it; 0 when its own scores 0). A paraphrase keeps the intent when, in its goal and in
its opening, the rank is positive and no worse than the template's or ``NEAR``, and its own
intent's score is at least ``KEEP_SHARE`` of the template's (it keeps the request's key words):
"Hey, I have a problem with an order." ties with every retail intent that mentions an order and
is refused, where "Could you cancel order #W1?" ranks the cancelling intents first.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

from tau_sim.simulator.world import Domain, Task

Part = Literal["goal", "opening"]
PARTS: tuple[Part, ...] = ("goal", "opening")
SAMPLES_PER_INTENT = 8
"""Tasks each intent samples for the classifier's texts (a try that returns None counts)."""
NEAR = 3
"""A paraphrase may rank its intent this low even where its template ranked it higher."""
KEEP_SHARE = 1 / 3
"""The least share of its template's score for its own intent that a paraphrase keeps."""

STOP_WORDS = frozenset(
    """
    a about after again all also am an and any are as at be because been before being both
    but by can could did do does doing done for from get got had has have having he her
    here hers him his i if im in into is it its ive just let like me more most my
    myself need needs no not now of off on once one only or other our out over own please
    really same she should so some such than thank thanks that the their them then there
    these they this those through to too until up very want wanted was we were while will
    with would you your yours hello hi hey dear yes okay ok well sure help something anything
    question problem issue thing things calling contact account good morning afternoon evening
    """.split()  # noqa: SIM905
)
"""Words that say nothing about the request: greetings, function words and what any request
says ("help", "a problem", "my account"). Question words ("where", "how") stay: "where is my
order" is a request of its own."""

_WORD = re.compile(r"[a-z]+")


def stem(word: str) -> str:
    """A light stem: ``cancelled``, ``cancelling``, ``cancels`` -> ``cancel``."""
    for suffix in ("ment", "ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= (3 if suffix == "ment" else 4):
            word = word[: -len(suffix)]
            break
    if len(word) >= 5 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]
    return word


def words(text: str, values: Iterable[str] = ()) -> frozenset[str]:
    """The content words of ``text`` (see the module docstring), known ``values`` removed."""
    low = text.lower()
    for value in sorted((v.lower() for v in values if v), key=len, reverse=True):
        low = low.replace(value, " ")
    low = low.replace("'", "")
    return frozenset(stem(w) for w in _WORD.findall(low) if len(w) >= 3 and w not in STOP_WORDS)


def _part(task: Task, part: Part) -> str:
    return task.scenario.goal if part == "goal" else task.scenario.opening


class IntentIndex:
    """Each intent's words per part, each with its weight for that intent (module docstring)."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        counts: dict[Part, dict[str, Counter[str]]] = {p: defaultdict(Counter) for p in PARTS}
        texts: Counter[str] = Counter()
        for task in (t for t in tasks if t.tier == "base"):
            texts[task.intent] += 1
            values = task.scenario.known_info.values()
            for part in PARTS:
                counts[part][task.intent].update(words(_part(task, part), values))
        self.vocab: dict[Part, dict[str, dict[str, float]]] = {}
        for part in PARTS:
            users: Counter[str] = Counter()
            for found in counts[part].values():
                users.update(found.keys())
            weight = {w: math.log(len(counts[part]) / n) for w, n in users.items()}
            self.vocab[part] = {
                intent: {w: weight[w] * n / texts[intent] for w, n in found.items()}
                for intent, found in counts[part].items()
            }

    @classmethod
    def of(cls, domain: Domain, tasks: Sequence[Task] = (), seed: int = 0) -> IntentIndex:
        """The index of ``domain``'s intents: a few samples of each, plus ``tasks``."""
        rng = random.Random(f"{domain.name}:{seed}")
        texts = list(tasks)
        for intent in (i for i in domain.intents if i.tier == "base"):
            for _ in range(SAMPLES_PER_INTENT):
                task = intent.sample(domain, domain.new_database(), rng)
                if task is not None:
                    texts.append(msgspec.structs.replace(task, tier=intent.tier))
        return cls(texts)

    def scores(self, text: str, part: Part, values: Iterable[str] = ()) -> dict[str, float]:
        """The score of ``text`` (a goal or an opening) for each intent."""
        found = words(text, values)
        return {
            intent: sum(vocab.get(w, 0.0) for w in found)
            for intent, vocab in self.vocab[part].items()
        }

    def _own(self, task: Task, text: str, part: Part) -> tuple[int, float]:
        """The rank of ``task``'s intent for ``text`` (0: it scores 0) and its score."""
        scores = self.scores(text, part, task.scenario.known_info.values())
        own = scores.get(task.intent, 0.0)
        if own <= 0:
            return 0, 0.0
        return sum(1 for s in scores.values() if s >= own), own

    def rank(self, task: Task, text: str, part: Part) -> int:
        """How many intents score ``text`` at least as high as ``task``'s own (0: it scores 0)."""
        return self._own(task, text, part)[0]

    def keeps_intent(self, task: Task, goal: str, opening: str) -> bool:
        """Whether goal and opening each still say ``task``'s intent (the module docstring)."""
        texts: tuple[tuple[Part, str], ...] = (("goal", goal), ("opening", opening))
        for part, text in texts:
            new_rank, new_score = self._own(task, text, part)
            old_rank, old_score = self._own(task, _part(task, part), part)
            if new_rank == 0 or new_score < KEEP_SHARE * old_score:
                return False
            if new_rank > max(old_rank, NEAR):
                return False
        return True
