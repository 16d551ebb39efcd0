"""Hard utilities intents about claims the records check: disputed readings, outage days.

A customer says a bill's reading is wrong (the bill used the very reading they give, an actual
one), that an estimate was too high (a dispute if their meter shows less, a reading if more),
or that the supply was off on a day with no outage on file.
"""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.claims import DisprovenClaim
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.utilities.data import ELECTRICITY, HISTORY_DAYS, TODAY, Bill, BillLine, Meter
from tau_sim.domains.utilities.factory.common import (
    Supply,
    UtilitiesIntent,
    outage_reads,
    pick_supply,
)
from tau_sim.domains.utilities.scenario import account_text, gold_reads, place_text, units_text
from tau_sim.simulator.world import Action, Database, Domain, Task


def latest_line(
    db: Database, rng: random.Random, estimated: bool
) -> tuple[Supply, Bill, Meter, BillLine] | None:
    """A supply whose newest bill has a line (estimated or not) on its meter's newest reading."""

    def line(s: Supply) -> tuple[Bill, Meter, BillLine] | None:
        if s.account.bill_count < 1:
            return None
        bill: Bill = record(db, "bills", f"{s.account.account_id}-B{s.account.bill_count:02d}")
        for ln in bill.lines:
            meter = next(m for m in s.meters if m.meter_id == ln.meter_id)
            if ln.estimated == estimated and s.last[meter.meter_id].value == ln.to_value:
                return bill, meter, ln
        return None

    supply = pick_supply(db, rng, lambda s: line(s) is not None)
    found = line(supply) if supply is not None else None
    return None if supply is None or found is None else (supply, *found)


def bill_read(bill: Bill) -> Action:
    """The gold read of a bill."""
    return Action("get_bill_details", {"bill_id": bill.bill_id})


def _dispute(bill: Bill, meter: Meter, value: int) -> Action:
    """The dispute of ``bill``'s reading of ``meter``, the customer saying it shows ``value``."""
    return Action(
        "dispute_bill",
        {"bill_id": bill.bill_id, "meter_id": meter.meter_id, "customer_reading": value},
    )


