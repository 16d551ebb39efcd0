"""Hard banking intents that dispute card charges: several at once, one too old, one filed.

Several charges disputed at once, one past the window beside allowed ones, a dispute that may
already exist.

The users name charges by merchant and day, never by amount or id ("the Target charge on Friday
2025-03-07"), among the dozens of purchases on their checking account.
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.data import (
    CARD_PURCHASE,
    Dispute,
    Transaction,
    User,
    dispute_id,
)
from tau_sim.domains.banking.factory.common import (
    CLAIMS,
    REASONS,
    BankingIntent,
    card_purchases,
    checking,
    describable,
    describe,
    dispute_action,
    history,
    in_window,
    is_subscription,
    looked_up,
    nameable,
    pick_user,
    transactions_read,
)
from tau_sim.domains.banking.factory.side import caller, side_question
from tau_sim.domains.banking.rules import DISPUTE_WINDOW_DAYS
from tau_sim.domains.banking.scenario import gold_reads
from tau_sim.domains.kit.factory.base import listing, one_of
from tau_sim.domains.kit.factory.chains import Chain, changed, left_out, links
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, sum_action, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task

_WHY = {
    "duplicate charge": "it was charged twice",
    "goods not received": "the goods never arrived",
    "wrong amount": "the amount is more than the agreed price",
}


def _reasons_text(charges: list[Transaction], reasons: list[str]) -> str:
    """What is wrong with each charge, as the user holds it ("Target: wrong amount; ...")."""
    if len(set(reasons)) == 1:
        return reasons[0]
    return "; ".join(f"{t.description}: {r}" for t, r in zip(charges, reasons, strict=True))


def _other_reason(dispute: Action) -> Action:
    """The dispute filed with another reason."""
    return replaced(dispute, reason=next(r for r in REASONS if r != dispute.arguments["reason"]))


def _neighbour(domain: Domain, task: Task) -> list[Action] | None:
    """The first dispute filed on a recent card purchase of the user's that was not named."""
    disputes = links(task, "file_dispute")
    db = domain.new_database()
    user: User = record(db, "users", task.actions[1].arguments["user_id"])
    chosen = {a.arguments["transaction_id"] for a in disputes}
    near = [t for t in card_purchases(db, user, in_window) if t.transaction_id not in chosen]
    if not near:
        return None
    return swapped(task, disputes[0], replaced(disputes[0], transaction_id=near[0].transaction_id))


class DisputeSeveral(Chain, BankingIntent):
    """Dispute three or four recent purchases at once, each named by merchant and day."""

    name = "dispute_several_charges"
    tier = "hard"
    challenges = frozenset({"search", "long"})
    slips = (
        left_out("file_dispute", 1),
        changed("file_dispute", _other_reason),
        _neighbour,
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        count = rng.choice((3, 4))
        user = pick_user(db, rng, lambda u: len(describable(db, u, True)) >= count)
        if user is None:
            return None
        charges = rng.sample(describable(db, user, True), count)
        reasons = [rng.choice(CLAIMS) for _ in charges]
        total = sum(-t.amount for t in charges)
        asks_total = rng.random() < 0.5
        who, side = caller(self, db, user, rng)
        named = listing([describe(t) for t in charges])
        why = "; ".join(
            f"{t.description}: {_WHY[r]}" for t, r in zip(charges, reasons, strict=True)
        )
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {count} card charges on my checking account: {named} "
            f"({why}). I made the purchases myself. I want the dispute numbers"
            + (" and the total amount under dispute" if asks_total else "")
            + f".{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I have {count} charges on my debit card I need to dispute.",
                "Hello, several card purchases on my statement are wrong; I want to dispute them.",
                f"I need to open disputes for a few charges, {charges[0].description} among them.",
                "Hey, can you help me dispute some purchases? There are a few of them.",
            ),
            known={
                "transaction": named,
                "dispute_reason": _reasons_text(charges, reasons),
                **side.known,
            },
            actions=[
                *gold_reads(
                    who,
                    transactions_read(checking(db, user)),
                    *looked_up(rng, *charges),
                    *side.actions,
                ),
                *(dispute_action(t, r) for t, r in zip(charges, reasons, strict=True)),
                *(sum_action([-t.amount for t in charges]) if asks_total else []),
            ],
            outputs=[dispute_id(t.transaction_id) for t in charges]
            + ([money_text(total)] if asks_total else [])
            + side.outputs,
            summary=f"dispute {count} charges: " + ", ".join(t.transaction_id for t in charges),
        )


