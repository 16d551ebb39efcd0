"""Which of the user's own tools an agent's request asks for, read by meaning (``StepHint``).

A sentence is cut into clauses ("…, then …", "…; …", "…, and after that …"). A clause that is
a condition or a reason ("if you see a plane icon", "so it picks up the change") asks for
nothing; a clause that asks (a question, a request, an imperative) is read in one of two moods:

- *change* when its first verb changes something ("turn", "disable", "reset", "pop out" …):
  the tools whose ``does`` it names ("please switch Data Saver off");
- *look* otherwise ("check", "tell me whether", "is … on?"): the tools whose ``shows`` it
  names ("is Data Saver on?"; "do you see a plane icon?" is the status bar's).

Where two tools' phrases overlap in a clause the longer one wins. A change clause that names no
tool ("tap it once to switch it off") is about the last thing a tool changes that the text
named before it. The steps come out in the order the text asks them, each once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tau_sim.simulator.world import UserStep
from tau_sim.users.cues import CONFIRMATION

_CHANGES = (
    "turn|switch|toggle|flip|disable|enable|activate|deactivate|allow|grant|give|reset|restore"
    "|set|change|pick|select|choose|disconnect|connect|install|apply|download|remove|take|pop"
    "|eject|re-?insert|insert|put|slide|push|re-?seat|re-?start|re-?boot|power|cancel|stop|clear"
    "|untick|uncheck|lift|swap|approve|accept|start|power-cycle|pull|close|quit|exit|end"
)
CHANGE_VERBS = re.compile(
    r"(?<![\w'-])(?:(?:" + _CHANGES + r")(?:ing)?(?<!take)(?<!taking)"
    r"|take|taking|setting(?= (?:it|them|this|that|the|your|up|back|to)\b)|putting|popping"
    r"|stopping|swapping|giving|removing|restoring"
    r"|update(?= (?:your|the|it)\b)|(?:get|bring) (?:\w+ ){0,3}out of"
    r"|(?:tap|press|hit|click) [\"']?(?:[\w-]+ ){0,3}(?:icon|tile|switch|toggle|button|disconnect"
    r"|install|restart|reset|off|on))(?![\w'-])(?! a (?:quick |closer )?look)"
)
LOOK_VERBS = re.compile(
    r"(?<![\w'-])(?:check|see|look|take a (?:quick |closer )?look|tell me|let me know|read|what"
    r"|which|whether|how many|how"
    r" fast|glance|find out|verify|confirm|do you see|describe|^is|^are|^does|^do|^any)(?![\w'-])"
)
CONDITION = re.compile(
    r"^(?:and |but )?(?:if|when|once|after|before|since|because|as soon as|unless|while"
    r"|so that|so|in case|otherwise|as|just to be sure|to make sure|now that|until)\b"
)
ASKING = re.compile(
    r"(?<![\w'])(?:please|could you|can you|would you|will you|would you mind|tell me|let me"
    r" know|let's|let us|go ahead|try|i need you to|i'd like you to|make sure|i'll need you to"
    r"|^you(?:'ll| will)? need to|^you should|read me|walk me|i'd like to (?:see|know|check)"
    r"|i want to (?:see|know|check))(?![\w'])"
)
IMPERATIVE = re.compile(
    r"^(?:open|go|tap|turn|switch|check|look|restart|reboot|power|take|pop|remove|eject"
    r"|reinsert|insert|put|slide|push|lift|toggle|enable|disable|activate|deactivate|allow"
    r"|grant|give|install|download|apply|run|try|dial|call|ring|send|text|attach|set|change"
    r"|pick|select|choose|reset|restore|disconnect|connect|flip|swipe|pull|scroll|long-press"
    r"|hold|press|use|measure|make|place|glance|see|read|tell|let|find|head|navigate|hit|wait"
    r"|confirm|verify|note|clear|cancel|stop|keep|leave|reseat|scan|compare|start"
    r"|unlock|close|reopen|do|get|double-check|search|share|launch|visit)\b"
)
_LEAD = re.compile(
    r"^(?:(?:please|now|first|firstly|second|next|then|and|also|finally|lastly|ok|okay|great"
    r"|so|after that|once that's done|once you've done that|to start|last|quickly|just|then"
    r"|step \d+|\d+[.)]|[-*•])\b[,:.]?\s*)+"
)
_CLAUSES = re.compile(
    r"\s*(?:;|:\s|\s[—-]\s|,?\s+(?:and\s+)?then\b|,?\s+and\s+after\s+that\b|,\s+after\s+that\b"
    r"|,\s+(?:and\s+)?(?=(?:if|once|when|after|before|so|since|because|as soon as|and|but"
    r"|then|while|please|what|which|how|is|are|does|do|could|can|would)\b)"
    r"|,?\s+(?=(?:so (?:that|it|the|you|your|we|they|calls|apps|nothing)|since|because)\b)"
    r"|\s+and\s+(?=(?:tell|let|see|read|check|send|call|restart|reboot|turn|switch|run|make"
    r"|try|put|slide|push|choose|pick|select|measure|allow|give|set|reset|install|then)\b)"
    r"|,\s+(?=(?:tell|let|see|read|check|send|call|restart|reboot|turn|switch|run|make|try|put"
    r"|slide|push|lift|reinsert|choose|pick|select|measure|hit|tap|allow|give|set|reset|install"
    r"|wait|use|open|go|pop|reseat|remove|take|change|toggle|enable|disable|grant|update"
    r"|disconnect|connect|power|dial)\b))"
)
_STATEMENT = re.compile(r"^(?:it|this|that|which|they|these|those|you|your|the phone|there|we|i)\b")
_QUALIFIER = re.compile(
    r"(?:\b(?:for|over|using|via|through)|(?<!turn )(?<!switch )(?<!turning )(?<!switching )\bon)"
    r" (?:the |your )?$"
)
"""What a phrase after another tool's says it is for ("the APN your phone uses for mobile data")."""
_REPORTED = re.compile(
    r"(?:(?:and |but )?(?:so far|already|now)[,:]? )?(?:we|you|i)(?:'ve| have)?"
    r" (?:already |now |just )?(?:\w+ed|done|run|set|reset|put|made|taken|switched|turned)\b"
)
"""A clause that reports what was done ("so far we've turned mobile data on", "you reset the APN");
the clauses joined to it by "and" or a comma report too."""
_NAMED_SUBJECT = re.compile(
    r"^[\w-]+ [\w-]+ (?:is|are|was|were|has been|have been|seems|looks|stays|shows)\b"
)
"""A clause whose first word could be an imperative but is a subject ("call forwarding is off")."""
_PLACE = re.compile(
    r"^(?:on|in|under|from|at|within|inside|back in|back on) (?:that |this |the |your )?"
    r"(?:same |very )?[\w' -]*$"
)
"""A clause that only says where something is ("on that same permissions page"): it names a
screen, not a step."""
_VERB = re.compile(CHANGE_VERBS.pattern + "|" + LOOK_VERBS.pattern + "|" + IMPERATIVE.pattern)


