"""Hard insurance intents with long horizons: three or four writes over one or two policies.

A household's yearly update (a driver on the car, an item on the house, one payment method for
both) and a whole collection scheduled at once; each goal has a condition the quotes decide
(a driver too dear to add, an item too dear to schedule).
"""

from __future__ import annotations

import random

from tau_sim.domains.insurance.access import days_left, driver_charge, item_charge
from tau_sim.domains.insurance.data import ACTIVE, AUTO, HOME, TODAY, Policy, User
from tau_sim.domains.insurance.factory.common import (
    InsuranceIntent,
    driver_args,
    new_driver,
    pick_policy,
    policy_label,
)
from tau_sim.domains.insurance.rules import ITEM_CATEGORIES, RELATIONSHIPS
from tau_sim.domains.insurance.scenario import driver_text
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.factory.chains import Chain, left_out, links
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replay_actions, sum_action
from tau_sim.simulator.world import Action, Database, Domain, Task


def _item_text(category: str, value: float) -> str:
    return f"a {category} item appraised at {money_text(value)}"


def _item(policy: Policy, category: str, value: float) -> dict[str, object]:
    return {"policy_id": policy.policy_id, "category": category, "value": value}


def _dollars(amount: float) -> str:
    return f"${amount:,.0f}"


def _driver_added(domain: Domain, task: Task) -> list[Action] | None:
    """The gold path and the driver the user finds too dear added anyway (none if added)."""
    if links(task, "add_driver"):
        return None
    known = task.scenario.known_info["new_driver"].replace(",", "").split()
    quote = links(task, "quote_driver")[0]
    add = {
        "policy_id": quote.arguments["policy_id"],
        "first_name": known[2],
        "last_name": known[3],
        "birth_date": known[5],
        "license_number": known[-1],
        "relationship": known[1],
    }
    return [*task.actions, Action("add_driver", add)]


def _every_item(domain: Domain, task: Task) -> list[Action] | None:
    """The gold path and the item left out (too dear) scheduled anyway (none if none is left)."""
    quoted = links(task, "quote_scheduled_item")
    scheduled = [a.arguments for a in links(task, "add_scheduled_item")]
    if len(scheduled) >= len(quoted):
        return None
    left = next(q for q in quoted if q.arguments not in scheduled)
    return [*task.actions, Action("add_scheduled_item", left.arguments)]


class HouseholdUpdate(Chain, InsuranceIntent):
    """A driver on the car (unless too dear), an item on the house, one payment method for both."""

    name = "household_update"
    tier = "hard"
    challenges = frozenset({"long", "conditional"})
    slips = (left_out("add_driver"), _driver_added)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        auto = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.kind == AUTO)
        if auto is None or len(auto.drivers) > 3 or days_left(auto) < 10:
            return None
        user: User = record(db, "users", auto.user_id)
        homes = [
            h
            for h in (record(db, "policies", p) for p in user.policies)
            if h.kind == HOME and h.status == ACTIVE and days_left(h) >= 10
        ]
        methods = [
            m
            for m in user.payment_methods
            if homes and m.id not in (auto.payment_method_id, homes[0].payment_method_id)
        ]
        if not homes or not methods:
            return None
        home: Policy = homes[0]
        method = rng.choice(methods)
        driver = new_driver(db, rng, user, rng.choice(RELATIONSHIPS))
        _, charge = driver_charge(auto, age_on(driver.birth_date, TODAY))
        category = rng.choice(sorted(ITEM_CATEGORIES))
        value = float(rng.randint(10, 300) * 100)
        _, item_cost = item_charge(home, category, value)
        limit = money(round(charge * rng.choice((0.6, 1.4)), -1))
        if charge <= 0 or limit == charge:
            return None
        adding = charge <= limit
        who = self.identity(db, user.user_id, rng)
        quote = {"policy_id": auto.policy_id, "birth_date": driver.birth_date}
        writes = [
            *([Action("add_driver", driver_args(auto, driver))] if adding else []),
            Action("add_scheduled_item", _item(home, category, value)),
            *(
                Action(
                    "update_policy_payment_method",
                    {"policy_id": p.policy_id, "payment_method_id": method.id},
                )
                for p in (auto, home)
            ),
        ]
        outputs = [money_text(charge), money_text(item_cost)]
        if adding:
            outputs.append(money_text(money(charge + item_cost)))
        opening = rng.choice(
            (
                "Hi, I have a few changes to make to my car and home policies.",
                f"Hello, my {driver.relationship} needs to be on my car insurance, and I have a "
                "few other updates too.",
                "I'd like to update both of my policies today: a driver, an item and how I pay.",
            )
        ) + (
            f" But I don't want the driver added if that raises my car premium by more than "
            f"{_dollars(limit)}."
        )
        return self.task(
            domain,
            who,
            goal=f"Three things. I want to add {driver_text(driver)} as a driver on my car "
            f"policy, but if that raises my car premium by more than {_dollars(limit)}, do not "
            f"add them. I want to schedule {_item_text(category, value)} on my home policy. And "
            f"I want {method_text(method)} to be the payment method on file for both policies. "
            f"I want to know the premium increases. {CONFIRM}",
            opening=opening,
            known={
                "policies": f"my {policy_label(auto)} and my {policy_label(home)}",
                "new_driver": driver_text(driver),
                "item": _item_text(category, value),
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                *(Action("get_policy_details", {"policy_id": p}) for p in user.policies),
                Action("quote_driver", quote),
                Action("quote_scheduled_item", _item(home, category, value)),
                *(sum_action([charge, item_cost]) if adding else []),
                *writes,
            ],
            outputs=outputs,
            summary=f"{'add' if adding else 'skip'} a driver on {auto.policy_id}, schedule "
            f"{category} on {home.policy_id}, switch both to {method.id}",
        )


