"""Hard banking intents about money: fee reversals beside other requests, conditional transfers.

Mixed requests pair an allowed write with a reversal the policy refuses (a second fee, a fee
above the cap, a reversal within 12 months of the last); conditional ones let the balances,
the daily limit or what is available decide which transfer is made.
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.data import Account, Transaction, User, dispute_id
from tau_sim.domains.banking.intents.common import (
    BankingIntent,
    account_read,
    card_purchases,
    checking,
    describe,
    history,
    in_window,
    may_reverse,
    nameable,
    one_of,
    open_fees,
    pick_user,
    savings,
    transactions_read,
)
from tau_sim.domains.banking.intents.side import side_question
from tau_sim.domains.banking.rules import FEE_REVERSAL_CAP
from tau_sim.domains.banking.scenario import CONFIRM, account_text, fee_text, gold_reads
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import balance_text, money, money_text
from tau_sim.domains.kit.tasks import swapped
from tau_sim.simulator.world import Action, Database, Domain, Task


def _nameable_fees(db: Database, user: User, small: bool) -> list[Transaction]:
    """Open fees a date and a name single out; ``small``: within the cap, else above it."""
    fees = open_fees(db, user, lambda t: True)
    return [f for f in fees if nameable(fees, f) and ((-f.amount <= FEE_REVERSAL_CAP) is small)]


def _reverse(fee: Transaction) -> Action:
    return Action("reverse_fee", {"transaction_id": fee.transaction_id})


def _transfer(source: Account, target: Account, amount: float) -> Action:
    args = {
        "from_account_id": source.account_id,
        "to_account_id": target.account_id,
        "amount": amount,
    }
    return Action("transfer_between_accounts", args)


def _room(account: Account) -> float:
    """What may leave ``account`` by transfer now: what is available and the daily limit allow."""
    return min(account.available, account.transfer_room)


def _round(rng: random.Random, most: float, step: int = 50) -> float:
    """A round amount of at most ``most`` (0 when none fits)."""
    steps = int(most // step)
    return float(step * rng.randint(1, min(steps, 30))) if steps >= 1 else 0.0


def _user(db: Database, task: Task) -> User:
    user: User = record(db, "users", task.actions[1].arguments["user_id"])
    return user


def _fee_named(db: Database, user: User, said: str, skip: str = "") -> Transaction:
    """The open fee of ``user`` whose text ``said`` holds (not ``skip``)."""
    return next(
        f
        for f in open_fees(db, user, lambda t: True)
        if fee_text(f) in said and f.transaction_id != skip
    )


class OneOfTwoFees(BankingIntent):
    """Two fees to reverse: only one per 12 months, the one the customer prefers."""

    name = "one_of_two_fees"
    description = (
        "The user wants two fees reversed: the preferred one is reversed, the second refused "
        "(one reversal per 12 months; mixed, conditional)."
    )
    tier = "hard"
    rules = ("fee-reversal-one",)
    challenges = frozenset({"mixed", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(
            db, rng, lambda u: may_reverse(u) and len(_nameable_fees(db, u, True)) >= 2
        )
        if user is None:
            return None
        first, second = rng.sample(_nameable_fees(db, user, True), 2)
        account = checking(db, user)
        after = money(account.balance - first.amount)
        adds = rng.random() < 0.5
        who = self.identity(db, user.user_id, rng)
        side = side_question(db, user, rng)
        work = (
            [Action("calculate", {"expression": f"{account.balance:.2f} + {-first.amount:.2f}"})]
            if adds
            else []
        )
        return self.task(
            domain,
            who,
            goal=f"I want {fee_text(first)} and {fee_text(second)} on my checking account "
            f"refunded. If only one of them can be refunded, I want {fee_text(first)} refunded. "
            f"I want to know my balance afterwards.{side.goal} {CONFIRM}",
            demand=f"{fee_text(second)} refunded as well",
            opening=one_of(
                rng,
                "Hi, I was charged two fees and I want both of them refunded.",
                "Hello, there are a couple of fees on my account I'd like reversed.",
                f"I got a {first.description.lower()} and a {second.description.lower()}. "
                "Can you take them off?",
                "Hey, two fees hit my checking account and I think both are unfair.",
            ),
            known={"fee": f"{fee_text(first)} and {fee_text(second)}", **side.known},
            actions=[
                *gold_reads(who, transactions_read(account), *side.actions),
                _reverse(first),
                *work,
            ],
            outputs=[
                money_text(-first.amount),
                balance_text(after),
                "cannot be reversed",
                *side.outputs,
            ],
            summary=f"reverse {first.transaction_id}, refuse {second.transaction_id}",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The second fee reversed too."""
        db = domain.new_database()
        done = next(a for a in task.actions if a.name == "reverse_fee")
        said = task.scenario.known_info["fee"]
        second = _fee_named(db, _user(db, task), said, done.arguments["transaction_id"])
        return [_reverse(second)]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, both reversed, and the other one reversed instead."""
        wrong = self.violations(domain, task)
        reads = [a for a in task.actions if a.name != "reverse_fee"]
        return [
            *super().mistakes(domain, task),
            [*task.actions, *wrong],
            [*reads, *wrong],
        ]


class CapBesideTransfer(BankingIntent):
    """A transfer from savings (allowed) and a fee above the cap reversed (refused)."""

    name = "cap_beside_transfer"
    description = (
        "The user moves money from savings to checking and wants a fee above the $40.00 cap "
        "reversed: the transfer is made, the reversal refused (mixed)."
    )
    tier = "hard"
    rules = ("fee-reversal-cap",)
    challenges = frozenset({"mixed"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(u: User) -> bool:
            sav = savings(db, u)
            return (
                may_reverse(u)
                and sav is not None
                and _room(sav) >= 50
                and bool(_nameable_fees(db, u, False))
            )

        user = pick_user(db, rng, fits)
        if user is None:
            return None
        fee = rng.choice(_nameable_fees(db, user, False))
        chk, sav = checking(db, user), savings(db, user)
        assert sav is not None
        amount = _round(rng, _room(sav))
        who = self.identity(db, user.user_id, rng)
        reads = [transactions_read(chk), account_read(sav)]
        if rng.random() < 0.5:
            reads.reverse()
        side = side_question(db, user, rng, ("account",))
        reads += side.actions
        return self.task(
            domain,
            who,
            goal=f"I want {money_text(amount)} moved from my savings account to my checking "
            f"account, and {fee_text(fee)} on my checking account refunded: it is too high. I "
            "want my checking balance afterwards. If the fee cannot be refunded, I want to know "
            f"the most a fee reversal can be.{side.goal} {CONFIRM}",
            demand=f"{fee_text(fee)} refunded in full",
            opening=one_of(
                rng,
                f"Hi, I need to move {money_text(amount)} into checking and get a fee refunded.",
                "Hello, two things: a transfer from my savings and a fee I want back.",
                f"I was charged a {money_text(-fee.amount)} fee and I'd like it refunded, and "
                "I also need a transfer.",
                "Hi, can you move some savings over and reverse a fee for me?",
            ),
            known={
                "amount": money_text(amount),
                "from_account": account_text(sav),
                "to_account": account_text(chk),
                "fee": fee_text(fee),
                **side.known,
            },
            actions=[
                *gold_reads(who, *reads),
                _transfer(sav, chk, amount),
                *(
                    [Action("calculate", {"expression": f"{chk.balance:.2f} + {amount:.2f}"})]
                    if rng.random() < 0.4
                    else []
                ),
            ],
            outputs=[
                money_text(FEE_REVERSAL_CAP),
                "cannot be reversed",
                balance_text(money(chk.balance + amount)),
                *side.outputs,
            ],
            summary=f"transfer {money_text(amount)}, refuse {fee.transaction_id} over the cap",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The fee above the cap reversed."""
        db = domain.new_database()
        return [_reverse(_fee_named(db, _user(db, task), task.scenario.known_info["fee"]))]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the fee reversed as well."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


