"""Airline intents that change a reservation: its flights, cabin and bags."""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.airline.catalog import CABINS
from tau_sim.domains.airline.data import CANCELLED, LAST_DAY, Flight, Reservation, User
from tau_sim.domains.airline.factory.common import (
    AirlineIntent,
    bag_update,
    bookable,
    fee_check,
    flight_move,
    flights_of,
    opening,
    pick_reservation,
    price_of,
    statuses,
    upcoming,
)
from tau_sim.domains.airline.rules import BAG_FEE
from tau_sim.domains.airline.scenario import (
    CABIN_TEXT,
    departure_text,
    flight_text,
    gold_reads,
    trip_text,
)
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.chains import Chain
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import (
    PaymentMethod,
    card_for,
    diff_text,
    method_text,
    money,
    money_text,
)
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swap_last
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task


def seats_left(flight: Flight, cabin: str) -> int:
    """Seats left in ``cabin`` of ``flight`` (0 when it has no such cabin)."""
    fare = flight.fare(cabin)
    return 0 if fare is None else fare.seats_left


def _new_outbound(db: Database, reservation: Reservation, rng: random.Random) -> Flight | None:
    """Another bookable outbound flight, one to three days away from the current one."""
    first = reservation.flights[0]
    shift = rng.choice((-3, -2, -1, 1, 2, 3))
    day = iso_day(first.date) + dt.timedelta(days=shift)
    if len(reservation.flights) > 1 and day >= iso_day(reservation.flights[1].date):
        return None
    options = [
        f
        for f in bookable(
            db, first.origin, first.destination, day, reservation.cabin, len(reservation.passengers)
        )
        if f.flight_number != first.flight_number or f.date != first.date
    ]
    return rng.choice(options) if options else None


def _changeable(r: Reservation) -> bool:
    return upcoming(r) and r.cabin != "basic_economy"


class _Change:
    """A checked flight change of a reservation: the new outbound flight and its price."""

    def __init__(self, reservation: Reservation, new: Flight, method: PaymentMethod) -> None:
        self.reservation, self.new, self.method = reservation, new, method
        count = len(reservation.passengers)
        old = reservation.flights[0].price
        self.new_price = price_of(new, reservation.cabin)
        self.difference = money((self.new_price - old) * count)
        self.expression = f"({self.new_price:.2f} - {old:.2f}) * {count}"
        self.write, self.search = flight_move(reservation, new, method)

    @property
    def actions(self) -> list[Action]:
        """The gold steps of the change: the search, the price difference, the write."""
        return [self.search, Action("calculate", {"expression": self.expression}), self.write]


def _sample_change(db: Database, rng: random.Random) -> _Change | None:
    reservation = pick_reservation(db, rng, _changeable)
    if reservation is None:
        return None
    new = _new_outbound(db, reservation, rng)
    if new is None:
        return None
    user: User = record(db, "users", reservation.user_id)
    count = len(reservation.passengers)
    method = card_for(
        user, (price_of(new, reservation.cabin) - reservation.flights[0].price) * count, rng
    )
    if method is None:
        return None
    return _Change(reservation, new, method)


def _other_flight_mistake(
    domain: Domain, task: Task, write: Action | None = None
) -> list[Action] | None:
    """The change ``write`` (the last action) made to another bookable flight of the route."""
    write = task.actions[-1] if write is None else write
    db = domain.new_database()
    chosen = write.arguments["flights"][0]
    reservation: Reservation = record(db, "reservations", write.arguments["reservation_id"])
    first = reservation.flights[0]
    day = iso_day(chosen["date"])
    limit = iso_day(reservation.flights[1].date) if len(reservation.flights) > 1 else LAST_DAY
    for shift in (0, 1, -1, 2, -2):
        candidates = [
            f
            for f in bookable(
                db,
                first.origin,
                first.destination,
                day + dt.timedelta(days=shift),
                reservation.cabin,
                len(reservation.passengers),
            )
            if (f.flight_number, f.date)
            not in {(chosen["flight_number"], chosen["date"]), (first.flight_number, first.date)}
            and iso_day(f.date) < limit
        ]
        if candidates:
            other = candidates[0]
            flights = [{"flight_number": other.flight_number, "date": other.date}]
            flights += write.arguments["flights"][1:]
            wrong = replaced(write, flights=flights)
            return [a if a is not write else wrong for a in task.actions]
    return None


