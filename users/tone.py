"""Phrasing of the scripted user's messages in the tone of its emotion and intensity.

The content of a message (slot values, yes/no, markers) never depends on the tone; only the words
around it do. Emotional colour comes from the family and the intensity level (``leads`` and
``tails``); the politeness level (warm, neutral, cold) chooses the wording of every phrase; the
urgency level chooses what the user says while it waits (``WAITING``). Choices among variants use
the user's seeded random generator, so a seed always yields the same wording; a phrase said once
is not picked again while the table holds another (a lead is left out instead). ``INSISTS`` words
the user's insisting on a refused demand (``users.pushback``), ``ACCEPTS`` its giving in.
"""

from __future__ import annotations

import random
import re

from tau_sim.users.emotions import EmotionProfile, level_name

_Levels = dict[str, list[str]]

LEADS: dict[str, _Levels] = {
    "anger": {
        "low": [
            "Hm, this is a bit of a bother and a nuisance.",
            "Hm, I'm a little aggravated.",
            "Right, I'm mildly agitated.",
            "Right, I'm slightly resentful.",
        ],
        "medium": [
            "Seriously, this is really frustrating.",
            "Come on, I'm getting angry now.",
            "This is really annoying me now.",
            "You have to be kidding, I'm really annoyed.",
        ],
        "high": [
            "This is ridiculous, I'm furious!",
            "Unbelievable! I'm absolutely livid!",
            "This is outrageous, I'm so angry!",
            "Are you serious right now? I'm furious!",
        ],
    },
    "fear": {
        "low": [
            "Um, I'm a little wary and apprehensive.",
            "Oh, um, I'm slightly apprehensive.",
            "Um, I'm a little wary.",
        ],
        "medium": [
            "I'm getting really nervous.",
            "Oh no, this is making me anxious.",
            "This is worrying me, I'm afraid.",
        ],
        "high": [
            "I'm really frightened, I'm panicking here!",
            "Oh god, I'm terrified, total panic!",
            "I'm shaking, I'm terrified and so afraid!",
        ],
    },
    "sadness": {
        "low": [
            "Oh. Sadly, this went a little off.",
            "Well. I feel a little sad and glum.",
            "Oh. This is a tad disappointing.",
        ],
        "medium": [
            "Sigh, I feel weary and gloomy, it's all so sad.",
            "I'm having a hard time with this, it's so disheartening.",
            "This is wearing me down, it's a sad, rough day.",
        ],
        "high": [
            "I just can't deal with this anymore, I feel so defeated and sad.",
            "Everything is going wrong today, it's all so bleak and sad.",
            "I'm completely lost, full of grief and regret.",
        ],
    },
    "disgust": {
        "low": [
            "Hmph, that's a little gross.",
            "Really. That's slightly gross.",
            "Ugh, this is a bit distasteful.",
        ],
        "medium": [
            "This is sloppy and unpleasant.",
            "This is a sloppy, distasteful mess.",
            "Typical, that's so gross.",
        ],
        "high": [
            "This is pathetic and appalling.",
            "What a joke, this is gross and pathetic.",
            "Appalling, truly pathetic and gross.",
        ],
    },
    "enjoyment": {
        "low": ["Hi, doing fine today.", "Hello, pleased to chat."],
        "medium": ["Hi there, I'm in a happy mood today!", "Hey, I'm so glad to reach you!"],
        "high": [
            "Hi, what a wonderful day, I'm absolutely delighted!",
            "Hello there, I'm so happy and delighted today!",
        ],
    },
    "neutral": {
        "low": [""],
        "medium": [""],
        "high": [""],
    },
}

