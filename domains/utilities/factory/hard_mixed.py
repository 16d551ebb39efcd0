"""Hard utilities intents where part of the request is refused and the rest is done.

A payment plan beside a late-fee waiver given less than 12 months ago and two outage days of
which only one lasted 12 hours (mixed), a plan over more months than the $25 instalment allows
(then the longest allowed), a switch "free" because the customer believes the fixed term is
over (the records disprove it).
"""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.mixed import (
    Mixed,
)
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, replay_actions
from tau_sim.domains.utilities.data import FIXED, OUTAGE_CREDIT, PastOutage, Tariff
from tau_sim.domains.utilities.factory.common import (
    Supply,
    UtilitiesIntent,
    outage_reads,
    pick_supply,
    plannable,
)
from tau_sim.domains.utilities.rules import (
    CREDIT_MIN_HOURS,
    PLAN_MAX_MONTHS,
    PLAN_MIN_INSTALMENT,
    WAIVER_CUTOFF,
    longest_plan,
)
from tau_sim.domains.utilities.scenario import account_text, gold_reads, place_text
from tau_sim.simulator.world import Action, Database, Domain, Task

FUEL_WORDS = {"electricity": "the power", "gas": "the gas"}


def _plan(supply: Supply, months: int, method_id: str) -> Action:
    args = {"account_id": supply.account.account_id, "months": months}
    return Action("create_payment_plan", {**args, "payment_method_id": method_id})


class PlanAndLateFeeWaiver(Mixed, UtilitiesIntent):
    """Mixed: a payment plan (allowed) and a late-fee waiver (one was given this year: refused)."""

    name = "plan_and_late_fee_waiver"
    rules = ("late-fee-waiver-once-a-year",)
    challenges = frozenset({"mixed"})
    done_at = "before"  # the waiver made before the plan

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(s: Supply) -> bool:
            waived = s.account.late_fee_waived
            return plannable(s) and s.account.late_fee > 0 and waived > WAIVER_CUTOFF

        supply = pick_supply(db, rng, fits)
        if supply is None or not supply.user.payment_methods:
            return None
        balance = supply.account.balance
        method = rng.choice(supply.user.payment_methods)
        writes: list[Action] = []
        down = ""
        paying: dict[str, str] = {}
        if balance >= 125 and can_pay(method, 50.0) and rng.random() < 0.5:
            paid = float(rng.choice((25, 50)))
            args = {"account_id": supply.account.account_id, "amount": paid}
            writes.append(Action("make_payment", {**args, "payment_method_id": method.id}))
            down = f" I pay {money_text(paid)} of it now with the same method, before the plan."
            balance = money(balance - paid)
            paying["amount"] = money_text(paid)
        months = rng.choice([m for m in range(3, longest_plan(balance) + 1)])
        writes.append(_plan(supply, months, method.id))
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        latest = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
        reads = [supply.read(), Action("get_bill_details", {"bill_id": latest})]
        if not down and rng.random() < 0.5:
            reads.append(Action("calculate", {"expression": f"{balance} / {months}"}))
        who = self.identity(db, supply.user.user_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"I owe {money_text(supply.account.balance)} on "
            f"{account_text(supply.premise.address)}, late fee included: I paid my last bill "
            "late. I want to know that bill's total, I want the late fee waived, and the "
            f"balance spread over a payment plan of {months} months from "
            f"{method_text(method)}.{down} If the fee cannot be waived, "
            "I still want the plan on the whole balance, and I want to know why the fee stays "
            f"and the monthly instalment. {CONFIRM}",
            demand="the late fee waived",
            opening=one_of(
                rng,
                "Hi, I want a payment plan, and please take the late fee off.",
                "Hello, can you waive my late fee and let me pay the rest monthly?",
                "Hi, I was charged a late fee; I'd like it removed and a plan for the balance.",
                "Hello, I'm behind on my bill. I need instalments and the late fee waived.",
                "Good morning, I'd like to sort out my balance: a plan and no late fee.",
            ),
            known={
                **supply.known,
                "months": str(months),
                "payment_method": method_text(method),
                **paying,
            },
            actions=[*gold_reads(who, *reads), *writes],
            outputs=[
                money_text(results[-1]["instalment"]),
                "cannot be waived",
                supply.account.late_fee_waived,
                money_text(record(db, "bills", latest).total),
            ],
            summary=f"{months}-month plan on {supply.account.account_id}"
            + (" after a payment" if down else "")
            + f", waiver refused (last {supply.account.late_fee_waived})",
        )
        # the late fee waived a second time within 12 months
        return refusing(task, Action("waive_late_fee", {"account_id": supply.account.account_id}))

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The waiver before the plan, the generic ones, and the waiver instead of the plan."""
        return [*super().mistakes(domain, task), [*task.actions[:-1], *task.violations]]


def _on_file(db: Database, supply: Supply) -> list[PastOutage]:
    """The outages over in the premise's zip code that cut a fuel the premise has."""
    found: list[PastOutage] = [
        record(db, "past_outages", k)
        for k in db.find("past_outage_zip", supply.premise.address.zip)
    ]
    return [o for o in found if supply.meter(o.fuel) is not None]


