"""Hard utilities intents where the customer has several accounts and describes the one meant.

The customer never gives an id: they name the account by a fact of it (its tariff, its city,
its gas supply, its street), so the gold path reads every account of the profile and acts on
the one described.
"""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.search import Shelf
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced
from tau_sim.domains.utilities.data import ACTIVE, TODAY, Account, User
from tau_sim.domains.utilities.factory.common import (
    Supply,
    UtilitiesIntent,
    billed_now,
    describe,
    misread_first,
    new_value,
    payment,
    pick_among,
)
from tau_sim.simulator.world import Action, Database, Domain, Task

ACCOUNTS: Shelf[User, Account] = Shelf(
    "accounts", opens=lambda mine, meant: [a for a in mine if a.status == ACTIVE]
)
"""A customer's accounts, described by tariff, city, gas supply or street; the agent opens every
open account of the profile."""

CAPS = (50.0, 75.0, 100.0, 150.0, 200.0)
"""The most a customer says they will pay today."""


def _other(db: Database, write: Action) -> Account:
    """The customer's first open account (the gold path reads it) that ``write`` is not on."""
    return next(a for a in ACCOUNTS.elsewhere(db, write) if a.status == ACTIVE)


class PayDescribedAccount(UtilitiesIntent):
    """Pay on one of several accounts, described; all of it or a cap, whichever is less."""

    name = "pay_described_account"
    tier = "hard"
    challenges = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_among(db, rng, lambda s: s.account.balance >= 30)
        if found is None:
            return None
        supply, supplies = found
        balance = supply.account.balance
        below = [c for c in CAPS if c < balance]
        above = [c for c in CAPS if c >= balance]
        cap = rng.choice(below if below and (rng.random() < 0.5 or not above) else above)
        amount = min(cap, balance)
        methods = [m for m in supply.user.payment_methods if m.source != "gift_card"]
        paid = payment(domain, db, rng, supply, amount, methods)
        if paid is None:
            return None
        method, pay, left = paid
        others = [s for s in supplies if s is not supply]
        which = describe(rng, supply, others)
        reads: list[Action] = []
        outputs = [money_text(left)]
        latest = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
        asks_bill = ""
        if supply.account.bill_count and rng.random() < 0.5:
            reads.append(Action("get_bill_details", {"bill_id": latest}))
            outputs.append(money_text(record(db, "bills", latest).total))
            asks_bill = " Before paying I want to know the total of the latest bill there."
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I have {len(supplies)} accounts with you and I want to pay on {which}, with "
            f"{method_text(method)}. If its balance is more than {money_text(cap)}, I pay "
            f"{money_text(cap)} today; if it is {money_text(cap)} or less, I pay all of it."
            f"{asks_bill} I want to know what I still owe there afterwards. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I want to make a payment on one of my energy accounts.",
                "Hello, I have more than one property with you and want to pay on one of them.",
                "Hi there, can I pay something towards one of my accounts today?",
                "Good morning, I'd like to put some money towards my balance on one account.",
                "Hello, I need to pay one of my energy bills, not all of them.",
            ),
            known={
                "account": which,
                "amount": f"at most {money_text(cap)}",
                "payment_method": method_text(method),
            },
            actions=[*ACCOUNTS.reads(db, who, supply.account), *reads, pay],
            outputs=outputs,
            summary=f"pay {money_text(amount)} of {money_text(balance)} on "
            f"{supply.account.account_id} (cap {money_text(cap)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the payment on another account, the cap ignored."""
        *reads, pay = task.actions
        db = domain.new_database()
        other = _other(db, pay)
        paths = [*super().mistakes(domain, task)]
        if other.balance > 0:
            amount = min(pay.arguments["amount"], other.balance)
            paths.append([*reads, replaced(pay, account_id=other.account_id, amount=amount)])
        full = record(db, "accounts", pay.arguments["account_id"]).balance
        if full != pay.arguments["amount"]:
            paths.append([*reads, replaced(pay, amount=full)])
        return paths


class BillDescribedAccount(UtilitiesIntent):
    """Readings and a bill on one of several accounts, described (two or three writes)."""

    name = "bill_described_account"
    tier = "hard"
    challenges = frozenset({"search"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_among(db, rng, lambda s: s.account.billed_to < TODAY.isoformat())
        if found is None:
            return None
        supply, supplies = found
        billed = billed_now(domain, db, rng, supply)
        if billed is None:
            return None
        writes, known, said, bill = billed
        which = describe(rng, supply, [s for s in supplies if s is not supply])
        reads: list[Action] = []
        outputs = [money_text(bill["bill"]["total"]), money_text(bill["balance"])]
        rates = ""
        if rng.random() < 0.5:
            reads.append(Action("get_tariff_details", {"tariff_id": supply.tariff.tariff_id}))
            outputs.append(f"{supply.tariff.electricity.unit_rate}")
            rates = " I also want to know that account's electricity unit rate."
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I have {len(supplies)} accounts with you. For {which} I read the meters "
            f"today: {' and '.join(said)}. I want them recorded and a bill issued there now, "
            f"and I want to know the bill's total and that account's new balance.{rates} "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I've got readings for one of my properties and I'd like a bill for it.",
                "Hello, I want a proper bill from real readings on one of my accounts.",
                "Hi, I read the meters at one of my places today, can you bill me from them?",
                "Good afternoon, I'd like to send readings and get a bill, one account only.",
                "Hello, my estimated bills are wrong at one of my homes; I have readings now.",
            ),
            known={**known, "account": which},
            actions=[*ACCOUNTS.reads(db, who, supply.account), *reads, *writes],
            outputs=outputs,
            summary=f"readings and bill on {supply.account.account_id} of {len(supplies)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, a misread reading, and the bill issued on another account."""
        writes = domain.write_actions(task)
        reads = [a for a in task.actions if a not in writes]
        db = domain.new_database()
        other = Supply(db, _other(db, writes[-1]))
        other_id = other.account.account_id
        paths = [*super().mistakes(domain, task), misread_first(domain, task)]
        if other.account.billed_to < TODAY.isoformat():
            rng = random.Random(other_id)
            wrong = [
                Action(
                    "submit_meter_reading",
                    {"meter_id": m.meter_id, "value": new_value(rng, m, other.last[m.meter_id])},
                )
                for m in other.meters
            ]
            paths.append([*reads, *wrong, Action("create_bill", {"account_id": other_id})])
        return paths