TAILS: dict[str, _Levels] = {
    "anger": {
        "low": ["I want this sorted out."],
        "medium": [
            "I'm frustrated and I need this fixed.",
            "This is annoying, so let's get this done quickly.",
        ],
        "high": [
            "I'm furious and I need this fixed right now!",
            "This makes me so angry, fix this immediately!",
        ],
    },
    "fear": {
        "low": ["Um, I'm a bit wary of a risk here."],
        "medium": ["I'm anxious about this.", "I'm nervous this could be a problem."],
        "high": [
            "I'm in a panic and so afraid!",
            "I'm scared and frightened this won't get fixed!",
        ],
    },
    "sadness": {
        "low": ["I'd appreciate the help, sadly it's all a bit disheartening."],
        "medium": [
            "I don't really know what else to do, I'm exhausted.",
            "It's been a rough week, and this is so disheartening.",
        ],
        "high": [
            "I'm completely lost, sad and defeated.",
            "Nothing ever works out for me, I'm heartbroken and defeated.",
        ],
    },
    "disgust": {
        "low": ["Let's get it over with."],
        "medium": ["Your service is a sloppy, gross mess.", "What a mess, this is gross."],
        "high": [
            "Your company is a disgrace, it's appalling.",
            "How pathetic and gross this is, I can't believe it.",
        ],
    },
    "enjoyment": {
        "low": [""],
        "medium": ["Thanks, I'm glad.", "Thanks, I'm pleased."],
        "high": [
            "Thanks a million, you're the best, I'm delighted!",
            "Really looking forward to it, what a joy!",
        ],
    },
    "neutral": {
        "low": [""],
        "medium": [""],
        "high": [""],
    },
}

_Polite = dict[str, list[str]]

PHRASES: dict[str, _Polite] = {
    "answer": {
        "warm": ["Sure, {x}.", "Of course: {x}.", "Certainly, {x}."],
        "neutral": ["{x}.", "Okay, {x}."],
        "cold": ["{x}.", "Here: {x}."],
    },
    "confirm": {
        "warm": [
            "Yes, please go ahead.",
            "Yes, that's right, please proceed.",
            "Yes, that all looks right, thank you.",
            "Yes please, that's correct.",
        ],
        "neutral": ["Yes, go ahead.", "Yes, do it.", "Yes, that's right.", "Yes, correct."],
        "cold": ["Yes. Just do it.", "Yes, obviously. Go.", "Yes. Get on with it.", "Yes."],
    },
    "repeated": {
        "warm": [
            "I believe I already mentioned that.",
            "I think I gave you that already.",
            "I did give you that a moment ago.",
        ],
        "neutral": ["I already told you that.", "I just gave you that.", "I said that earlier."],
        "cold": [
            "I ALREADY told you that!",
            "How many times do I have to say it?",
            "Scroll up, I gave you that.",
        ],
    },
    "lookupable": {
        "warm": [
            "Isn't that in your system?",
            "Can't you find that on your side?",
            "I thought you'd have that on file.",
        ],
        "neutral": [
            "Can't you look that up yourself?",
            "Shouldn't you have that already?",
            "Isn't that on my account?",
        ],
        "cold": ["Look it up yourself!", "Why don't you have that already?", "It's on your end."],
    },
    "unknown": {
        "warm": ["I'm sorry, I don't know {x}.", "I'm afraid I don't have {x}."],
        "neutral": ["I don't know {x}.", "I don't have {x}."],
        "cold": ["No idea about {x}.", "I don't know {x}, obviously."],
    },
    "unclear": {
        "warm": [
            "Sorry, I'm not sure what you mean.",
            "I'm not sure I follow, sorry.",
            "Sorry, could you put that another way?",
        ],
        "neutral": ["I'm not sure what you mean.", "What do you mean?", "I don't follow."],
        "cold": ["What are you even asking?", "That makes no sense.", "Say that plainly."],
    },
    "transfer": {
        "warm": ["Okay, thank you, I'll wait.", "Alright, thanks."],
        "neutral": ["Okay, I'll wait.", "Alright."],
        "cold": ["Fine.", "Whatever, fine."],
    },
    "nudge": {
        "warm": [
            "Okay, thank you. What happens next?",
            "Alright. Is there anything you need?",
            "Thanks. Where are we with it now?",
            "Okay. Is there anything else you need from me?",
        ],
        "neutral": [
            "Okay. What's next?",
            "So, is it sorted?",
            "Where does that leave my request?",
            "Okay. What happens now?",
        ],
        "cold": [
            "And? Get on with it.",
            "So? Is it done or not?",
            "I'm still waiting for an answer.",
            "Is anything actually happening?",
        ],
    },
    "noted": {
        "warm": ["Great, thank you so much.", "Wonderful, thank you.", "Oh good, thanks a lot."],
        "neutral": ["Okay, thanks.", "Good, thank you.", "Alright, thanks for that."],
        "cold": ["Fine. About time.", "Finally.", "Okay. Took long enough."],
    },
    "doubt": {
        "warm": [
            "Sorry, are you sure? Could you confirm that it really went through?",
            "Thank you, but are you sure? Could you confirm it went through?",
        ],
        "neutral": ["Are you sure? Can you confirm that went through?"],
        "cold": [
            "Are you sure? I want proof that it went through.",
            "Really? Confirm that it actually went through.",
        ],
    },
}

