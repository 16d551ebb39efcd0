"""Banking intents about moving money and balances: transfers, the daily limit, balances."""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.banking.data import Account, User
from tau_sim.domains.banking.factory.common import (
    BankingIntent,
    account_read,
    accounts_of,
    pick_user,
    room_now,
    transfer_action,
)
from tau_sim.domains.banking.factory.side import caller, side_question
from tau_sim.domains.banking.scenario import account_text, gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import balance_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task

# ---- transfers --------------------------------------------------------------------------------


def _two_accounts(
    db: Database, rng: random.Random, accept: Callable[[Account, Account], bool]
) -> tuple[User, Account, Account] | None:
    """A customer with checking and savings, in a (source, target) order ``accept`` likes."""
    user = pick_user(db, rng, lambda u: len(u.accounts) == 2)
    if user is None:
        return None
    pair = accounts_of(db, user)
    if rng.random() < 0.5:
        pair.reverse()
    source, target = pair
    return (user, source, target) if accept(source, target) else None


def _amount(rng: random.Random, most: float) -> float:
    """A round amount the customer might move, at most ``most`` (0 when none fits)."""
    steps = int(most // 50)
    return float(50 * rng.randint(1, min(steps, 40))) if steps >= 1 else 0.0


class TransferFunds(BankingIntent):
    """Move money between the customer's checking and savings accounts."""

    name = "transfer_funds"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _two_accounts(db, rng, lambda s, t: room_now(s) >= 50)
        if picked is None:
            return None
        user, source, target = picked
        amount = _amount(rng, room_now(source))
        who = self.identity(db, user.user_id, rng)
        after = money(target.balance + amount)
        side = side_question(db, user, rng, ("account",), statement=False)
        reads = [account_read(source), *side.actions]
        adds = [Action("calculate", {"expression": f"{target.balance:.2f} + {amount:.2f}"})]
        return self.task(
            domain,
            who,
            goal=f"I want to move {money_text(amount)} from {account_text(source)} to "
            f"{account_text(target)}, and I want to know the new balance of "
            f"{account_text(target)}.{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to transfer {money_text(amount)} between my accounts.",
                "Hello, I need to move some money between my accounts.",
                f"Can you move {money_text(amount)} from {account_text(source)} for me?",
                f"Hi, I want to put {money_text(amount)} into {account_text(target)}.",
                "Hey, quick transfer between my checking and savings please.",
            ),
            known={
                "amount": money_text(amount),
                "from_account": account_text(source),
                "to_account": account_text(target),
                **side.known,
            },
            actions=[
                *gold_reads(who, *reads),
                transfer_action(source, target, amount),
                *(adds if rng.random() < 0.4 else []),
            ],
            outputs=[balance_text(after), *side.outputs],
            summary=f"transfer {money_text(amount)} {source.kind} -> {target.kind}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, another amount, and the opposite direction when it is allowed."""
        move = next(a for a in task.actions if a.name == "transfer_between_accounts")
        args = move.arguments
        db = domain.new_database()
        source: Account = record(db, "accounts", args["from_account_id"])
        target: Account = record(db, "accounts", args["to_account_id"])
        amount = args["amount"]
        room = room_now(source)
        other = amount + 10.0 if amount + 10.0 <= room else amount - 10.0
        paths = [
            *super().mistakes(domain, task),
            swapped(task, move, Action(move.name, {**args, "amount": other})),
        ]
        if amount <= room_now(target):
            back = {
                **args,
                "from_account_id": target.account_id,
                "to_account_id": source.account_id,
            }
            paths.append(swapped(task, move, Action(move.name, back)))
        return paths


class TransferOverLimit(BankingIntent):
    """Ask to transfer more than the daily limit still allows: refuse and say the most possible."""

    name = "transfer_over_daily_limit"
    forbidden = True
    rules = ("daily-transfer-limit",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _two_accounts(
            db,
            rng,
            lambda s, t: s.transferred_today > 0 and s.available > s.transfer_room + 100,
        )
        if picked is None:
            return None
        user, source, target = picked
        most = min(source.available, source.transfer_room + 1000)
        amount = float(50 * int(most // 50))
        if amount <= source.transfer_room:
            return None
        who, side = caller(self, db, user, rng, taken=("account",), statement=False)
        return self.task(
            domain,
            who,
            goal=f"I want to move {money_text(amount)} from {account_text(source)} to "
            f"{account_text(target)} today, all at once.{side.goal} If the agent says that is "
            "over my daily "
            "limit, I want to know the most I can still transfer today, but I do not want a "
            "smaller transfer now: I will call back.",
            demand=f"{money_text(amount)} moved to {account_text(target)} today, all at once",
            opening=one_of(
                rng,
                f"Hi, I need to transfer {money_text(amount)} from {account_text(source)} today.",
                f"Hello, please move {money_text(amount)} to {account_text(target)} right now.",
                "I have a big transfer to make between my accounts today.",
                f"Can I send {money_text(amount)} from one of my accounts to the other today?",
                "Hi, I need to move a large sum between my own accounts, all in one go.",
            ),
            known={
                "amount": money_text(amount),
                "from_account": account_text(source),
                "to_account": account_text(target),
                **side.known,
            },
            actions=gold_reads(who, account_read(source), *side.actions),
            outputs=[money_text(source.transfer_room), *side.outputs],
            summary=f"transfer {money_text(amount)} over the daily limit: refuse",
        )

    # no violations: the tool refuses the transfer over the limit that the user asks for

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a smaller transfer (the remaining room) nobody asked for."""
        reads = task.actions
        account_id = next(a for a in reads if a.name == "get_account_details").arguments[
            "account_id"
        ]
        db = domain.new_database()
        source: Account = record(db, "accounts", account_id)
        user: User = record(db, "users", source.user_id)
        target = next(a for a in user.accounts if a != account_id)
        args = {
            "from_account_id": account_id,
            "to_account_id": target,
            "amount": source.transfer_room,
        }
        return [
            *super().mistakes(domain, task),
            [*reads, Action("transfer_between_accounts", args)],
        ]


# ---- information ------------------------------------------------------------------------------


class BalanceInquiry(BankingIntent):
    """Ask for an account's balance and how much can still be transferred out of it today."""

    name = "balance_inquiry"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(db, rng, lambda u: True)
        if user is None:
            return None
        account = rng.choice(accounts_of(db, user))
        who, side = caller(self, db, user, rng, taken=("account",), statement=False)
        return self.task(
            domain,
            who,
            goal=f"I want to know the current balance of {account_text(account)} and how much I "
            f"can still transfer out of it today.{side.goal} I do not want to change anything.",
            opening=one_of(
                rng,
                f"Hi, what's the balance on {account_text(account)}?",
                "Hello, I have a question about one of my accounts.",
                f"How much money do I have in {account_text(account)}?",
                "Hi, I just want to check where my account stands.",
                "Could you tell me my balance and my transfer limit for today?",
            ),
            known={"account": account_text(account), **side.known},
            actions=gold_reads(who, account_read(account), *side.actions),
            outputs=[
                balance_text(account.balance),
                money_text(account.transfer_room),
                *side.outputs,
            ],
            summary=f"balance of {account.account_id}",
        )
