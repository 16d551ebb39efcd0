"""Utilities intents about the supply itself: outages, a gas smell, hardship."""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import OtherChoice, one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM, replay_actions
from tau_sim.domains.utilities.data import ELECTRICITY, GAS, Outage
from tau_sim.domains.utilities.factory.common import (
    Supply,
    UtilitiesIntent,
    account_of,
    last_outage,
    pick_supply,
    plannable,
)
from tau_sim.domains.utilities.rules import PLAN_MAX_MONTHS
from tau_sim.domains.utilities.scenario import account_text, gold_reads, place_text
from tau_sim.simulator.world import Action, Database, Domain, Task


class HardshipDisconnection(Refuses, UtilitiesIntent):
    """A customer in hardship or with a medical dependency asks about disconnection: transfer."""

    name = "hardship_disconnection"
    forbidden = True
    rules = ("hardship-priority-transfer",)
    done_at = "before"
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: plannable(s) and bool(s.user.payment_methods))
        if supply is None:
            return None
        situation = one_of(
            rng,
            "I lost my job last month and I have no income at the moment",
            "my husband uses a home oxygen machine that needs electricity day and night",
            "I rely on a powered wheelchair and a dialysis machine at home",
            "I am on disability benefits and can't afford food and energy both",
        )
        medical = "machine" in situation or "wheelchair" in situation
        reads = [supply.read()]
        if supply.account.bill_count:
            latest = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
            reads.append(Action("get_bill_details", {"bill_id": latest}))
        who = self.identity(db, supply.user.user_id, rng)
        summary = (
            f"Customer {supply.user.user_id} ({'medical dependency' if medical else 'hardship'}) "
            f"owes {money_text(supply.account.balance)} on account {supply.account.account_id} "
            "and asks about disconnection."
        )
        task = self.task(
            domain,
            who,
            goal=f"I owe {money_text(supply.account.balance)} on "
            f"{account_text(supply.premise.address)} and {situation}. I am scared my supply will "
            "be cut off and want to know whether you will disconnect me. I want to talk to "
            "someone who can help with my situation.",
            demand="someone who can help with my situation",
            opening=one_of(
                rng,
                "Hi, are you going to cut off my power? I can't pay right now.",
                f"Hello, I'm really worried, {situation}, and I've fallen behind on my bill.",
                "Hi, I got a letter about my debt. Will you disconnect me?",
                "Hello, I'm behind on payments and scared of being cut off.",
                "Please help, I can't afford my energy bill and I need my supply.",
            ),
            known=dict(supply.known),
            actions=[
                *gold_reads(who, *reads),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"hardship disconnection question on {supply.account.account_id}: transfer",
        )
        plan = {
            "account_id": supply.account.account_id,
            "months": PLAN_MAX_MONTHS,
            "payment_method_id": supply.user.payment_methods[0].id,
        }
        # a 12-month plan set up by the agent instead of the transfer
        return refusing(task, Action("create_payment_plan", plan))


# ---- outages ----------------------------------------------------------------------------------


def _area(db: Database, supply: Supply) -> list[Outage]:
    return [record(db, "outages", k) for k in db.find("outage_zip", supply.premise.address.zip)]


class ReportOutage(OtherChoice, UtilitiesIntent):
    """Report a supply problem where no outage is known; the user wants the reference."""

    name = "report_outage"
    choice, choices = "problem", ("no supply", "intermittent supply")

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: not _area(db, s))
        if supply is None:
            return None
        meter = rng.choice(supply.meters)
        problem = rng.choice(self.choices)
        both = len(supply.meters) == 2 and problem == "no supply" and rng.random() < 0.5
        fuels = [m.fuel for m in supply.meters] if both else [meter.fuel]
        reports = [
            Action(
                "report_outage",
                {"account_id": supply.account.account_id, "fuel": fuel, "problem": problem},
            )
            for fuel in fuels
        ]
        results = replay_actions(domain, db, reports)
        if results is None:
            return None
        what = {
            ("no supply", ELECTRICITY): "the power is completely off in my home",
            ("intermittent supply", ELECTRICITY): "the power keeps cutting out every few minutes",
            ("no supply", GAS): "there is no gas at all: the boiler and hob won't light",
            ("intermittent supply", GAS): "the gas keeps cutting out; the boiler stops and starts",
        }[problem, meter.fuel]
        if both:
            what = "neither the power nor the gas works: no electricity and no gas at all"
        zip_code = supply.premise.address.zip
        reads = [supply.read(), Action("get_area_outages", {"zip": zip_code})]
        outputs = [r["reference"] for r in results]
        history, day = last_outage(db, rng, zip_code)
        reads += history
        outputs += day
        before = ""
        if history:
            before = " I also want to know when the last outage here was."
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"At {place_text(supply.premise.address)} {what}. I don't smell gas. I want it "
            f"reported and I want the report's reference number"
            + (" for each supply" if both else "")
            + f".{before} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, {what}.",
                "Hello, I need to report a problem with my supply.",
                "Hi, something's wrong with my energy supply at home.",
                "Hello, I want to report a fault, my supply isn't working properly.",
                "Good evening, can I log a supply problem with you?",
            ),
            known={**supply.known, "fuel": " and ".join(fuels), "problem": problem},
            actions=[*gold_reads(who, *reads), *reports],
            outputs=outputs,
            summary=f"report {' and '.join(fuels)} {problem} on {supply.account.account_id}",
        )