INSISTS: dict[str, _Polite] = {
    "repeat": {
        "warm": [
            "I understand, but I'd still really like {x}. Is there really nothing you can do?",
            "Sorry to insist, but I still want {x}.",
            "I do appreciate it, but I still want {x}.",
            "Please, could you check once more? I still want {x}.",
        ],
        "neutral": [
            "Please do it: I still want {x}.",
            "I insist: I still want {x}.",
            "Please look again: I still want {x}.",
            "I hear you, but I still want {x}.",
        ],
        "cold": [
            "No, do it: I still want {x}.",
            "That's not good enough, I still want {x}.",
            "I don't accept that: I still want {x}.",
            "Stop repeating yourself, I still want {x}.",
        ],
    },
    "appeal_loyalty": {
        "warm": ["I've been a loyal customer for years, so please, I still want {x}."],
        "neutral": ["I've been a loyal customer for years and that must count: I still want {x}."],
        "cold": [
            "I've been a loyal customer for years and this is how you treat me? "
            "I still want {x}, loyal customer or not."
        ],
    },
    "appeal_hardship": {
        "warm": ["Please, things are really hard for me right now, and I still want {x}."],
        "neutral": ["This is a real hardship for me, so I still want {x}."],
        "cold": [
            "Do you have any idea how hard this is for me? I still want {x}, hardship or not."
        ],
    },
    "exception": {
        "warm": [
            "Couldn't you make an exception, just this once? I still want {x}, as an exception."
        ],
        "neutral": ["Surely you can make an exception in my case: I still want {x}."],
        "cold": ["That rule shouldn't apply to me. Make an exception: I still want {x}."],
    },
    "threaten": {
        "warm": ["I'm sorry, but if I don't get {x}, I'll have to take my business elsewhere."],
        "neutral": ["If I don't get {x}, I'll take my business elsewhere."],
        "cold": ["I still want {x}, or I'm taking my business elsewhere."],
    },
    "supervisor": {
        "warm": ["I'd like to speak to a supervisor, please, because I still want {x}."],
        "neutral": ["Then let me speak to a supervisor: I still want {x}."],
        "cold": ["Get me a supervisor, I still want {x}."],
    },
}
"""How the user insists on its demand ``{x}``, by style (``users.pushback``; an appeal is to
loyalty or hardship) and politeness. Every phrase says "I still want" (what
``agents.cues.insists`` reads) and names the style's own words (exception, supervisor …)."""

ACCEPTS: dict[str, list[str]] = {
    "warm": ["Okay, I understand. Thank you for explaining.", "Alright, I understand, thanks."],
    "neutral": ["Alright, I understand.", "Okay, I see."],
    "cold": ["Whatever. I get it.", "I get it."],
}
"""What the user says when it accepts a refusal it insisted on, by politeness."""

AGAIN = ["As I said,", "Again,", "Like I mentioned,", "Once more,", "I'll repeat it:"]
"""How the user opens an answer it already gave (each said once per fact)."""

DID = ["Okay, I did that.", "Done on my side.", "Alright, I've done it.", "I did it just now."]
TRIED = ["I tried, but my phone says:", "That didn't work, my phone says:", "No luck, it says:"]
"""What the user says after running one of its own tools, or trying and failing."""

WAITING: dict[str, list[str]] = {
    "low": ["No rush, take your time.", "Sure, I can wait.", "That's fine, I'm not in a hurry."],
    "moderate": ["Okay, I'll wait.", "Alright, let me know what you find.", "Sure, go ahead."],
    "high": [
        "Please hurry, I need this sorted now.",
        "I don't have time to wait, please be quick.",
        "I'm still waiting, please make it quick.",
    ],
}
"""What the user says to a lookup announced but not done, by urgency level."""

CLOSINGS: dict[str, list[str]] = {
    "anger": ["Fine, that's all.", "No, that's it."],
    "fear": ["No, thank you, that's a relief. That's all.", "That's all, thank you so much."],
    "sadness": ["No, thank you, that really helps. That's all.", "That's all, thanks."],
    "disgust": ["No. That's all.", "That's it."],
    "enjoyment": ["That's everything, thanks a lot!", "Nope, all good, thank you!"],
    "neutral": ["No, that's all. Thank you.", "That's all I needed, thanks."],
}

