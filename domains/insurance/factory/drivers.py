"""Insurance intents that add a driver to an auto policy, or refuse to."""

from __future__ import annotations

import random

from tau_sim.domains.insurance.access import days_left, driver_charge
from tau_sim.domains.insurance.data import AUTO, TODAY, Driver, Policy, User
from tau_sim.domains.insurance.factory.common import (
    InsuranceIntent,
    PolicyRef,
    active,
    driver_args,
    new_driver,
    payer,
    pick_policy,
)
from tau_sim.domains.insurance.rules import NON_HOUSEHOLD, RELATIONSHIPS
from tau_sim.domains.insurance.scenario import driver_text, gold_reads
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced
from tau_sim.simulator.world import Action, Database, Domain, Task


class _DriverIntent(InsuranceIntent):
    """A household member added to an active auto policy (shared sampling)."""

    def drawn(
        self, db: Database, rng: random.Random, relationships: tuple[str, ...]
    ) -> tuple[Policy, User, Driver, float] | None:
        """An auto policy with room for a driver, its holder, the driver and the charge."""
        policy = pick_policy(db, rng, lambda p: active(AUTO)(p) and len(p.drivers) < 4)
        if policy is None or days_left(policy) < 10:
            return None
        user: User = record(db, "users", policy.user_id)
        driver = new_driver(db, rng, user, rng.choice(relationships))
        _, charge = driver_charge(policy, age_on(driver.birth_date, TODAY))
        return policy, user, driver, charge

    def quote(self, policy: Policy, driver: Driver) -> Action:
        """The gold quote of adding ``driver``."""
        return Action(
            "quote_driver", {"policy_id": policy.policy_id, "birth_date": driver.birth_date}
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the driver added with another relationship."""
        paths = super().mistakes(domain, task)
        index = next((i for i, a in enumerate(task.actions) if a.name == "add_driver"), None)
        if index is None:
            return paths
        add = task.actions[index]
        other = next(r for r in RELATIONSHIPS if r != add.arguments["relationship"])
        wrong = replaced(add, relationship=other)
        return [*paths, [*task.actions[:index], wrong, *task.actions[index + 1 :]]]


class AddDriver(_DriverIntent):
    """Add a household member as a driver; learn the premium change."""

    name = "add_driver"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = self.drawn(db, rng, RELATIONSHIPS)
        if drawn is None:
            return None
        policy, _, driver, charge = drawn
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        new_premium = money(policy.premium + charge)
        ref = PolicyRef(db, policy, rng)
        opening = one_of(
            rng,
            f"Hi, I'd like to add my {driver.relationship} as a driver on my car insurance.",
            f"Hello, my {driver.relationship} will be driving my car now. Can you add them?",
            "I need another driver on my auto policy, please.",
        )
        return self.task(
            domain,
            who,
            goal=f"I want to add {driver_text(driver)} as a driver on my {ref.text}. I want "
            f"to know how much my premium goes up and what the new premium is. {CONFIRM}",
            opening=opening + ref.say,
            known={**ref.known, "new_driver": driver_text(driver)},
            actions=[
                *gold_reads(who, *ref.reads),
                self.quote(policy, driver),
                Action("add_driver", driver_args(policy, driver)),
            ],
            outputs=[money_text(charge), money_text(new_premium)],
            summary=f"add {driver.relationship} to {pid}: +{money_text(charge)}",
        )


class AddDriverAndPay(_DriverIntent):
    """Add a driver and pay the whole new balance due at once (two writes)."""

    name = "add_driver_and_pay"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = self.drawn(db, rng, RELATIONSHIPS)
        if drawn is None:
            return None
        policy, user, driver, charge = drawn
        balance = money(policy.balance_due + charge)
        method = payer(user, balance, rng)
        if method is None or charge <= 0:
            return None
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        pay = {"policy_id": pid, "payment_method_id": method.id, "amount": balance}
        ref = PolicyRef(db, policy, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to add {driver_text(driver)} as a driver on my {ref.text}, and "
            f"then pay the whole balance due on the policy right away with {method_text(method)}. "
            f"I want to know the premium increase and how much I paid. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I need to add a driver to my policy and pay what I owe.",
                f"Hello, my {driver.relationship} needs to be on my car insurance, and I "
                "want to settle up.",
                "I'd like to add someone to my auto policy and pay it all off today.",
            )
            + ref.say,
            known={
                **ref.known,
                "new_driver": driver_text(driver),
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, *ref.reads),
                self.quote(policy, driver),
                Action("add_driver", driver_args(policy, driver)),
                Action("make_payment", pay),
            ],
            outputs=list(dict.fromkeys([money_text(charge), money_text(balance)])),
            summary=f"add a driver to {pid} and pay {money_text(balance)}",
        )


class NonHouseholdDriverRefusal(Refuses, _DriverIntent):
    """Ask to add a friend or coworker as a driver: only household members may be added."""

    name = "non_household_driver_refusal"
    forbidden = True
    rules = ("household-only",)
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = self.drawn(db, rng, NON_HOUSEHOLD)
        if drawn is None:
            return None
        policy, _, driver, _ = drawn
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        task = self.task(
            domain,
            who,
            goal=f"I want to add {driver_text(driver)} as a driver on my auto policy {pid}; they "
            "do not live with me. If the agent says only household members can be added, I "
            "accept that in the end and do not ask for anything else.",
            demand=f"{driver.first_name} {driver.last_name} added as a driver on my policy {pid}",
            opening=one_of(
                rng,
                f"Hi, can I add my {driver.relationship} as a driver on my car insurance?",
                f"Hello, my {driver.relationship} borrows my car a lot. Can they go on my policy?",
                f"I want my {driver.relationship} {driver.first_name} covered to drive my car.",
            ),
            known={"policy_id": pid, "new_driver": driver_text(driver)},
            actions=gold_reads(who, pid),
            outputs=["household"],
            summary=f"add {driver.relationship} to {pid}: not a household member, refuse",
        )
        # the non-household driver added as the user asks
        return refusing(task, Action("add_driver", driver_args(policy, driver)))
