"""A banking request the agent may not serve at all: another person's money, or no tool for it.

The user asks to send money to a relative's account, to see a relative's account, or for a
product the agent has no tool for (a loan, a new account, a higher overdraft limit). The agent
identifies the customer, answers any side question, and refuses the rest.
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.factory.common import (
    BankingIntent,
    checking,
    pick_user,
    room_now,
    round_amount,
    savings,
    transfer_action,
)
from tau_sim.domains.banking.factory.side import side_question
from tau_sim.domains.banking.scenario import gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.payments import money_text
from tau_sim.simulator.world import Action, Database, Domain, Task

_RELATIVES = ("wife", "husband", "son", "daughter", "brother", "sister", "mother", "father")

_PRODUCTS = {
    "a personal loan of $5,000": "apply for a personal loan of $5,000",
    "a new savings account": "open a new savings account",
    "a higher overdraft limit on my checking account": "raise my overdraft limit",
    "my account closed": "close my checking account",
}


class OffLimitsRequest(BankingIntent):
    """Another person's account, or a product no tool serves: refuse (nothing is written)."""

    name = "off_limits_request"
    forbidden = True
    rules = ("own-accounts-only", "own-customer-only", "out-of-scope")

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        kind = rng.choice(("pay_relative", "see_relative", "product"))
        user = pick_user(db, rng, lambda u: room_now(checking(db, u)) >= 50)
        if user is None:
            return None
        relative = rng.choice(_RELATIVES)
        side = side_question(db, user, rng)
        who = self.identity(db, user.user_id, rng)
        outputs: list[str] = []
        known: dict[str, str] = dict(side.known)
        if kind == "pay_relative":
            amount = round_amount(rng, room_now(checking(db, user)), 10)
            known["amount"] = money_text(amount)
            goal = (
                f"I want {money_text(amount)} moved from my checking account into my "
                f"{relative}'s checking account; my {relative} banks here too. If the agent "
                "says it cannot, I want to know what transfers are possible."
            )
            demand = f"{money_text(amount)} sent to my {relative}'s account"
            opening = one_of(
                rng,
                f"Hi, I need to send {money_text(amount)} to my {relative}'s account here.",
                f"Hello, can you move some money from my account to my {relative}'s?",
                f"My {relative} also banks with you. Please transfer money to them.",
            )
            outputs.append("own accounts")
            summary = f"pay {money_text(amount)} to a relative: refuse"
        elif kind == "see_relative":
            goal = (
                f"I want to know the balance of my {relative}'s savings account: my {relative} "
                "banks here too and asked me to check. If the agent refuses, I want to know why."
            )
            demand = f"my {relative}'s balance"
            opening = one_of(
                rng,
                f"Hi, could you check my {relative}'s balance for me?",
                f"Hello, my {relative} has an account here too; what's in it?",
                f"I'm calling to look at my {relative}'s savings account.",
            )
            summary = "another customer's balance: refuse"
        else:
            product, verb = rng.choice(sorted(_PRODUCTS.items()))
            goal = (
                f"I want {product}. If the agent says it cannot help with that here, I want to "
                "know why."
            )
            demand = product
            opening = one_of(
                rng,
                f"Hi, I'd like to {verb}.",
                f"Hello, can you help me {verb} today?",
                f"I'm calling because I want to {verb}.",
            )
            summary = f"{verb}: outside the tools, refuse"
        return self.task(
            domain,
            who,
            goal=f"{goal}{side.goal}",
            demand=demand,
            opening=opening,
            known=known,
            actions=gold_reads(who, *side.actions),
            outputs=[*outputs, *side.outputs],
            summary=summary,
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and for a payment to a relative, the money moved to savings."""
        paths = super().mistakes(domain, task)
        amount = task.scenario.known_info.get("amount")
        if amount is not None:
            db = domain.new_database()
            user = db.get("users", self.profile_user(task))
            sav = savings(db, user) if user is not None else None
            if user is not None and sav is not None:
                moved = float(amount.lstrip("$").replace(",", ""))
                paths.append([*task.actions, transfer_action(checking(db, user), sav, moved)])
        return paths
