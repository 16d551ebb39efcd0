"""Telecom records (frozen msgspec Structs) and the deterministic generator of the base database.

Tables: ``users`` (subscribers), ``plans``, ``addons`` (data add-ons), ``lines`` (one phone
number each, on a plan), ``bills`` (monthly, with charges and credits) and ``devices`` (each
line's phone, keyed by phone number: the state only the user can read and change).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import msgspec

from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import money
from tau_sim.domains.kit.people import Customer, Ids, customers
from tau_sim.simulator.world import Base, Index

if TYPE_CHECKING:
    from collections.abc import Callable

TODAY = "2025-06-15"
"""The world's fixed today (never the real clock)."""
APN_DEFAULT = "carrier.internet"
NETWORK_AUTO = "5G/4G/3G (automatic)"
NETWORK_3G = "3G only"

ACTIVE = "active"
SUSPENDED = "suspended"
NON_PAYMENT = "non_payment"
CUSTOMER_REQUEST = "customer_request"
LOST_DEVICE = "lost_device"


class Subscriber(Customer, frozen=True, omit_defaults=True):
    """A customer with their lines and bills."""

    lines: tuple[str, ...] = ()
    bills: tuple[str, ...] = ()


class Plan(msgspec.Struct, frozen=True):
    """A monthly plan: price, data allowance (0: unlimited), whether roaming is included."""

    plan_id: str
    name: str
    monthly_price: float
    data_gb: int
    roaming_included: bool


class Addon(msgspec.Struct, frozen=True):
    """A one-off data add-on for the current billing cycle."""

    addon_id: str
    name: str
    price: float
    data_gb: int


class Line(msgspec.Struct, frozen=True, omit_defaults=True):
    """A phone line: its number, plan, status, data used this cycle, add-ons and roaming."""

    line_id: str
    user_id: str
    phone_number: str
    plan_id: str
    status: str
    data_used_gb: float
    roaming_enabled: bool = False
    addons: tuple[str, ...] = ()
    suspension_reason: str = ""


class Charge(msgspec.Struct, frozen=True):
    """One charge of a bill."""

    charge_id: str
    description: str
    amount: float


class Credit(msgspec.Struct, frozen=True):
    """A credit applied against one charge of a bill."""

    charge_id: str
    amount: float
    reason: str


class Bill(msgspec.Struct, frozen=True, omit_defaults=True):
    """A monthly bill: charges, credits, what was paid and its status (paid, due, overdue)."""

    bill_id: str
    user_id: str
    period: str
    issued: str
    due: str
    charges: tuple[Charge, ...]
    status: str
    paid: float = 0.0
    credits: tuple[Credit, ...] = ()
    payment_method_id: str = ""

    @property
    def total(self) -> float:
        """The sum of the charges."""
        return money(sum(c.amount for c in self.charges))

    @property
    def balance(self) -> float:
        """What is still owed: charges less credits less payments."""
        return money(self.total - sum(c.amount for c in self.credits) - self.paid)

    def charge(self, charge_id: str) -> Charge | None:
        """The charge ``charge_id`` of this bill, or None."""
        return next((c for c in self.charges if c.charge_id == charge_id), None)


class Device(msgspec.Struct, frozen=True):
    """The phone of a line, as only its user can see it: radios, APN, SIM, settings, apps.

    ``abroad`` is where the phone is; every other field is a setting or a part the user can
    read and change. Calls at home need Wi-Fi calling (the carrier's indoor coverage is weak).
    """

    phone_number: str
    model: str
    airplane_mode: bool = False
    mobile_data: bool = True
    data_roaming: bool = False
    apn: str = APN_DEFAULT
    sim: str = "seated"  # "seated" | "loose"
    restart_pending: bool = False
    abroad: bool = False
    network_mode: str = NETWORK_AUTO  # NETWORK_AUTO | NETWORK_3G
    vpn: bool = False
    data_saver: bool = False
    battery_saver: bool = False
    mms_permission: bool = True
    wifi_calling: bool = True
    call_forwarding: bool = False
    update_pending: bool = False