class ScheduleCollection(Chain, InsuranceIntent):
    """Schedule four items on a home policy, leaving out one the user finds too dear."""

    name = "schedule_collection"
    tier = "hard"
    challenges = frozenset({"long", "conditional"})
    slips = (_every_item,)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.kind == HOME)
        if policy is None or days_left(policy) < 30:
            return None
        categories = rng.sample(sorted(ITEM_CATEGORIES), 4)
        values = [float(rng.randint(10, 400) * 100) for _ in categories]
        charges = [item_charge(policy, c, v)[1] for c, v in zip(categories, values, strict=True)]
        ranked = sorted(charges)
        if ranked[-1] - ranked[-2] < 4 or ranked[0] <= 0:
            return None
        leave_one = rng.random() < 0.6
        limit = float(int(ranked[-2]) + 2) if leave_one else float(int(ranked[-1]) + 5)
        kept = [
            (c, v, ch) for c, v, ch in zip(categories, values, charges, strict=True) if ch <= limit
        ]
        args = [_item(policy, c, v) for c, v, _ in kept]
        adds = [Action("add_scheduled_item", a) for a in args]
        results = replay_actions(domain, db, adds)
        if results is None:
            return None
        who = self.owner(db, policy, rng)
        texts = [_item_text(c, v) for c, v in zip(categories, values, strict=True)]
        opening = (
            rng.choice(
                (
                    "Hi, I want to schedule several valuables on my home insurance.",
                    "Hello, I just had my collection appraised and want it all insured.",
                    f"I have {len(texts)} items I'd like added to my home policy.",
                )
            )
            + f" I'll leave out any item that raises my premium by more than {_dollars(limit)}."
        )
        total = money(sum(ch for _, _, ch in kept))
        return self.task(
            domain,
            who,
            goal=f"I want to schedule these items on my home policy {policy.policy_id}: "
            f"{'; '.join(texts)}. But if any one of them would raise my premium by more than "
            f"{_dollars(limit)}, leave that one out. I want to know the total premium increase "
            f"and the new premium. {CONFIRM}",
            opening=opening,
            known={"policy_id": policy.policy_id, "items": "; ".join(texts)},
            actions=[
                *who.actions,
                Action("get_policy_details", {"policy_id": policy.policy_id}),
                *(
                    Action("quote_scheduled_item", _item(policy, c, v))
                    for c, v in zip(categories, values, strict=True)
                ),
                *sum_action([ch for _, _, ch in kept]),
                *adds,
            ],
            outputs=[money_text(total), money_text(results[-1]["premium"])],
            summary=f"schedule {len(kept)} of 4 items on {policy.policy_id}: +{money_text(total)}",
        )
