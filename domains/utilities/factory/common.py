"""The utilities intents' base class and the supply, reading and payment helpers they share."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import PaymentMethod
from tau_sim.domains.kit.tasks import CustomerIntent, replay_actions
from tau_sim.domains.utilities.data import (
    ACTIVE,
    ELECTRICITY,
    FIXED,
    GAS,
    TODAY,
    Account,
    Meter,
    Premise,
    Reading,
    Tariff,
    User,
    reading_id,
)
from tau_sim.domains.utilities.rules import PLAN_MIN_INSTALMENT, PLAN_MIN_MONTHS
from tau_sim.domains.utilities.scenario import UNKNOWN_IDS, account_text, reading_text
from tau_sim.simulator.world import Action, Database, Domain, Task


class Supply:
    """One open account as an intent samples it: its customer, premise, meters and tariff."""

    def __init__(self, db: Database, account: Account) -> None:
        self.account = account
        self.user: User = record(db, "users", account.user_id)
        self.premise: Premise = record(db, "premises", account.premise_id)
        self.meters: list[Meter] = [record(db, "meters", m) for m in self.premise.meters]
        self.tariff: Tariff = record(db, "tariffs", account.tariff_id)
        self.last: dict[str, Reading] = {
            m.meter_id: record(db, "readings", reading_id(m.meter_id, m.reading_count))
            for m in self.meters
        }

    def meter(self, fuel: str) -> Meter | None:
        """The premise's meter of ``fuel``, if any."""
        return next((m for m in self.meters if m.fuel == fuel), None)

    @property
    def exit_fee(self) -> float:
        """The exit fee a tariff switch would cost today."""
        if self.tariff.kind != FIXED or self.account.fixed_until <= TODAY.isoformat():
            return 0.0
        return self.tariff.exit_fee * len(self.meters)

    @property
    def known(self) -> dict[str, str]:
        """How the customer names the account."""
        return {"account": account_text(self.premise.address)}

    def read(self) -> Action:
        """The gold read of the account."""
        return Action("get_account_details", {"account_id": self.account.account_id})


def pick_supply(
    db: Database, rng: random.Random, accept: Callable[[Supply], bool]
) -> Supply | None:
    """A random open account that ``accept`` likes, as a ``Supply``, or None."""
    found: Account | None = pick(
        db, rng, "accounts", lambda a: a.status == ACTIVE and accept(Supply(db, a))
    )
    return None if found is None else Supply(db, found)


def new_value(rng: random.Random, meter: Meter, last: Reading) -> int:
    """A plausible reading today: the last value plus a few weeks of use."""
    if meter.fuel == ELECTRICITY:
        return last.value + rng.randint(90, 700)
    return last.value + rng.randint(6, 95)


def account_of(domain: Domain, task: Task) -> Account | None:
    """The base record of the first account a gold action names."""
    db = domain.new_database()
    for action in task.actions:
        account_id = action.arguments.get("account_id")
        if isinstance(account_id, str):
            account: Account = record(db, "accounts", account_id)
            return account
    return None


class UtilitiesIntent(CustomerIntent):
    """An energy customer who proves their identity with email or name + zip code."""

    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested paperless-billing change; the last write left out."""
        writes = domain.write_actions(task)
        reads = [
            a for a in task.actions if a.name not in domain.toolkit.endings and a not in writes
        ]
        paths: list[list[Action]] = []
        account = account_of(domain, task)
        if account is not None:
            flip = {"account_id": account.account_id, "enabled": not account.paperless}
            paths.append([*reads, Action("set_paperless_billing", flip)])
        return [*paths, *self.last_write_left_out(domain, task)]


def misread_first(domain: Domain, task: Task) -> list[Action]:
    """The gold reads, then the gold writes with the first reading a hundred units too high."""
    writes = domain.write_actions(task)
    reads = [a for a in task.actions if a not in writes]
    first = writes[0]
    misread = Action(first.name, {**first.arguments, "value": first.arguments["value"] + 100})
    return [*reads, misread, *writes[1:]]


def supplies_of(db: Database, user: User) -> list[Supply]:
    """The customer's open accounts, in the order of their profile."""
    accounts: list[Account] = [record(db, "accounts", a) for a in user.accounts]
    return [Supply(db, a) for a in accounts if a.status == ACTIVE]


