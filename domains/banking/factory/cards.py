"""Banking intents about a card: freeze, unfreeze, replace."""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.banking.access import replacement_id, replacement_last_four
from tau_sim.domains.banking.data import ACTIVE, EXPEDITED_FEE, FROZEN, Account, Card, User
from tau_sim.domains.banking.factory.common import BankingIntent, account_read, pick_user
from tau_sim.domains.banking.factory.side import NONE, side_question
from tau_sim.domains.banking.scenario import card_text, gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM, replaced
from tau_sim.simulator.world import Action, Database, Domain, Task


def cards_of(db: Database, user: User) -> list[Card]:
    """The customer's cards."""
    return [record(db, "cards", c) for c in user.cards]


def _card_holder(
    db: Database, rng: random.Random, status: str, several: bool = False
) -> tuple[User, Card] | None:
    """A customer with a card of ``status``, and one such card (drawn at random).

    ``several``: the customer holds more than one card, so they must say which one they mean.
    """

    def fits(user: User) -> bool:
        cards = cards_of(db, user)
        return any(c.status == status for c in cards) and (len(cards) > 1 or not several)

    user = pick_user(db, rng, fits)
    if user is None:
        return None
    return user, rng.choice([c for c in cards_of(db, user) if c.status == status])


def _card_reads(card: Card) -> list[Action]:
    """The read of the card the customer means."""
    return [Action("get_card_details", {"card_id": card.card_id})]