class DisputeBesideSecondReversal(BankingIntent):
    """A dispute (allowed) and a fee reversal within 12 months of the last one (refused)."""

    name = "dispute_beside_second_reversal"
    description = (
        "The user disputes a recent purchase and wants a fee reversed, but had a reversal in "
        "the last 12 months: the dispute is filed, the reversal refused (mixed)."
    )
    tier = "hard"
    rules = ("fee-reversal-yearly",)
    challenges = frozenset({"search", "mixed"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def charges(u: User) -> list[Transaction]:
            every = history(db, checking(db, u))
            return [t for t in card_purchases(db, u, in_window) if nameable(every, t)]

        user = pick_user(
            db,
            rng,
            lambda u: not may_reverse(u) and bool(_nameable_fees(db, u, True)) and bool(charges(u)),
        )
        if user is None:
            return None
        fee = rng.choice(_nameable_fees(db, user, True))
        txn = rng.choice(charges(user))
        reason = rng.choice(("duplicate charge", "goods not received", "wrong amount"))
        who = self.identity(db, user.user_id, rng)
        side = side_question(db, user, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {describe(txn)} on my checking account ({reason}; I made "
            f"the purchase myself), and I want {fee_text(fee)} refunded. I want the dispute "
            "number. If the fee cannot be refunded, I want to know when my last fee reversal "
            f"was.{side.goal} {CONFIRM}",
            demand=f"{fee_text(fee)} refunded",
            opening=one_of(
                rng,
                f"Hi, I need to dispute a {txn.description} charge and get a fee refunded.",
                "Hello, I have a card charge to dispute and a fee I'd like taken off.",
                "Hi, two things on my checking account: a wrong purchase and an unfair fee.",
                f"There's a bad charge from {txn.description} and a fee I want reversed.",
            ),
            known={
                "transaction": describe(txn),
                "dispute_reason": reason,
                "fee": fee_text(fee),
                **side.known,
            },
            actions=[
                *gold_reads(who, transactions_read(checking(db, user)), *side.actions),
                Action("file_dispute", {"transaction_id": txn.transaction_id, "reason": reason}),
            ],
            outputs=[
                dispute_id(txn.transaction_id),
                user.last_fee_reversal,
                "cannot be reversed",
                *side.outputs,
            ],
            summary=f"dispute {txn.transaction_id}; refuse {fee.transaction_id} "
            f"(last reversal {user.last_fee_reversal})",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The fee reversed within 12 months of the last reversal."""
        db = domain.new_database()
        return [_reverse(_fee_named(db, _user(db, task), task.scenario.known_info["fee"]))]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the fee reversed as well."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


class TopUpIfLow(BankingIntent):
    """One transfer or the other, as the checking balance compares with the customer's figure."""

    name = "top_up_if_low"
    description = (
        "If checking is below the user's figure, savings tops it up; otherwise checking moves "
        "money into savings (conditional)."
    )
    tier = "hard"
    challenges = frozenset({"conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(u: User) -> bool:
            sav = savings(db, u)
            return sav is not None and _room(sav) >= 100 and _room(checking(db, u)) >= 100

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
        top_up, sweep = _round(rng, _room(sav)), _round(rng, _room(chk))
        if len({threshold, top_up, sweep}) < 3:
            return None
        move = _transfer(sav, chk, top_up) if low else _transfer(chk, sav, sweep)
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

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the other branch's transfer."""
        db = domain.new_database()
        user = _user(db, task)
        chk, sav = checking(db, user), savings(db, user)
        assert sav is not None
        made = next(a for a in task.actions if a.name == "transfer_between_accounts")
        known = task.scenario.known_info
        top_up = float(known["amount"].lstrip("$").replace(",", ""))
        sweep = float(known["other_amount"].lstrip("$").replace(",", ""))
        other = (
            _transfer(chk, sav, sweep)
            if made.arguments["from_account_id"] == sav.account_id
            else _transfer(sav, chk, top_up)
        )
        return [*super().mistakes(domain, task), swapped(task, made, other)]


class TransferOrTheMost(BankingIntent):
    """A transfer that may exceed what the daily limit or the available amount allows.

    The customer says what to do then: move the most the daily limit still allows, or a
    smaller amount of their own.
    """

    name = "transfer_or_the_most"
    description = (
        "The user asks for a transfer; if it is over the daily limit (or what is available), "
        "a smaller one is made as the user said (conditional)."
    )
    tier = "hard"
    rules = ("daily-transfer-limit", "transfer-available")
    challenges = frozenset({"conditional"})

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
        wanted = float(50 * (int(cap // 50) + rng.randint(1, 6))) if over else _round(rng, cap)
        if wanted <= 0 or (over and wanted <= cap):
            return None
        fallback = _round(rng, cap - 1) if not by_limit else 0.0
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
            actions=[*gold_reads(who, *reads), _transfer(source, target, moved), *work],
            outputs=outputs,
            summary=f"transfer {money_text(wanted)} from {source.kind}: "
            + (f"move {money_text(moved)} instead" if over else "fits"),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a transfer of $10.00 less."""
        move = next(a for a in task.actions if a.name == "transfer_between_accounts")
        less = Action(move.name, {**move.arguments, "amount": move.arguments["amount"] - 10.0})
        return [*super().mistakes(domain, task), [less if a is move else a for a in task.actions]]
