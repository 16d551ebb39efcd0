"""The hotel intents' base class and the reservation and availability helpers they share."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from tau_sim.domains.hotel.data import (
    CONFIRMED,
    LAST_NIGHT,
    NOW,
    TODAY,
    Guest,
    Night,
    Reservation,
    StayNight,
    net_paid,
    night_key,
    stay_dates,
)
from tau_sim.domains.hotel.rules import (
    NON_REFUNDABLE,
    ROOM_TYPES,
    cancellation_deadline,
    plan_price,
)
from tau_sim.domains.hotel.scenario import HOTEL_NAMES, ROOM_TEXT, UNKNOWN_IDS, stay_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.search import Shelf
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import picker
from tau_sim.domains.kit.payments import PaymentMethod, money
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task, Tier


def upcoming(reservation: Reservation) -> bool:
    """Whether the reservation is confirmed and its stay starts after today."""
    return reservation.status == CONFIRMED and iso_day(reservation.check_in) > TODAY


def open_nights(
    db: Database, property_id: str, room_type: str, dates: list[str]
) -> list[Night] | None:
    """The nights of ``dates`` when each has a room left, else None."""
    nights: list[Night] = []
    for d in dates:
        night: Night | None = db.get("nights", night_key(property_id, room_type, d))
        if night is None or night.rooms_left < 1:
            return None
        nights.append(night)
    return nights


def search(property_id: str, room_type: str, check_in: str, check_out: str) -> Action:
    """The availability search of a stay."""
    return Action(
        "search_availability",
        {
            "property_id": property_id,
            "room_type": room_type,
            "check_in": check_in,
            "check_out": check_out,
        },
    )


def total_expression(prices: list[float]) -> str:
    """A sum of prices as a ``calculate`` expression."""
    return " + ".join(f"{p:.2f}" for p in prices)


def difference_expression(new: list[float], old: list[float]) -> str:
    """``(new) - (old)`` as a ``calculate`` expression."""
    return f"({total_expression(new)}) - ({total_expression(old)})"


# ---- date changes ------------------------------------------------------------------------


class DateChange:
    """A checked date change of a reservation: the new dates, nights and price difference."""

    def __init__(
        self,
        reservation: Reservation,
        check_in: str,
        check_out: str,
        method: PaymentMethod,
        fresh: dict[str, Night],
    ) -> None:
        self.reservation, self.check_in, self.check_out = reservation, check_in, check_out
        old = {n.date: n for n in reservation.nights}
        nights = [
            old[d] if d in old else StayNight(d, plan_price(fresh[d].rate, reservation.rate_plan))
            for d in stay_dates(check_in, check_out)
        ]
        self.new_prices = [n.price for n in nights]
        self.old_prices = [n.price for n in reservation.nights]
        self.difference = money(sum(self.new_prices) - sum(self.old_prices))
        self.write = Action(
            "change_reservation_dates",
            {
                "reservation_id": reservation.reservation_id,
                "check_in": check_in,
                "check_out": check_out,
                "payment_method_id": method.id,
            },
        )
        self.search = search(reservation.property_id, reservation.room_type, check_in, check_out)
        self.method = method

    def gold_path(self, reads: list[Action]) -> list[Action]:
        """The ``reads``, the availability search, the price difference and the change itself."""
        expression = difference_expression(self.new_prices, self.old_prices)
        return [
            *reads,
            self.search,
            Action("calculate", {"expression": expression}),
            self.write,
        ]


def new_dates(
    db: Database, r: Reservation, check_in: dt.date, check_out: dt.date
) -> dict[str, Night] | None:
    """The nights the move to ``check_in``..``check_out`` adds, when the move is possible."""
    if check_in <= TODAY or check_out <= check_in or check_out > LAST_NIGHT + dt.timedelta(days=1):
        return None
    if (check_in.isoformat(), check_out.isoformat()) == (r.check_in, r.check_out):
        return None
    held = {n.date for n in r.nights}
    added = [d for d in stay_dates(check_in.isoformat(), check_out.isoformat()) if d not in held]
    nights = open_nights(db, r.property_id, r.room_type, added)
    return None if nights is None else {n.date: n for n in nights}


def cancellation_refund(r: Reservation) -> tuple[float, bool]:
    """(refund, whether the one-night fee applies) of cancelling ``r`` now under the policy."""
    paid = net_paid(r)
    deadline = cancellation_deadline(r.check_in, r.rate_plan)
    if deadline is None:
        return 0.0, False
    if deadline >= NOW:
        return paid, False
    return money(paid - r.nights[0].price), True


def upgrade_due(tier: str, old: str, new: str) -> bool:
    """Whether the policy makes the upgrade from ``old`` to ``new`` complimentary."""
    return tier == "gold" and ROOM_TYPES.index(new) - ROOM_TYPES.index(old) == 1


@dataclass(frozen=True)
class RoomUpgrade:
    """An upgrade of every night of ``r`` to ``target``, at the prices of the open ``nights``."""

    r: Reservation
    target: str
    method: PaymentMethod
    free: bool
    new_prices: list[float]
    old_prices: list[float]

    @classmethod
    def of(
        cls, guest: Guest, r: Reservation, target: str, method: PaymentMethod, nights: list[Night]
    ) -> RoomUpgrade:
        """The upgrade, complimentary where the guest's tier makes it so (``upgrade_due``)."""
        return cls(
            r,
            target,
            method,
            upgrade_due(guest.tier, r.room_type, target),
            [plan_price(n.rate, r.rate_plan) for n in nights],
            [n.price for n in r.nights],
        )

    @property
    def difference(self) -> float:
        """What the guest pays for the upgrade: nothing when it is complimentary."""
        return 0.0 if self.free else money(sum(self.new_prices) - sum(self.old_prices))

    def quote(self) -> list[Action]:
        """The availability search of the new room, then the difference (unless it is free)."""
        r = self.r
        actions = [search(r.property_id, self.target, r.check_in, r.check_out)]
        if not self.free:
            expression = difference_expression(self.new_prices, self.old_prices)
            actions.append(Action("calculate", {"expression": expression}))
        return actions

    def write(self) -> Action:
        """The ``upgrade_room`` call."""
        return Action(
            "upgrade_room",
            {
                "reservation_id": self.r.reservation_id,
                "room_type": self.target,
                "payment_method_id": self.method.id,
                "complimentary": self.free,
            },
        )