class DisputeBesideExpired(Chain, Refuses, BankingIntent):
    """Dispute three recent purchases and one past the 60-day window.

    The recent ones are filed (three writes); the old one is refused, saying when it was posted.
    """

    name = "dispute_beside_expired"
    tier = "hard"
    rules = ("dispute-window",)
    own_mistakes = "before"
    challenges = frozenset({"search", "mixed", "long"})
    slips = (left_out("file_dispute"),)  # a recent one refused as well

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        count = 3
        user = pick_user(
            db,
            rng,
            lambda u: len(describable(db, u, True)) >= count and bool(describable(db, u, False)),
        )
        if user is None:
            return None
        recent = rng.sample(describable(db, user, True), count)
        old = rng.choice(describable(db, user, False))
        reason = rng.choice(CLAIMS)
        who = self.identity(db, user.user_id, rng)
        charges = [*recent, old]
        rng.shuffle(charges)
        named = listing([describe(t) for t in charges])
        side = side_question(db, user, rng)
        task = self.task(
            domain,
            who,
            goal=f"I want to dispute these charges on my checking account: {named}. For all of "
            f"them {_WHY[reason]}, and I made the purchases myself. I want the dispute numbers. "
            f"If one of them cannot be disputed, I want to know why.{side.goal} {CONFIRM}",
            demand=f"{describe(old)} disputed as well",
            opening=one_of(
                rng,
                f"Hi, I need to dispute {len(charges)} card charges.",
                "Hello, I went through my statement and want to dispute some purchases.",
                f"Hi, a few charges are wrong, {old.description} among them. Can you dispute them?",
                "I'd like to file disputes on several purchases, please.",
            ),
            known={"transaction": named, "dispute_reason": reason, **side.known},
            actions=[
                *gold_reads(
                    who, transactions_read(checking(db, user)), *looked_up(rng, old), *side.actions
                ),
                *(dispute_action(t, reason) for t in charges if t is not old),
            ],
            outputs=[dispute_id(t.transaction_id) for t in recent]
            + [old.date, f"{DISPUTE_WINDOW_DAYS} days", "cannot be disputed", *side.outputs],
            summary=f"dispute {count} recent charges, refuse {old.transaction_id} of {old.date}",
        )
        return refusing(task, dispute_action(old, reason))  # the old charge disputed too


class DisputeUnlessFiled(Chain, BankingIntent):
    """Dispute two purchases; the one already disputed gets its dispute's status instead."""

    name = "dispute_unless_filed"
    tier = "hard"
    rules = ("dispute-once",)
    challenges = frozenset({"search", "conditional"})
    slips = (changed("file_dispute", _other_reason, nth=-1),)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def filed(user: User) -> list[Transaction]:
            every = history(db, checking(db, user))
            return [
                t
                for t in every
                if t.kind == CARD_PURCHASE
                and t.dispute_id
                and not is_subscription(t)
                and nameable(every, t)
            ]

        user = pick_user(db, rng, lambda u: bool(filed(u)) and bool(describable(db, u, True)))
        if user is None:
            return None
        old, new = rng.choice(filed(user)), rng.choice(describable(db, user, True))
        charges = [old, new]
        rng.shuffle(charges)
        named = listing([describe(t) for t in charges])
        reason = rng.choice(CLAIMS)
        who, side = caller(self, db, user, rng, disputes=True)
        dispute: Dispute = record(db, "disputes", old.dispute_id)
        reads = gold_reads(
            who, transactions_read(checking(db, user)), *looked_up(rng, *charges), *side.actions
        )
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {named} on my checking account: for both, {_WHY[reason]}. "
            "I made the purchases myself. I may have disputed one of them already: if one is "
            "already disputed, I do not want a new dispute for it, I want to know the status of "
            "that dispute and when it was filed. For the other I want the dispute number."
            f"{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I want to dispute two charges, {charges[0].description} and "
                f"{charges[1].description}, unless I already did.",
                "Hello, I think I disputed one of these charges before but I'm not sure.",
                f"There's a {charges[0].description} charge and another one I want to dispute.",
                "Hi, I need help with two card charges; I may have reported one already.",
            ),
            known={"transaction": named, "dispute_reason": reason, **side.known},
            actions=[
                *reads,
                Action("get_dispute_details", {"dispute_id": dispute.dispute_id}),
                dispute_action(new, reason),
            ],
            outputs=[dispute.status, dispute.filed, dispute_id(new.transaction_id), *side.outputs],
            summary=f"{old.transaction_id} already disputed: tell its status; "
            f"dispute {new.transaction_id} ({reason})",
        )