def _compile(parts: Sequence[str]) -> re.Pattern[str] | None:
    if not parts:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + ")")


class StepReader:
    """Reads the user-tool requests of agent sentences, for one domain's user tools."""

    def __init__(self, steps: Sequence[UserStep]) -> None:
        self.shows: list[tuple[re.Pattern[str], str]] = []
        self.does: list[tuple[re.Pattern[str], str]] = []
        self.either: list[tuple[re.Pattern[str], str]] = []
        for step in steps:
            literal = [re.escape(k.lower()) for k in step.keywords]
            look = _compile([*step.shows, *literal]) if step.shows or not step.does else None
            change = _compile([*step.does, *literal]) if step.does or not step.shows else None
            if look is not None and step.does and step.shows == step.does:
                self.either.append((look, step.name))
                continue
            if look is not None:
                self.shows.append((look, step.name))
            if change is not None:
                self.does.append((change, step.name))
        self.last_changed = ""
        self.last_shown = ""

    def start(self) -> None:
        """Forget what the previous text named (a new text)."""
        self.last_changed = self.last_shown = ""

    def read(self, sentence: str, question: bool) -> list[str]:
        """The tools one sentence asks for, in order (``question``: it asks with "?").

        Steps the sentence only mentions are remembered as what a later "it" refers to.
        """
        asked: list[str] = []
        whole = _spans(self.either, sentence)
        mood = asking = False
        guide: list[str] = []  # the tools a clause that only says where to go named
        described = False  # the clause lists what the agent itself does ("I'll do this: …")
        reported = False  # the clause reports what was done ("we've turned data on and …")
        previous = previous_end = 0
        for start, end in _clauses(sentence):
            raw = sentence[start:end]
            clause = _LEAD.sub("", raw.strip(" ,.-—*"))
            described = sentence[previous:start].strip().startswith(":") and (
                described or bool(AGENT_DID.search(sentence[:previous]))
            )
            previous = end
            if not clause or described:
                continue
            if _PLACE.match(clause) and not _VERB.search(clause):
                continue
            joined = sentence[previous_end:start].strip(" ,") in ("", "and", "and then", "then")
            reported = bool(_REPORTED.match(raw.strip(" ,.-—*"))) or (joined and reported)
            previous_end = end
            if reported:
                continue
            conditional = bool(CONDITION.match(clause)) and not ASKING.search(clause)
            imperative = IMPERATIVE.match(clause) and not _NAMED_SUBJECT.match(clause)
            own = question or bool(ASKING.search(raw) or imperative)
            if own or _VERB.search(clause) or _STATEMENT.match(clause):
                asking = own
                mood = _mood_is_change(clause)
            offset = sentence.find(clause, start)
            spans = _spans(self.does if mood else self.shows, clause)
            found = _pruned(
                [(s + offset, e + offset, n) for s, e, n in spans]
                + [(s, e, n) for s, e, n in whole if start <= s < end]
            )
            found = [
                span
                for i, span in enumerate(found)
                if not (i or asked or guide) or not _QUALIFIER.search(sentence, 0, span[0])
            ]
            changed = found if mood else _matches(self.does, clause)
            if changed:
                self.last_changed = changed[-1][2]
            if conditional or not asking:
                shown = _matches(self.shows, clause)
                if not asking and shown:
                    self.last_shown = shown[-1][2]
                continue
            if guide and mood and found:
                asked = [n for n in asked if n not in guide]
            if _GUIDE.match(_bare(clause)) and not mood:
                guide = [n for _, _, n in found] or guide
            elif found or mood:
                guide = []
            if not found and _refers(clause) and not CONFIRMATION.search(clause):
                referent = self.last_changed if mood else self.last_shown
                if referent:
                    asked.append(referent)
            asked.extend(name for _, _, name in found)
        return list(dict.fromkeys(asked))