class KnownOutage(UtilitiesIntent):
    """A loss of supply in an area with a known outage: say its id and restoration time."""

    name = "known_outage"
    rules = ("known-outage-no-report",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def covered(s: Supply) -> bool:
            return any(s.meter(o.fuel) is not None for o in _area(db, s))

        supply = pick_supply(db, rng, covered)
        if supply is None:
            return None
        outage = next(o for o in _area(db, supply) if supply.meter(o.fuel) is not None)
        zip_code = supply.premise.address.zip
        reads = [supply.read(), Action("get_area_outages", {"zip": zip_code})]
        outputs = [outage.outage_id, outage.estimated_restoration.split("T")[1]]
        history, day = last_outage(db, rng, zip_code)
        reads += history
        outputs += day
        before = ""
        if history:
            before = " I also want to know when the last outage here before this one was."
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"At {place_text(supply.premise.address)} there has been no {outage.fuel} since "
            "this morning. I want to know whether you know about it and when it will be back "
            f"(the estimated time), and its reference.{before}",
            opening=one_of(
                rng,
                f"Hi, my {outage.fuel} has gone off. What's going on?",
                "Hello, there's no supply at my home since this morning.",
                f"Hi, is there a {outage.fuel} outage in my area?",
                "Hello, we've had no supply for hours, do you know about it?",
                "Good morning, when will my supply be back on?",
            ),
            known={**supply.known, "fuel": outage.fuel, "problem": "no supply"},
            actions=gold_reads(who, *reads),
            outputs=outputs,
            summary=f"known outage {outage.outage_id} at {supply.premise.premise_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """A duplicate report filed for an outage already known."""
        account = account_of(domain, task)
        assert account is not None
        report = Action(
            "report_outage",
            {
                "account_id": account.account_id,
                "fuel": task.scenario.known_info["fuel"],
                "problem": "no supply",
            },
        )
        return [*super().mistakes(domain, task), [*task.actions, report]]


class GasSmell(Refuses, UtilitiesIntent):
    """A smell of gas is an emergency: safety advice and a transfer, no report filed."""

    name = "gas_smell"
    forbidden = True
    rules = ("gas-smell-transfer",)
    done_at = "instead"
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.meter(GAS) is not None)
        if supply is None:
            return None
        who = self.identity(db, supply.user.user_id, rng)
        summary = (
            f"Customer {supply.user.user_id} smells gas at {place_text(supply.premise.address)} "
            f"(account {supply.account.account_id}): gas emergency."
        )
        task = self.task(
            domain,
            who,
            goal=f"There is a strong smell of gas in the kitchen at "
            f"{place_text(supply.premise.address)} and the gas seems weak. I want it reported "
            "as a supply problem and someone to look at it.",
            demand="someone sent out to look at the gas problem",
            opening=one_of(
                rng,
                "Hi, I can smell gas in my kitchen and the hob barely lights.",
                "Hello, something is wrong with my gas, there's a strong smell.",
                "Hi, there's a funny smell near my boiler and the gas is weak.",
                "Hello, I want to report a gas problem, it smells in the house.",
                "Hi, the gas hob keeps going out and there's a gassy smell.",
            ),
            known={**supply.known, "fuel": GAS, "problem": "intermittent supply"},
            actions=[
                *gold_reads(who, supply.read()),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"gas smell at {supply.premise.premise_id}: transfer",
        )
        report = {
            "account_id": supply.account.account_id,
            "fuel": GAS,
            "problem": "intermittent supply",
        }
        # an ordinary outage report filed instead of the emergency transfer
        return refusing(task, Action("report_outage", report))

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the ordinary report filed instead of the transfer or before it."""
        *reads, transfer = task.actions
        report = self.violations(domain, task)
        return [*super().mistakes(domain, task), [*reads, *report, transfer]]
