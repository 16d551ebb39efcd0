"""The utilities intents' base class and the supply, reading and payment helpers they share."""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.tasks import CustomerIntent
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


def pick_opening(rng: random.Random, *texts: str) -> str:
    """One of ``texts``, drawn by ``rng``."""
    return rng.choice(list(texts))


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


def read_all(supplies: list[Supply]) -> list[Action]:
    """The gold reads of every account of a customer, in profile order."""
    return [s.read() for s in supplies]


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


def plannable(supply: Supply) -> bool:
    """Whether the account's balance allows a payment plan and it has none yet."""
    return supply.account.balance >= PLAN_MIN_MONTHS * PLAN_MIN_INSTALMENT and not (
        supply.account.payment_plan
    )