class ChangeFlight(Chain, AirlineIntent):
    """Move the outbound flight of an economy or business reservation to another day."""

    name = "change_flight"
    slips = (_other_flight_mistake,)  # another flight of the route booked

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r, new = change.reservation, change.new
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"In reservation {rid} ({trip_text(r)}) I want to move my outbound flight "
            f"{flight_text(r.flights[0])} to flight {departure_text(new)}, same cabin. Any "
            f"price difference goes through {method_text(change.method)}. I want to know how "
            f"much I pay or get back. {CONFIRM}",
            opening=opening(
                rng,
                f"I need to change the date of my flight, reservation {rid}.",
                f"Can I move my outbound flight on {rid} to another day?",
                f"My plans changed: the first flight of {rid} has to move.",
                f"I'd like a different departure date for reservation {rid}.",
            ),
            known={
                "reservation_id": rid,
                "flight": departure_text(new),
                "payment_method": method_text(change.method),
            },
            actions=[
                *gold_reads(who, rid),
                *statuses(r),
                *change.actions,
            ],
            outputs=[money_text(abs(change.difference))],
            summary=f"move outbound of {rid} to {new.flight_number} on {new.date}: "
            f"{diff_text(change.difference)}",
        )


class UpgradeCabin(AirlineIntent):
    """Move every flight of an upcoming reservation to a higher cabin and pay the difference."""

    name = "upgrade_cabin"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, lambda r: upcoming(r) and r.cabin != "business")
        if r is None:
            return None
        cabin = rng.choice(CABINS[CABINS.index(r.cabin) + 1 :])
        flights = flights_of(db, r)
        count = len(r.passengers)
        if any(seats_left(f, cabin) < count or f.status == CANCELLED for f in flights):
            return None
        new_prices = [price_of(f, cabin) for f in flights]
        difference = money((sum(new_prices) - sum(s.price for s in r.flights)) * count)
        user: User = record(db, "users", r.user_id)
        method = card_for(user, difference * 2, rng)
        if method is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        old_sum = " + ".join(f"{s.price:.2f}" for s in r.flights)
        new_sum = " + ".join(f"{p:.2f}" for p in new_prices)
        return self.task(
            domain,
            who,
            goal=f"I want to upgrade every flight of reservation {rid} ({trip_text(r)}) from "
            f"{CABIN_TEXT[r.cabin]} to {CABIN_TEXT[cabin]}, paid with {method_text(method)}. "
            f"I want to know how much the upgrade costs. {CONFIRM}",
            opening=opening(
                rng,
                f"I'd like to upgrade my reservation {rid} to {CABIN_TEXT[cabin]}.",
                f"How much to move {rid} up to {CABIN_TEXT[cabin]}? I want to do it.",
                f"Please put reservation {rid} in {CABIN_TEXT[cabin]}.",
            ),
            known={
                "reservation_id": rid,
                "new_cabin": CABIN_TEXT[cabin],
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, rid),
                *statuses(r),
                Action("calculate", {"expression": f"(({new_sum}) - ({old_sum})) * {count}"}),
                Action(
                    "change_reservation_cabin",
                    {"reservation_id": rid, "cabin": cabin, "payment_method_id": method.id},
                ),
            ],
            outputs=[money_text(difference)],
            summary=f"upgrade {rid} from {r.cabin} to {cabin}: {money_text(difference)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the reservation moved to the other cabin."""
        write = task.actions[-1]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", write.arguments["reservation_id"])
        paths = super().mistakes(domain, task)
        for cabin in CABINS:
            if cabin in (r.cabin, write.arguments["cabin"]):
                continue
            flights = flights_of(db, r)
            if all(seats_left(f, cabin) >= len(r.passengers) for f in flights):
                paths.append(swap_last(task, replaced(write, cabin=cabin)))
        return paths