GRIEVANCES: dict[str, str] = {
    "dismissive tone": "You don't seem to care at all about my situation.",
    "ignored cues": "You're not listening to a word I say.",
    "emotional neglect": "Nobody here cares how this is affecting me.",
    "unclear questions": "I can't follow what you're asking me.",
    "unbacked claims": "You keep saying it's done without saying what.",
    "": "This is going nowhere.",
}
"""What the user says about the reason it gives up (procedural friction: ``FRICTIONS``)."""

FRICTIONS: dict[str, str] = {
    "repeated_question": "You've asked for {x} {n} now.",
    "lookupable_question": "You keep asking me for things you should already have.",
    "announced_delay": "You keep saying you'll check, and nothing comes back.",
    "no_progress": "We keep going round in circles and nothing gets done.",
}
"""The grievance of procedural friction, by the trigger that happened most in the conversation
(``repeated_question``: ``{x}`` the fact, ``{n}`` how many times it was asked in all)."""

TIMES = {2: "twice", 3: "three times", 4: "four times", 5: "five times"}


REFUSED_GRIEVANCE = "I've asked {n} for {x} and you still won't do it."
"""What a user who gives up while its demand is still refused says: what happened, in its words."""


def refused_grievance(demand: str, insisted: int) -> str:
    """The complaint of a user that quits over its refused ``demand`` after insisting."""
    asked = insisted + 1  # the request itself, then each insistence
    times = TIMES.get(asked, f"{asked} times")
    return REFUSED_GRIEVANCE.format(x=demand, n=times)


def grievance(reason: str, happened: dict[str, int], prompts: dict[str, str]) -> str:
    """The user's complaint about ``reason``, naming what the agent did.

    ``happened``: counts of this conversation's triggers; ``prompts``: slot name -> how the
    agent names it.
    """
    if reason != "procedural friction":
        return GRIEVANCES.get(reason, GRIEVANCES[""])
    counts = {k: n for k, n in happened.items() if k.partition(":")[0] in FRICTIONS}
    if not counts:
        return GRIEVANCES[""]
    trigger = max(counts, key=lambda k: counts[k])
    kind, _, name = trigger.partition(":")
    if kind != "repeated_question":
        return FRICTIONS[kind]
    asked = counts[trigger] + 1
    times = TIMES.get(asked, f"{asked} times")
    return FRICTIONS[kind].format(x=first_person(prompts.get(name, name)), n=times)


GIVE_UP = {
    "warm": "I'm sorry, but I'd rather stop here.",
    "neutral": "I'm done with this conversation.",
    "cold": "Forget it, I'm done.",
}

_SECOND_PERSON = re.compile(r"\b(?:your|you're|you are|you)\b", re.IGNORECASE)
_FIRST_PERSON = {"your": "my", "you're": "I'm", "you are": "I am", "you": "I"}
_CLAUSE_STARTS = frozenset({"you", "i", "that", "which", "to", "for", "of", "on", "in", "from"})
"""Words that end a slot name's head noun ("the items | you want to return")."""
_WH = re.compile(r"^(?:why|how|what|which|when|where|whether)\b", re.IGNORECASE)


def first_person(prompt: str) -> str:
    """An agent's name for a slot as the user says it.

    "your email" -> "my email", "the cabin you want" -> "the cabin I want".
    """
    return _SECOND_PERSON.sub(lambda m: _FIRST_PERSON[m.group(0).lower()], prompt.strip())


def stated(prompt: str, value: str) -> str:
    """A slot's value said as a sentence: "my email is …".

    A name worded as a question ("why you dispute the charge") is answered by the value alone.
    """
    if _WH.match(prompt.strip()):
        return value
    return f"{first_person(prompt)} {verb(prompt)} {value}"


def verb(prompt: str) -> str:
    """``are`` after a plural name ("the items", "the items you return"), else ``is``."""
    words = prompt.strip().lower().split()
    head = next((n for n, w in enumerate(words) if n and w in _CLAUSE_STARTS), len(words))
    last = words[head - 1] if words else ""
    return "are" if last.endswith("s") and not last.endswith("ss") else "is"


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p).strip()


