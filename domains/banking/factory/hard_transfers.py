"""Hard banking intents whose transfer a condition picks.

The condition is a balance against the customer's figure, the daily limit or what is available.
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.data import User
from tau_sim.domains.banking.factory.common import (
    BankingIntent,
    account_read,
    checking,
    owner_of,
    pick_user,
    room_now,
    round_amount,
    savings,
    transfer_action,
)
from tau_sim.domains.banking.factory.side import side_question
from tau_sim.domains.banking.scenario import account_text, gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.chains import Chain, changed, less
from tau_sim.domains.kit.payments import balance_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task


def _other_branch(domain: Domain, task: Task) -> list[Action]:
    """The gold path with the transfer of the branch the balance did not pick."""
    db = domain.new_database()
    user = owner_of(db, task)
    chk, sav = checking(db, user), savings(db, user)
    assert sav is not None
    made = next(a for a in task.actions if a.name == "transfer_between_accounts")
    known = task.scenario.known_info
    top_up = float(known["amount"].lstrip("$").replace(",", ""))
    sweep = float(known["other_amount"].lstrip("$").replace(",", ""))
    other = (
        transfer_action(chk, sav, sweep)
        if made.arguments["from_account_id"] == sav.account_id
        else transfer_action(sav, chk, top_up)
    )
    return swapped(task, made, other)


class TopUpIfLow(Chain, BankingIntent):
    """One transfer or the other, as the checking balance compares with the customer's figure."""

    name = "top_up_if_low"
    tier = "hard"
    challenges = frozenset({"conditional"})
    slips = (_other_branch,)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(u: User) -> bool:
            sav = savings(db, u)
            return sav is not None and room_now(sav) >= 100 and room_now(checking(db, u)) >= 100

        user = pick_user(db, rng, fits)
        if user is None:
            return None
        chk, sav = checking(db, user), savings(db, user)
        assert sav is not None
        low = rng.random() < 0.5
        base = int(chk.balance // 100) * 100
        threshold = float(base + 100 * rng.randint(1, 5) if low else base - 100 * rng.randint(0, 3))
        if threshold <= 0 or threshold == chk.balance:
            return None
        top_up, sweep = round_amount(rng, room_now(sav)), round_amount(rng, room_now(chk))
        if len({threshold, top_up, sweep}) < 3:
            return None
        move = transfer_action(sav, chk, top_up) if low else transfer_action(chk, sav, sweep)
        sum_text = (
            f"{chk.balance:.2f} + {top_up:.2f}" if low else f"{chk.balance:.2f} - {sweep:.2f}"
        )
        after = money(chk.balance + (top_up if low else -sweep))
        reads = [account_read(chk), account_read(sav)]
        if not low and rng.random() < 0.5:
            reads = reads[:1]  # the sweep needs only checking's figures
        side = side_question(db, user, rng, ("account",), statement=False)
        reads += side.actions
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"If the balance of my checking account is below {money_text(threshold)}, I "
            f"want {money_text(top_up)} moved from my savings account into it. If it is not, I "
            f"want {money_text(sweep)} moved from my checking account into my savings account "
            f"instead. I want to know my new checking balance.{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, can you check my checking balance and move money depending on it?",
                f"Hello, if my checking is under {money_text(threshold)} I'd like a top-up "
                "from savings.",
                "Hi, I want to balance out my checking and savings accounts.",
                "Hey, I need a transfer between my accounts, but which way depends on my balance.",
            ),
            known={
                "threshold": money_text(threshold),
                "amount": money_text(top_up),
                "other_amount": money_text(sweep),
                **side.known,
            },
            actions=[
                *gold_reads(who, *reads),
                move,
                *([Action("calculate", {"expression": sum_text})] if rng.random() < 0.4 else []),
            ],
            outputs=[balance_text(after), *side.outputs],
            summary=f"checking {money_text(chk.balance)} vs {money_text(threshold)}: "
            + ("top up from savings" if low else "sweep into savings"),
        )


class TransferOrTheMost(Chain, BankingIntent):
    """A transfer that may exceed what the daily limit or the available amount allows.

    The customer says what to do then: move the most the daily limit still allows, or a
    smaller amount of their own.
    """

    name = "transfer_or_the_most"
    tier = "hard"
    rules = ("daily-transfer-limit", "transfer-available")
    challenges = frozenset({"conditional"})
    slips = (changed("transfer_between_accounts", less(10.0)),)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        by_limit = rng.random() < 0.5
        over = rng.random() < 0.6

        def fits(u: User) -> bool:
            sav = savings(db, u)
            if sav is None:
                return False
            if by_limit:
                room = sav.transfer_room
                return sav.transferred_today > 0 and room >= 50 and sav.available > room + 100
            chk = checking(db, u)
            return chk.available >= 100 and chk.transfer_room > chk.available + 100

        user = pick_user(db, rng, fits)
        if user is None:
            return None
        chk, sav = checking(db, user), savings(db, user)
        assert sav is not None
        source, target = (sav, chk) if by_limit else (chk, sav)
        cap = source.transfer_room if by_limit else source.available
        wanted = (
            float(50 * (int(cap // 50) + rng.randint(1, 6))) if over else round_amount(rng, cap)
        )
        if wanted <= 0 or (over and wanted <= cap):
            return None
        fallback = round_amount(rng, cap - 1) if not by_limit else 0.0
        if not by_limit and (fallback <= 0 or fallback == wanted):
            return None
        reads = [account_read(source)]
        side = side_question(db, user, rng, ("account",), statement=False)
        reads += side.actions
        if not over:
            moved, outputs, work = wanted, [], []
        elif by_limit:
            left = money(wanted - cap)
            moved, outputs = cap, [money_text(cap), money_text(left)]
            work = [Action("calculate", {"expression": f"{wanted:.2f} - {cap:.2f}"})]
        else:
            moved, outputs, work = fallback, [money_text(source.available)], []
        after = money(target.balance + moved)
        outputs += [balance_text(after), *side.outputs]
        if by_limit:
            condition = (
                "If that is more than I can still transfer today, I want the most I can "
                "transfer today moved instead, and I want to know how much would be left to move."
            )
        else:
            condition = (
                "If I do not have that much available, I want only "
                f"{money_text(fallback)} moved instead."
            )
        known = {
            "amount": money_text(wanted),
            "from_account": account_text(source),
            "to_account": account_text(target),
        }
        if not by_limit:
            known["other_amount"] = money_text(fallback)
        known.update(side.known)
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want {money_text(wanted)} moved from {account_text(source)} to "
            f"{account_text(target)} today. {condition} I want the new balance of "
            f"{account_text(target)}.{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I want to move {money_text(wanted)} from {account_text(source)}.",
                f"Hello, I need a transfer out of {account_text(source)} today.",
                "Hi, I'd like to move a large amount between my accounts.",
                f"Can you send {money_text(wanted)} over to {account_text(target)}?",
            ),
            known=known,
            actions=[*gold_reads(who, *reads), transfer_action(source, target, moved), *work],
            outputs=outputs,
            summary=f"transfer {money_text(wanted)} from {source.kind}: "
            + (f"move {money_text(moved)} instead" if over else "fits"),
        )