_GUIDE = re.compile(
    r"^(?:open|go (?:to|into)|head (?:to|into)|navigate to|swipe|pull down|scroll|long-press"
    r"|find|launch)\b(?!.*\b(?:check|see|tell|read|whether|what|which|look)\b)"
)
"""A clause that only says where to go ("open the Messages app's settings"): when the next
clause changes what it named, the change is the step, not a look at it."""
AGENT_DID = re.compile(
    r"(?:i am|i'm|we are|we're) going to do|(?:i|we)(?:'ll| will) (?:do|make|set up)\b"
    r"|(?:has|have) been done|what i(?:'ve| have) done|what i did|(?:i|we)(?:'ve| have) (?:done"
    r"|made|set up|tried|checked|covered|gone through|worked through|been through)\b"
    r"|(?:we|i) (?:did|tried|checked|covered|went through|worked through)\b"
    r"|(?:recap|summary|to sum up)\b"
)
"""What the agent says it does or did before a colon: the list after it is no request."""
_ASK_PREFIX = re.compile(r"^(?:(?:could|can|would|will) you (?:please |kindly |also )?|please )")


def _bare(clause: str) -> str:
    return _ASK_PREFIX.sub("", clause)


def _clauses(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of each clause of ``sentence``."""
    bounds = [0]
    for cut in _CLAUSES.finditer(sentence):
        bounds.extend((cut.start(), cut.end()))
    bounds.append(len(sentence))
    return [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]


def _mood_is_change(clause: str) -> bool:
    """Whether the clause's first verb changes something (else it looks at something)."""
    change = CHANGE_VERBS.search(clause)
    if change is None:
        return False
    look = LOOK_VERBS.search(clause)
    return look is None or change.start() < look.start()


def _refers(clause: str) -> bool:
    """Whether a clause that names no tool refers to one named before ("switch it off")."""
    return bool(
        re.search(
            r"(?<![\w'])(?:it|that|this|them|those|one|yours|all of it|(?:shown|selected|set|says"
            r"|listed|displayed|written) there)(?![\w'])",
            clause,
        )
    )


def _spans(table: Sequence[tuple[re.Pattern[str], str]], text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), name) for p, name in table for m in p.finditer(text)]


def _pruned(spans: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The spans in order, each tool once; a phrase overlapping a longer one is dropped."""
    kept = sorted(
        (s, e, n)
        for s, e, n in spans
        if not any(s2 < e and s < e2 and e2 - s2 > e - s for s2, e2, n2 in spans if n2 != n)
    )
    ordered: list[tuple[int, int, str]] = []
    for span in kept:
        if all(span[2] != n for _, _, n in ordered):
            ordered.append(span)
    return ordered


def _matches(table: Sequence[tuple[re.Pattern[str], str]], text: str) -> list[tuple[int, int, str]]:
    """(start, end, tool) of the phrases of ``table`` in ``text`` (see ``_pruned``)."""
    return _pruned(_spans(table, text))