def _credit(supply: Supply, outage: PastOutage) -> Action:
    args = {"account_id": supply.account.account_id, "date": outage.started[:10]}
    return Action("apply_outage_credit", {**args, "fuel": outage.fuel})


class OutageCreditsMixed(Mixed, UtilitiesIntent):
    """Mixed: outage credits for two days; one outage lasted 12 hours or more, one did not."""

    name = "outage_credits_mixed"
    rules = ("outage-credit-12-hours",)
    challenges = frozenset({"mixed"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(s: Supply) -> bool:
            hours = {o.hours >= CREDIT_MIN_HOURS for o in _on_file(db, s)}
            days = {o.started[:10] for o in _on_file(db, s)}
            enough = s.account.balance >= OUTAGE_CREDIT
            return enough and hours == {True, False} and len(days) == len(_on_file(db, s))

        supply = pick_supply(db, rng, fits)
        if supply is None:
            return None
        outages = _on_file(db, supply)
        long = rng.choice([o for o in outages if o.hours >= CREDIT_MIN_HOURS])
        short = rng.choice([o for o in outages if o.hours < CREDIT_MIN_HOURS])
        credit = _credit(supply, long)
        results = replay_actions(domain, db, [credit])
        if results is None:
            return None
        first, second = sorted((long, short), key=lambda o: o.started)
        reads, now = outage_reads(supply, rng)
        said = [f"{FUEL_WORDS[o.fuel]} was off on {o.started[:10]}" for o in (first, second)]
        who = self.identity(db, supply.user.user_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"At {place_text(supply.premise.address)} {said[0]}, and {said[1]}. I want the "
            f"outage credit for both days on {account_text(supply.premise.address)}. If one of "
            "them does not qualify, I want to know why, and the credit for the other one. I "
            f"want to know my new balance.{now} {CONFIRM}",
            demand=f"the outage credit for {short.started[:10]} as well",
            opening=one_of(
                rng,
                "Hi, we had two outages recently and I'd like the credits for them.",
                "Hello, I want compensation for two supply cuts this autumn.",
                "Hi, twice in the last weeks we were left without supply. Credits, please.",
                "Hello, I'd like to claim outage credits for two separate days.",
                "Good afternoon, two outages hit my home lately; what am I owed?",
            ),
            known={
                **supply.known,
                "date": f"{first.started[:10]} and {second.started[:10]}",
                "fuel": " and ".join(sorted({first.fuel, second.fuel})),
            },
            actions=[*gold_reads(who, *reads), credit],
            outputs=[
                money_text(results[0]["balance"]),
                "does not qualify",
                f"{short.hours} hours",
            ],
            summary=f"credits on {supply.account.account_id}: {long.outage_id} "
            f"({long.hours} h) yes, {short.outage_id} ({short.hours} h) no",
        )
        return refusing(task, _credit(supply, short))  # the outage shorter than 12 hours

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Both credits given, the generic ones, and only the short one given."""
        return [*super().mistakes(domain, task), [*task.actions[:-1], *task.violations]]


class PlanMinInstalment(UtilitiesIntent):
    """A plan over more months than a $25 instalment allows: refused, the longest one instead.

    Not ``mixed``: an account has one plan, so the refused plan cannot follow the allowed one
    (the tools would refuse it); the plan as asked is one of its mistakes.
    """

    name = "plan_min_instalment"
    tier = "hard"
    rules = ("plan-min-instalment",)
    challenges = frozenset({"conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(s: Supply) -> bool:
            return plannable(s) and longest_plan(s.account.balance) < PLAN_MAX_MONTHS

        supply = pick_supply(db, rng, fits)
        if supply is None or not supply.user.payment_methods:
            return None
        balance = supply.account.balance
        longest = longest_plan(balance)
        asked = rng.randint(longest + 1, PLAN_MAX_MONTHS)
        method = rng.choice(supply.user.payment_methods)
        plan = _plan(supply, longest, method.id)
        results = replay_actions(domain, db, [plan])
        if results is None:
            return None
        reads = [
            supply.read(),
            Action("calculate", {"expression": f"{balance} / {PLAN_MIN_INSTALMENT}"}),
        ]
        # the plan asked for is refused in the policy's words; the longest allowed one is made
        outputs = ["not allowed", f"{longest} months", money_text(results[0]["instalment"])]
        latest = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
        first_bill = ""
        if supply.account.bill_count and rng.random() < 0.5:
            reads.append(Action("get_bill_details", {"bill_id": latest}))
            outputs.append(money_text(record(db, "bills", latest).total))
            first_bill = " I also want to know the total of my latest bill."
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I owe {money_text(balance)} on {account_text(supply.premise.address)} and "
            f"want it spread over {asked} months, paid from {method_text(method)}, to keep the "
            f"instalments small.{first_bill} If that many months is not allowed, set the plan "
            "up over the most months you can allow instead, and tell me how many months and "
            f"the monthly instalment. {CONFIRM}",
            demand=f"my balance spread over {asked} months",
            opening=one_of(
                rng,
                f"Hi, can I spread my balance over {asked} months?",
                "Hello, I'd like the smallest possible monthly payments on my balance.",
                "Hi, I need a long payment plan, the instalments have to be tiny.",
                f"Hello, I want a {asked}-month payment plan for my energy bill.",
                "Good morning, can you set up a payment plan for me with low instalments?",
            ),
            known={
                **supply.known,
                "months": str(asked),
                "payment_method": method_text(method),
            },
            actions=[*gold_reads(who, *reads), plan],
            outputs=outputs,
            summary=f"{asked}-month plan on {money_text(balance)} refused, {longest} made",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the plan as asked (instalments under $25), a shorter plan."""
        *reads, plan = task.actions
        asked = replaced(plan, months=int(task.scenario.known_info["months"]))
        shorter = replaced(plan, months=plan.arguments["months"] - 1)
        paths = [*super().mistakes(domain, task), [*reads, asked]]
        if plan.arguments["months"] > 3:
            paths.append([*reads, shorter])
        return paths


def _fixed_targets(db: Database, supply: Supply) -> list[Tariff]:
    tariffs: list[Tariff] = [record(db, "tariffs", t) for t in db.keys("tariffs")]
    current = supply.tariff.tariff_id
    return [t for t in tariffs if t.available and t.tariff_id != current]


class FixedTermClaim(Refuses, UtilitiesIntent):
    """Disproven: a switch asked for as free, the customer sure the fixed term has ended."""

    name = "fixed_term_claim"
    tier = "hard"
    forbidden = True
    rules = ("exit-fee-never-waived",)
    challenges = frozenset({"disproven", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.tariff.kind == FIXED and s.exit_fee > 0)
        if supply is None:
            return None
        target = rng.choice(_fixed_targets(db, supply))
        reads = [supply.read(), Action("list_tariffs", {})]
        if rng.random() < 0.5:
            reads.insert(1, Action("get_tariff_details", {"tariff_id": supply.tariff.tariff_id}))
        who = self.identity(db, supply.user.user_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"My fixed deal on {account_text(supply.premise.address)} has already ended, "
            f"I am sure of it, so I want to switch to {target.name} at no cost. If the agent "
            "says there is an exit fee, I do not switch: I want to know the fee and the date "
            "my fixed term really ends.",
            demand=f"the switch to {target.name} without an exit fee",
            opening=one_of(
                rng,
                f"Hi, my fixed deal is over, so move me to {target.name}, no fees.",
                "Hello, my fixed term finished, I'd like to change tariff for free.",
                "Hi, I'm out of contract now and want a different tariff.",
                f"Hello, please switch me to {target.name}; my fixed price ended already.",
                "Good morning, my fixed tariff has run out, so I can switch without a fee, right?",
            ),
            known={
                **supply.known,
                "tariff": target.name,
                "current_tariff": supply.tariff.name,
            },
            actions=gold_reads(who, *reads),
            outputs=[money_text(supply.exit_fee), supply.account.fixed_until],
            summary=f"free switch of {supply.account.account_id} (fixed to "
            f"{supply.account.fixed_until}): refuse",
        )
        # the switch made, the exit fee charged
        switch = {"account_id": supply.account.account_id, "tariff_id": target.tariff_id}
        return refusing(task, Action("change_tariff", switch))