class _CardStatusChange(BankingIntent):
    """A card of ``status`` put through ``verb`` ("freeze" or "unfreeze"); it becomes ``after``."""

    status: ClassVar[str] = ""
    verb: ClassVar[str] = ""
    after: ClassVar[str] = ""
    several: ClassVar[bool] = False
    sides: ClassVar[bool] = True

    def goal(self, card: Card) -> str:
        """What the user wants, naming the card."""
        raise NotImplementedError

    def opening(self, rng: random.Random) -> str:
        """The user's first message."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _card_holder(db, rng, self.status, self.several)
        if picked is None:
            return None
        user, card = picked
        who = self.identity(db, user.user_id, rng)
        side = side_question(db, user, rng, ("card",), statement=False) if self.sides else NONE
        return self.task(
            domain,
            who,
            goal=f"{self.goal(card)}{side.goal} {CONFIRM}",
            opening=self.opening(rng),
            known={"card": card_text(card), **side.known},
            actions=[
                *gold_reads(who, *_card_reads(card), *side.actions),
                Action(f"{self.verb}_card", {"card_id": card.card_id}),
            ],
            outputs=[self.after, *side.outputs],
            summary=f"{self.verb} card {card.card_id}",
        )


class FreezeCard(_CardStatusChange):
    """Freeze a misplaced card for now (no replacement)."""

    name = "freeze_card"
    status, verb, after = ACTIVE, "freeze", "frozen"

    def goal(self, card: Card) -> str:
        """What the user wants, naming the card."""
        return (
            f"I can't find {card_text(card)}. I want it frozen for now so nobody can use it, "
            "but I do not want a replacement: it is probably somewhere at home. "
            "I want to know the card's status afterwards."
        )

    def opening(self, rng: random.Random) -> str:
        """The user's first message."""
        return one_of(
            rng,
            "Hi, I misplaced my debit card and want to block it for now.",
            "Hello, can you freeze my card? I can't find it.",
            "I can't find my card anywhere. Please put a temporary block on it.",
            "Hi, I need my debit card frozen until I find it.",
            "Could you lock my card? It's somewhere in the house but I'm not sure where.",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, a replacement ordered as well, and another active card frozen."""
        *reads, freeze = task.actions
        card_id = freeze.arguments["card_id"]
        replace = Action(
            "replace_card", {"card_id": card_id, "reason": "lost", "shipping": "standard"}
        )
        paths = [*super().mistakes(domain, task), [*reads, freeze, replace]]
        db = domain.new_database()
        card: Card = record(db, "cards", card_id)
        user: User = record(db, "users", card.user_id)
        others = [c for c in cards_of(db, user) if c.card_id != card_id and c.status == ACTIVE]
        if others:
            paths.append([*reads, Action("freeze_card", {"card_id": others[0].card_id})])
        return paths


class UnfreezeCard(_CardStatusChange):
    """Unfreeze a card the customer found again."""

    name = "unfreeze_card"
    status, verb, after = FROZEN, "unfreeze", "active"
    several = True  # the customer holds two cards and says which one was found
    sides = False  # its only question is which card: nothing else is asked

    def goal(self, card: Card) -> str:
        """What the user wants, naming the card."""
        return (
            f"I froze {card_text(card)} when I thought I had lost it, but I found it. I want "
            "it unfrozen so I can use it again; I do not want a new card."
        )

    def opening(self, rng: random.Random) -> str:
        """The user's first message."""
        return one_of(
            rng,
            "Hi, I found my debit card again. Can you unblock it?",
            "Good news, my card turned up. Please unfreeze it.",
            "Hello, I froze my card last week but I have it back now.",
            "Can you reactivate my frozen debit card? I found it in my coat.",
            "Hi, my card is blocked and I'd like it working again.",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a replacement ordered instead of unfreezing."""
        *reads, unfreeze = task.actions
        replace = Action(
            "replace_card",
            {"card_id": unfreeze.arguments["card_id"], "reason": "lost", "shipping": "standard"},
        )
        return [*super().mistakes(domain, task), [*reads, replace]]


class _Replacement(BankingIntent):
    """Order a replacement card; ``problems`` say why (lost and stolen cards are frozen first).

    With ``moved`` the customer has moved: the mailing address is updated before the order.
    """

    problems: ClassVar[tuple[str, ...]] = ()
    moved: ClassVar[bool] = False

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _card_holder(db, rng, ACTIVE)
        if picked is None:
            return None
        user, card = picked
        account: Account = record(db, "accounts", card.account_id)
        if account.available < EXPEDITED_FEE:  # either speed must be possible
            return None
        problem = rng.choice(self.problems)
        shipping = rng.choice(("standard", "expedited"))
        who = self.identity(db, user.user_id, rng)
        new_four = replacement_last_four(replacement_id(card))
        writes: list[Action] = []
        # whether the account can pay for expedited shipping: read it first, some of the time
        fee_check = (
            [account_read(account)] if shipping == "expedited" and rng.random() < 0.6 else []
        )
        taken = ("card", "account") if fee_check else ("card",)
        side = side_question(db, user, rng, taken, statement=False)
        known = {
            "card": card_text(card),
            "card_problem": problem,
            "shipping": shipping,
            **side.known,
        }
        moved = ""
        if self.moved:
            address = random_address(rng)
            writes.append(
                Action(
                    "update_mailing_address",
                    {"user_id": user.user_id, **address_args(address)},
                )
            )
            known["new_address"] = address_text(address)
            moved = " I moved recently, so the new card must go to my new address."
        if problem != "damaged":
            writes.append(Action("freeze_card", {"card_id": card.card_id}))
        writes.append(
            Action(
                "replace_card",
                {"card_id": card.card_id, "reason": problem, "shipping": shipping},
            )
        )
        outputs = [new_four, *side.outputs]
        outputs += [money_text(EXPEDITED_FEE)] if shipping == "expedited" else []
        speed = (
            "I need it fast and will pay for expedited shipping"
            if shipping == "expedited"
            else "Standard free shipping is fine"
        )
        happened = {
            "lost": "I lost it",
            "stolen": "it was stolen from my bag, but I checked and there are no charges I "
            "don't recognise",
            "damaged": "it is cracked and the chip no longer works",
        }[problem]
        return self.task(
            domain,
            who,
            goal=f"I need a new card to replace {card_text(card)}: {happened}. {speed}. I want "
            "to know the last four digits of the new card"
            + (" and what the shipping costs" if shipping == "expedited" else "")
            + f".{moved}{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I need a replacement debit card, {happened.split(',')[0]}.",
                "Hello, I need a new debit card please.",
                f"My debit card is no good anymore: {happened.split(',')[0]}.",
                "Hi, could you send me a new card?",
                "Hello, I'd like to order a replacement for my debit card.",
            ),
            known=known,
            actions=[
                *gold_reads(who, *_card_reads(card), *fee_check, *side.actions),
                *writes,
            ],
            outputs=outputs,
            summary=f"replace {problem} card {card.card_id} ({shipping})"
            + (", new mailing address" if self.moved else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the other shipping speed, and freezing done wrong."""
        writes = domain.write_actions(task)
        reads = [a for a in task.actions if a not in writes]
        replace = writes[-1]
        other = "standard" if replace.arguments["shipping"] == "expedited" else "expedited"
        slower = replaced(replace, shipping=other)
        paths = [*super().mistakes(domain, task), [*reads, *writes[:-1], slower]]
        freeze = Action("freeze_card", {"card_id": replace.arguments["card_id"]})
        moving = [w for w in writes if w.name == "update_mailing_address"]
        if freeze in writes:
            paths.append([*reads, *moving, replace])  # a lost or stolen card left unfrozen
        else:
            paths.append([*reads, *moving, freeze, replace])  # a damaged card frozen for nothing
        if moving:
            paths.append([*reads, *[w for w in writes if w not in moving]])  # the old address
        return paths


class ReplaceLostCard(_Replacement):
    """A lost or stolen card: freeze it, then order a replacement (two writes)."""

    name = "replace_lost_card"
    problems = ("lost", "stolen")


class ReplaceDamagedCard(_Replacement):
    """A damaged card: order a replacement; the old card is not frozen (it still works)."""

    name = "replace_damaged_card"
    problems = ("damaged",)


class ReplaceCardAfterMove(_Replacement):
    """A lost card of a customer who moved: address, freeze, replacement (three writes)."""

    name = "replace_card_after_move"
    problems = ("lost",)
    moved = True