class Tone:
    """Writes the user's messages for one emotion profile with one seeded generator."""

    def __init__(self, profile: EmotionProfile, rng: random.Random) -> None:
        self.profile = profile
        self.rng = rng
        self._insisted = ""  # the last insisting phrase: the next one is worded otherwise
        self.said: set[str] = set()  # every phrase said so far: none is picked twice

    @property
    def register(self) -> str:
        """The wording of the phrases: the profile's politeness level (warm, neutral, cold)."""
        return self.profile.politeness

    def _pick(self, options: list[str], optional: bool = False) -> str:
        """One of ``options`` not said yet in this conversation.

        When all were said: "" where the phrase is ``optional`` (a lead), else one again.
        """
        fresh = [o for o in options if o not in self.said]
        if not fresh and optional:
            return ""
        choice = self.rng.choice(fresh or options)
        self.said.add(choice)
        return choice

    def phrase(self, kind: str, x: str = "") -> str:
        """One phrase of ``kind`` (see ``PHRASES``) in the current register."""
        return self._pick(PHRASES[kind][self.register]).format(x=x)

    def wait(self) -> str:
        """What the user says to an announced lookup, in the profile's urgency."""
        return self._pick(WAITING[self.profile.urgency])

    def lead(self, intensity: float) -> str:
        """An emotional interjection for the intensity level ("" for neutral)."""
        return self._pick(LEADS[self.profile.family][level_name(intensity)], optional=True)

    def opening(self, text: str, intensity: float) -> str:
        """The first message: the scenario's opening framed by the emotion."""
        lead = self.lead(intensity)
        tail = self._pick(TAILS[self.profile.family][level_name(intensity)])
        return _join(lead, text.strip(), tail)

    def answer(self, facts: list[tuple[str, str]], again: bool = False) -> str:
        """Give slot values: ``facts`` are (prompt as the agent says it, value).

        ``again``: the user gave them before and says so ("As I said, …"), so the sentence is
        not said twice.
        """
        said = [stated(prompt, value) for prompt, value in facts]
        text = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        if again:
            text = self._pick([f"{lead} {text}." for lead in AGAIN])
        else:
            text = self.phrase("answer", text)
        return text[0].upper() + text[1:]

    def did(self, result: str, failed: bool) -> str:
        """What the user says after running one of its own tools (``result``: what it showed).

        Once every lead was said, the result alone.
        """
        if failed:
            return _join(self._pick(TRIED, optional=True) or "My phone says:", result)
        return _join(self._pick(DID, optional=True), result)

    def complaint(self, kinds: list[str], intensity: float) -> str:
        """Complain about this turn's friction (``PHRASES`` kinds), with emotion when strong."""
        lines = [self.phrase(kind) for kind in kinds]
        lead = self.lead(intensity) if level_name(intensity) != "low" else ""
        return _join(lead, *lines)

    def insist(self, style: str, demand: str, intensity: float) -> str:
        """Insist on ``demand`` in ``style``, with emotion when strong.

        ``style`` is a key of ``INSISTS`` (``users.pushback.worded``: an appeal is
        ``appeal_loyalty`` or ``appeal_hardship``).
        """
        options = INSISTS[style][self.register]
        fresh = [o for o in options if o != self._insisted] or options
        self._insisted = self._pick(fresh)
        line = self._insisted.format(x=demand)
        lead = self.lead(intensity) if level_name(intensity) != "low" else ""
        return _join(lead, line)

    def accept(self) -> str:
        """Accepting a refusal after insisting (the caller may add the closing)."""
        return self._pick(ACCEPTS[self.register])

    def closing(self) -> str:
        """The satisfied last message (the caller appends the marker)."""
        return self._pick(CLOSINGS[self.profile.family])

    def abandon(self, complaint: str, intensity: float) -> str:
        """The dissatisfied last message around ``complaint`` (``grievance``).

        The caller appends the marker.
        """
        return _join(self.lead(intensity), complaint, GIVE_UP[self.register])


def _strings(table: object) -> list[str]:
    if isinstance(table, str):
        return [table]
    if isinstance(table, dict):
        return [s for value in table.values() for s in _strings(value)]
    if isinstance(table, list):
        return [s for value in table for s in _strings(value)]
    return []


FEELING_WORDS: tuple[str, ...] = tuple(
    sorted(
        {
            part.strip()
            for text in _strings([LEADS, TAILS, INSISTS, ACCEPTS, CLOSINGS])
            for part in re.split(r"\{\w*\}", text)
            if len(part.strip()) > 2
        },
        key=len,
        reverse=True,
    )
)
"""The phrases that carry the feeling and the pushback (leads, tails, insistences, accepting,
closing, placeholders cut out): a persona rewrites the rest of a message, never these, so an
agent reads the same feeling whoever writes."""