PLANS: tuple[Plan, ...] = (
    Plan("talk_1gb", "Talk & Text 1GB", 20.0, 1, False),
    Plan("basic_2gb", "Basic 2GB", 25.0, 2, False),
    Plan("starter_5gb", "Starter 5GB", 35.0, 5, False),
    Plan("plus_15gb", "Plus 15GB", 50.0, 15, False),
    Plan("max_unlimited", "Max Unlimited", 70.0, 0, False),
    Plan("world_unlimited", "World Unlimited", 90.0, 0, True),
)
ADDONS: tuple[Addon, ...] = (
    Addon("data_1gb", "1GB data add-on", 10.0, 1),
    Addon("data_5gb", "5GB data add-on", 25.0, 5),
    Addon("data_10gb", "10GB data add-on", 40.0, 10),
)
MODELS = ("Pixel 8", "Galaxy S23", "iPhone 14", "iPhone 15", "Moto G Power", "Galaxy A54")
EXTRAS: tuple[tuple[str, float, float], ...] = (
    ("Premium SMS subscription", 4.99, 19.99),
    ("International calls", 6.0, 45.0),
    ("Directory assistance", 2.5, 9.0),
    ("Roaming usage", 55.0, 180.0),
    ("Video streaming pass", 8.0, 15.0),
    ("Device insurance", 60.0, 120.0),
)
PERIODS = (("2025-04", "2025-04-01", "2025-04-25"), ("2025-05", "2025-05-01", "2025-05-25"))
CURRENT = ("2025-06", "2025-06-01", "2025-06-25")

Tables = dict[str, dict[str, Any]]


def _phone(ids: Ids) -> str:
    d = ids.digits(10)
    return f"{d[:3]}-{d[3:6]}-{d[6:]}"


def _device(rng: random.Random, phone: str) -> Device:
    """A phone; about one in four has one problem its user can fix."""
    model = rng.choice(MODELS)
    r = rng.random()
    abroad = rng.random() < 0.08
    if r < 0.06:
        return Device(phone, model, airplane_mode=True, abroad=abroad)
    if r < 0.12:
        return Device(phone, model, mobile_data=False, abroad=abroad)
    if r < 0.17:
        return Device(phone, model, apn=rng.choice(("internet.old", "wap.legacy")), abroad=abroad)
    if r < 0.22:
        return Device(phone, model, sim="loose", abroad=abroad)
    return Device(phone, model, data_roaming=rng.random() < 0.2, abroad=abroad)


def _line(rng: random.Random, ids: Ids, user_id: str) -> Line:
    plan = rng.choice(PLANS)
    r = rng.random()
    status, reason = ACTIVE, ""
    if r < 0.08:
        status, reason = SUSPENDED, NON_PAYMENT
    elif r < 0.12:
        status, reason = SUSPENDED, CUSTOMER_REQUEST
    elif r < 0.15:
        status, reason = SUSPENDED, LOST_DEVICE
    cap = plan.data_gb or 60
    used = money(rng.uniform(0.1, cap) if rng.random() < 0.7 else cap + rng.uniform(0.0, 0.6))
    if plan.data_gb == 0:
        used = money(rng.uniform(0.5, 60.0))
    roaming = plan.roaming_included or rng.random() < 0.15
    return Line(
        f"L{ids.digits(6)}",
        user_id,
        _phone(ids),
        plan.plan_id,
        status,
        used,
        roaming_enabled=roaming,
        suspension_reason=reason,
    )


def _bill(
    rng: random.Random,
    ids: Ids,
    user: Subscriber,
    lines: list[Line],
    period: tuple[str, str, str],
    status: str,
) -> Bill:
    plans = {p.plan_id: p for p in PLANS}
    charges = [
        Charge(
            f"C{ids.digits(7)}",
            f"{plans[ln.plan_id].name} plan, {ln.phone_number}",
            plans[ln.plan_id].monthly_price,
        )
        for ln in lines
    ]
    for _ in range(rng.choice((0, 1, 1, 2))):
        what, low, high = rng.choice(EXTRAS)
        phone = rng.choice(lines).phone_number
        charges.append(
            Charge(f"C{ids.digits(7)}", f"{what}, {phone}", money(rng.uniform(low, high)))
        )
    bill = Bill(f"B{ids.digits(8)}", user.user_id, *period, tuple(charges), status)
    if status == "paid":
        method = rng.choice(user.payment_methods)
        bill = msgspec.structs.replace(bill, paid=bill.total, payment_method_id=method.id)
    return bill