class ReadingClaimMatches(DisprovenClaim, UtilitiesIntent):
    """Disproven: a bill's reading called wrong, though it is the actual reading they give."""

    name = "reading_claim_matches"
    own_mistakes = "before"
    rules = ("bill-reading-matches",)
    challenges = frozenset({"disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = latest_line(db, rng, estimated=False)
        if found is None:
            return None
        supply, bill, meter, line = found
        reads = [
            supply.read(),
            bill_read(bill),
            Action("get_meter_readings", {"meter_id": meter.meter_id}),
        ]
        outputs = [str(line.to_value), "actual"]
        charged = ""
        if rng.random() < 0.5:
            expression = f"{line.to_value} - {line.from_value}"
            reads.append(Action("calculate", {"expression": expression}))
            outputs.append(units_text(line.units, meter.unit))
            charged = f" I also want to know how many {meter.unit} the bill charged me for."
        who = self.identity(db, supply.user.user_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"My latest bill for {account_text(supply.premise.address)} is far too high: "
            f"the {meter.fuel} reading on it must be wrong. When I last read the {meter.fuel} "
            f"meter, on {bill.period_end}, it showed {line.to_value}. I want the bill's reading "
            "disputed, and your reading history checked. If the agent shows the bill used "
            f"exactly my reading, I want to hear how that reading was taken.{charged}",
            demand="the reading on my bill disputed",
            opening=one_of(
                rng,
                "Hi, the meter reading on my last bill is wrong.",
                "Hello, I think you used the wrong reading on my latest energy bill.",
                f"Hi, my last bill has a wrong {meter.fuel} reading and I want it fixed.",
                "Hello, I want to dispute my latest bill, the reading can't be right.",
                "Good morning, your reading on my bill doesn't match my meter, I'm sure.",
            ),
            known={
                **supply.known,
                "bill": "the latest bill",
                "meter": f"my {meter.fuel} meter",
                "reading": str(line.to_value),
            },
            actions=gold_reads(who, *reads),
            outputs=outputs,
            summary=f"reading on {bill.bill_id} called wrong, matches {line.to_value}: refuse",
        )
        # the dispute opened although the bill used the customer's own reading
        return refusing(task, _dispute(bill, meter, line.to_value))

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the dispute opened, the same reading recorded again."""
        args = self.violations(domain, task)[0].arguments
        again = {"meter_id": args["meter_id"], "value": args["customer_reading"]}
        return [
            *super().mistakes(domain, task),
            [*task.actions, Action("submit_meter_reading", again)],
        ]


class DisputeOrReading(UtilitiesIntent):
    """An estimated bill: a dispute if the meter shows less than the estimate, else a reading."""

    name = "dispute_or_reading"
    tier = "hard"
    challenges = frozenset({"conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = latest_line(db, rng, estimated=True)
        if found is None:
            return None
        supply, bill, meter, line = found
        span = (20, 300) if meter.fuel == ELECTRICITY else (3, 30)
        lower = rng.random() < 0.5 and line.units > span[1]
        value = line.to_value + (-1 if lower else 1) * rng.randint(*span)
        reads = [supply.read(), bill_read(bill)]
        history = ""
        if rng.random() < 0.5:
            reads.append(Action("get_meter_readings", {"meter_id": meter.meter_id}))
            history = " I want you to look at the readings you have on file for that meter too."
        if lower:
            write = _dispute(bill, meter, value)
            outputs = [f"D-{bill.bill_id}"]
        else:
            reads.append(Action("calculate", {"expression": f"{value} - {line.to_value}"}))
            write = Action("submit_meter_reading", {"meter_id": meter.meter_id, "value": value})
            outputs = [units_text(value - line.to_value, meter.unit)]
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"My latest bill for {account_text(supply.premise.address)} used an estimated "
            f"{meter.fuel} reading. My {meter.fuel} meter shows {value} today. If your estimate "
            "is higher than what my meter shows, I want the bill disputed and the dispute's "
            "reference. If it is not, I want my reading recorded and to know how many "
            f"{meter.unit} I used since your estimate.{history} {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, my last bill was estimated and I don't trust the estimate.",
                f"Hello, you estimated my {meter.fuel} again on the last bill.",
                "Hi, I have a real reading and I think your estimate was off.",
                "Hello, can you check an estimated reading against my meter?",
                f"Good evening, my {meter.fuel} bill was estimated; I've read the meter now.",
            ),
            known={
                **supply.known,
                "bill": "the latest bill",
                "meter": f"my {meter.fuel} meter",
                "reading": str(value),
            },
            actions=[*gold_reads(who, *reads), write],
            outputs=outputs,
            summary=f"estimate {line.to_value} on {bill.bill_id}, meter shows {value}: "
            + ("dispute" if lower else "reading"),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a dispute opened where the meter shows more (condition missed)."""
        *reads, write = task.actions
        paths = [*super().mistakes(domain, task)]
        if write.name == "submit_meter_reading":
            bill_id = next(a for a in reads if a.name == "get_bill_details").arguments["bill_id"]
            args = {
                "bill_id": bill_id,
                "meter_id": write.arguments["meter_id"],
                "customer_reading": write.arguments["value"],
            }
            paths.append([*reads, Action("dispute_bill", args)])
        return paths


def _quiet_day(db: Database, rng: random.Random, supply: Supply) -> str | None:
    """A day of the last weeks with no electricity outage on file in the premise's zip code."""
    zip_code = supply.premise.address.zip
    busy = {
        record(db, "past_outages", k).started[:10]
        for k in db.find("past_outage_zip", zip_code)
        if record(db, "past_outages", k).fuel == ELECTRICITY
    }
    days = [
        (TODAY - dt.timedelta(days=n)).isoformat()
        for n in range(3, HISTORY_DAYS - 10)
        if (TODAY - dt.timedelta(days=n)).isoformat() not in busy
    ]
    return rng.choice(days) if days else None


class OutageCreditNotOnFile(DisprovenClaim, UtilitiesIntent):
    """Disproven: an outage credit for a day with no outage on file in the zip code."""

    name = "outage_credit_not_on_file"
    own_mistakes = "before"
    rules = ("outage-credit-on-file",)
    challenges = frozenset({"disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: True)
        if supply is None:
            return None
        when = _quiet_day(db, rng, supply)
        if when is None:
            return None
        hours = rng.choice(("most of the day", "the whole evening", "about fifteen hours"))
        reads, now = outage_reads(supply, rng)
        who = self.identity(db, supply.user.user_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"The power was off at {place_text(supply.premise.address)} on {when}, for "
            f"{hours}. I want the outage credit on {account_text(supply.premise.address)} for "
            "that day. If the agent says there was no outage, I want to hear what the records "
            f"show for that day.{now}",
            demand=f"the outage credit for {when}",
            opening=one_of(
                rng,
                "Hi, we had a power cut recently and I want the credit for it.",
                "Hello, I'm owed compensation for a power outage.",
                "Hi, how do I get the outage credit? We lost power for hours.",
                "Hello, my electricity was off for ages the other day, I want my credit.",
                "Good morning, I'd like to claim for a day without power.",
            ),
            known={**supply.known, "date": when, "fuel": ELECTRICITY},
            actions=gold_reads(who, *reads),
            outputs=["no outage"],
            summary=f"outage credit for {when} at {supply.premise.premise_id}, none on file",
        )
        credit = {"account_id": supply.account.account_id, "date": when, "fuel": ELECTRICITY}
        return refusing(task, Action("apply_outage_credit", credit))  # no outage on file