def pick_among(
    db: Database, rng: random.Random, accept: Callable[[Supply], bool]
) -> tuple[Supply, list[Supply]] | None:
    """An open account ``accept`` likes of a customer with several, and all their open accounts."""
    found = pick_supply(db, rng, lambda s: len(supplies_of(db, s.user)) >= 2 and accept(s))
    if found is None:
        return None
    return found, supplies_of(db, found.user)


def describe(rng: random.Random, supply: Supply, others: list[Supply]) -> str:
    """How a customer with several accounts names one: a fact of it the others do not share.

    The tariff, the city or a gas supply when only this account has it, else the street. Each
    names the electricity supply, which every account has, so the agent asks which account is
    meant before reading the first.
    """
    address = supply.premise.address
    ways = [f"the electricity account at {address.address1}"]
    if all(o.tariff.tariff_id != supply.tariff.tariff_id for o in others):
        ways.append(f"the electricity account on the {supply.tariff.name} tariff")
    if all(o.premise.address.city != address.city for o in others):
        ways.append(f"the electricity account of my place in {address.city}")
    if supply.meter(GAS) is not None and all(o.meter(GAS) is None for o in others):
        ways.append("the account that has a gas supply as well as electricity")
    return rng.choice(ways)


def readings(
    rng: random.Random, supply: Supply, tool: str
) -> tuple[list[Action], dict[str, str], list[str]]:
    """Writes of ``tool`` for every meter's reading, the slots the user holds, how they say them."""
    writes, known, said = [], {}, []
    for meter in supply.meters:
        value = new_value(rng, meter, supply.last[meter.meter_id])
        writes.append(Action(tool, {"meter_id": meter.meter_id, "value": value}))
        known["reading" if meter.fuel == ELECTRICITY else "gas_reading"] = str(value)
        said.append(reading_text(meter, value))
    return writes, known, said


def billed_now(
    domain: Domain, db: Database, rng: random.Random, supply: Supply
) -> tuple[list[Action], dict[str, str], list[str], Any] | None:
    """Today's reading of every meter of ``supply`` and a bill now, made on ``db``.

    Returns the writes (``readings``, then ``create_bill``), the slots the user holds, how they
    say the readings, and what the tools answer to the bill; None when they refuse a write.
    """
    writes, known, said = readings(rng, supply, "submit_meter_reading")
    writes.append(Action("create_bill", {"account_id": supply.account.account_id}))
    results = replay_actions(domain, db, writes)
    if results is None:
        return None
    return writes, known, said, results[-1]


def plannable(supply: Supply) -> bool:
    """Whether the account's balance allows a payment plan and it has none yet."""
    return supply.account.balance >= PLAN_MIN_MONTHS * PLAN_MIN_INSTALMENT and not (
        supply.account.payment_plan
    )


def payment(
    domain: Domain,
    db: Database,
    rng: random.Random,
    supply: Supply,
    amount: float,
    methods: list[PaymentMethod],
) -> tuple[PaymentMethod, Action, float] | None:
    """A payment of ``amount`` on ``supply``'s account by one of ``methods``, made on ``db``.

    Returns the method, the ``make_payment`` and the balance it leaves; None when there is no
    method, or when the tools refuse the payment.
    """
    if not methods:
        return None
    method = rng.choice(methods)
    pay = Action(
        "make_payment",
        {
            "account_id": supply.account.account_id,
            "amount": amount,
            "payment_method_id": method.id,
        },
    )
    results = replay_actions(domain, db, [pay])
    if results is None:
        return None
    balance: float = results[0]["balance"]
    return method, pay, balance


def outage_reads(supply: Supply, rng: random.Random) -> tuple[list[Action], str]:
    """The reads of an outage-credit claim, and the goal's question about an outage now.

    The supply, its zip's outage history and, half the time, its area's outages now, with the
    sentence that asks for those ("" without them).
    """
    zip_code = supply.premise.address.zip
    reads = [supply.read(), Action("get_outage_history", {"zip": zip_code})]
    if rng.random() < 0.5:
        reads.append(Action("get_area_outages", {"zip": zip_code}))
        return reads, " I also want to know whether there is an outage in my area right now."
    return reads, ""


def last_outage(db: Database, rng: random.Random, zip_code: str) -> tuple[list[Action], list[str]]:
    """Half the time, the read of ``zip_code``'s outage history and the day of its last outage.

    Empty lists when the zip had no outage before, or the other half of the time.
    """
    past = sorted(
        record(db, "past_outages", k).started for k in db.find("past_outage_zip", zip_code)
    )
    if past and rng.random() < 0.5:
        return [Action("get_outage_history", {"zip": zip_code})], [past[-1][:10]]
    return [], []