def flexible_ahead(r: Reservation) -> bool:
    """A confirmed reservation not on the non-refundable plan whose check-in is today or later."""
    return r.status == CONFIRMED and iso_day(r.check_in) >= TODAY and r.rate_plan != NON_REFUNDABLE


def refund_on_cancel(r: Reservation) -> bool:
    """A ``flexible_ahead`` reservation whose cancellation now refunds something."""
    return flexible_ahead(r) and cancellation_refund(r)[0] > 0


class HotelIntent(CustomerIntent):
    """A hotel guest: email (60%) or name + zip; never knows payment method or property ids."""

    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


pick_reservation = picker("reservations", Reservation)


def movable(r: Reservation) -> bool:
    """An upcoming reservation on a plan that can change dates, no night paid with points."""
    return upcoming(r) and r.rate_plan != NON_REFUNDABLE and not any(n.points for n in r.nights)


def reservation_id_of(task: Task) -> str:
    """The reservation a task is about (the first one its gold path reads)."""
    return next(
        str(a.arguments["reservation_id"])
        for a in task.actions
        if a.name == "get_reservation_details"
    )


# ---- the hard tier: guests who describe their stays instead of naming them ------------------

HARD: Tier = "hard"
"""The tier of the intents whose guests describe stays, mix requests or claim what is not so."""


_KIND = {
    "SEA01": "the harbour hotel in Seattle",
    "SFO01": "the San Francisco hotel",
    "NYC01": "the New York hotel by the park",
    "CHI01": "the lakeside hotel in Chicago",
    "MIA01": "the beach resort in Miami",
    "DEN01": "the mountain lodge in Denver",
    "AUS01": "the inn in Austin",
    "BOS01": "the Boston hotel",
}

_DESCRIPTIONS = (
    "my stay at {hotel} checking in {check_in}",
    "the {room} at {kind}, from {check_in} to {check_out}",
    "my trip to {kind}, arriving {check_in}",
    "the {room} I have at {hotel} starting {check_in}",
)


def describe(db: Database, r: Reservation, rng: random.Random) -> str | None:
    """How the guest names ``r`` without its code, or None when its check-in is not unique.

    The words hold the check-in date (no other reservation of the guest starts that day) and
    the hotel by name or by what it is ("the beach resort in Miami").
    """
    if any(
        o.reservation_id != r.reservation_id and o.check_in == r.check_in
        for o in STAYS.of(db, r.user_id)
    ):
        return None
    return rng.choice(_DESCRIPTIONS).format(
        hotel=HOTEL_NAMES[r.property_id],
        kind=_KIND[r.property_id],
        room=ROOM_TEXT[r.room_type],
        check_in=r.check_in,
        check_out=r.check_out,
    )


STAYS: Shelf[Guest, Reservation] = Shelf(
    "reservations",
    True,
    place=lambda r: HOTEL_NAMES[r.property_id],
    places=Action("list_properties", {}),
    describe=describe,
)
"""A guest's reservations, described by hotel (or its city) and dates."""


class StayRef:
    """How a base task's guest names its reservation: by code, or by hotel and dates.

    Without the code the agent lists the guest's reservations and picks the one described.
    """

    def __init__(self, r: Reservation, who: Identity, rng: random.Random) -> None:
        self.knows = rng.random() < 0.6
        rid = r.reservation_id
        self.code = f" {rid}" if self.knows else ""
        self.text = f" (reservation {rid})" if self.knows else ""
        self.words = f"my reservation {rid}" if self.knows else "my reservation"
        self.known_code = {"reservation_id": rid} if self.knows else {}
        self.known = self.known_code or {"stay": stay_text(r)}
        read = Action("get_reservation_details", {"reservation_id": rid})
        self.reads = [*who.actions, read] if self.knows else STAYS.search(who, r)

    def opening(self, rng: random.Random, templates: tuple[str, ...], **words: str) -> str:
        """One of ``templates`` with ``{ref}`` the reservation as the guest names it."""
        return rng.choice(templates).format(ref=self.words, **words)