def _all_bags_charged(task: Task, write: Action, reservation: Reservation) -> list[Action] | None:
    """The bag update with every new bag charged, when some of them were free."""
    added = write.arguments["total_baggages"] - reservation.total_baggages
    charged = reservation.nonfree_baggages + added
    if charged == write.arguments["nonfree_baggages"]:
        return None
    wrong = replaced(write, nonfree_baggages=charged)
    return [a if a is not write else wrong for a in task.actions]


class AddBaggage(AirlineIntent):
    """Add checked bags to an upcoming reservation; the free allowance depends on tier and cabin."""

    name = "add_baggage"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, upcoming)
        if r is None:
            return None
        user: User = record(db, "users", r.user_id)
        added = rng.randint(1, 3)
        if r.total_baggages + added > 5 * len(r.passengers):
            return None
        method = card_for(user, BAG_FEE * added, rng)
        if method is None:
            return None
        write, fee = bag_update(r, user, added, method, r.cabin)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"I want to add {counted(added, 'checked bag')} to my reservation {rid} "
            f"({trip_text(r)}), paid with {method_text(method)} if there is a fee. I want to "
            f"know the fee. {CONFIRM}",
            opening=opening(
                rng,
                f"I need to add {counted(added, 'more bag')} to my reservation {rid}.",
                f"Can I check {counted(added, 'extra bag')} on {rid}?",
                f"We're bringing more luggage: {counted(added, 'bag')} on booking {rid}, please.",
            ),
            known={
                "reservation_id": rid,
                "bags": f"{counted(added, 'more checked bag')}",
                "payment_method": method_text(method),
            },
            actions=[*gold_reads(who, rid), *statuses(r), *fee_check(fee), write],
            outputs=[money_text(fee)],
            summary=f"add {counted(added, 'bag')} to {rid} ({user.membership}, {r.cabin}): "
            f"{money_text(fee)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and every new bag charged."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        wrong = _all_bags_charged(task, write, r)
        return [*super().mistakes(domain, task), *([wrong] if wrong else [])]


class ChangeFlightAndAddBag(AirlineIntent):
    """Two writes: move the outbound flight to another day, then add checked bags."""

    name = "change_flight_and_add_bags"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r, new = change.reservation, change.new
        user: User = record(db, "users", r.user_id)
        added = rng.randint(1, 2)
        if r.total_baggages + added > 5 * len(r.passengers):
            return None
        bags, fee = bag_update(r, user, added, change.method, r.cabin)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"Two things for reservation {rid} ({trip_text(r)}): move my outbound flight "
            f"{flight_text(r.flights[0])} to flight {departure_text(new)}, and add "
            f"{counted(added, 'checked bag')}"
            f". Everything is paid with {method_text(change.method)}. I want to "
            f"know the price difference and the bag fee. {CONFIRM}",
            opening=opening(
                rng,
                f"I want to change my flight on reservation {rid} and add luggage.",
                f"Two things on {rid}: a new flight and extra bags.",
                f"Could you move my flight on {rid} and add some checked bags?",
            ),
            known={
                "reservation_id": rid,
                "flight": departure_text(new),
                "bags": f"{counted(added, 'more checked bag')}",
                "payment_method": method_text(change.method),
            },
            actions=[
                *gold_reads(who, rid),
                *change.actions,
                *fee_check(fee),
                bags,
            ],
            outputs=[money_text(abs(change.difference)), money_text(fee)],
            summary=f"move {rid} to {new.flight_number} on {new.date} "
            f"({diff_text(change.difference)}) and add {counted(added, 'bag')} ({money_text(fee)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones (bags forgotten), every bag charged, another flight booked."""
        bags = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", bags.arguments["reservation_id"]
        )
        paths = super().mistakes(domain, task)
        wrong = _all_bags_charged(task, bags, r)
        if wrong:
            paths.append(wrong)
        change = next(a for a in task.actions if a.name == "change_reservation_flights")
        other = _other_flight_mistake(domain, task, change)
        if other:
            paths.append(other)
        return paths