def generate(seed: int, users: int = 300) -> Tables:
    """Generate the telecom tables deterministically from ``seed`` (phones with faults too)."""
    tables = _generate(seed, users)
    tables["devices"] = inject_faults(random.Random(seed + 1), tables["devices"])
    return tables


def _generate(seed: int, users: int) -> Tables:
    """The tables from ``seed`` with each phone's single fault (the base generator)."""
    rng = random.Random(seed)
    ids = Ids(rng)
    people = customers(rng, ids, users, Subscriber, accounts=True)
    line_table: dict[str, Line] = {}
    device_table: dict[str, Device] = {}
    bill_table: dict[str, Bill] = {}
    for uid, person in list(people.items()):
        lines = [_line(rng, ids, uid) for _ in range(rng.choice((1, 1, 2, 2, 3)))]
        for ln in lines:
            line_table[ln.line_id] = ln
            device_table[ln.phone_number] = _device(rng, ln.phone_number)
        owes = any(ln.suspension_reason == NON_PAYMENT for ln in lines)
        bills = [
            _bill(rng, ids, person, lines, PERIODS[0], "paid"),
            _bill(rng, ids, person, lines, PERIODS[1], "overdue" if owes else "paid"),
            _bill(rng, ids, person, lines, CURRENT, "due"),
        ]
        for b in bills:
            bill_table[b.bill_id] = b
        people[uid] = msgspec.structs.replace(
            person,
            lines=tuple(ln.line_id for ln in lines),
            bills=tuple(b.bill_id for b in bills),
        )
    return {
        "users": dict(people),
        "plans": {p.plan_id: p for p in PLANS},
        "addons": {a.addon_id: a for a in ADDONS},
        "lines": line_table,
        "bills": bill_table,
        "devices": device_table,
    }


FAULTY_SHARE = 0.35
"""The share of healthy phones at home that the generator gives two to four faults."""

BREAKS: dict[str, Callable[[Device], Device]] = {
    "airplane_mode": lambda d: msgspec.structs.replace(d, airplane_mode=True),
    "sim_loose": lambda d: msgspec.structs.replace(d, sim="loose"),
    "network_3g": lambda d: msgspec.structs.replace(d, network_mode=NETWORK_3G),
    "mobile_data_off": lambda d: msgspec.structs.replace(d, mobile_data=False),
    "wrong_apn": lambda d: msgspec.structs.replace(d, apn="internet.old"),
    "vpn_on": lambda d: msgspec.structs.replace(d, vpn=True),
    "data_saver_on": lambda d: msgspec.structs.replace(d, data_saver=True),
    "battery_saver_on": lambda d: msgspec.structs.replace(d, battery_saver=True),
    "mms_denied": lambda d: msgspec.structs.replace(d, mms_permission=False),
    "wifi_calling_off": lambda d: msgspec.structs.replace(d, wifi_calling=False),
    "call_forwarding_on": lambda d: msgspec.structs.replace(d, call_forwarding=True),
    "update_pending": lambda d: msgspec.structs.replace(d, update_pending=True),
}
"""How the generator puts each fault of ``domains.telecom.faults`` on a healthy phone."""


def inject_faults(rng: random.Random, devices: dict[str, Device]) -> dict[str, Device]:
    """Give about ``FAULTY_SHARE`` of the healthy phones at home two to four distinct faults."""
    healthy = Device("", "")
    out: dict[str, Device] = {}
    for phone, device in devices.items():
        plain = msgspec.structs.replace(device, phone_number="", model="")
        if plain == healthy and rng.random() < FAULTY_SHARE:
            for name in rng.sample(sorted(BREAKS), rng.choice((2, 3, 4))):
                device = BREAKS[name](device)
        out[phone] = device
    return out


INDEXES: dict[str, Index] = {
    **identity_indexes([EMAIL, NAME_ZIP, ACCOUNT_PIN]),
    "lines_by_phone": Index("lines", lambda ln: (ln.phone_number,)),
}
"""Users by email, by name + zip and by account + PIN; lines by phone number."""


def build_base(seed: int) -> Base:
    """The telecom base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
