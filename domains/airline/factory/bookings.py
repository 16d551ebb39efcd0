"""Airline intents that book a trip, report a flight's status or correct a passenger."""

from __future__ import annotations

import datetime as dt
import random

import msgspec

from tau_sim.domains.airline.catalog import CABINS
from tau_sim.domains.airline.data import (
    ACTIVE,
    DELAYED,
    ONE_WAY,
    ROUND_TRIP,
    SCHEDULED,
    TODAY,
    Flight,
    Passenger,
    Reservation,
    User,
    flight_key,
)
from tau_sim.domains.airline.factory.common import (
    AirlineIntent,
    bookable,
    opening,
    pick_reservation,
    price_of,
    statuses,
    upcoming,
)
from tau_sim.domains.airline.rules import BAG_FEE, INSURANCE_PRICE, nonfree_bags
from tau_sim.domains.airline.scenario import (
    CABIN_TEXT,
    departure_text,
    flight_text,
    gold_reads,
    passenger_text,
    passengers_text,
)
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swap_last
from tau_sim.domains.kit.vocab import FIRST_NAMES, counted
from tau_sim.simulator.world import Action, Database, Domain, Task


def expression(prices: list[float], count: int, extra: list[float] | None = None) -> str:
    """A ``calculate`` expression: (sum of prices) * count + extras."""
    inner = " + ".join(f"{p:.2f}" for p in prices)
    text = f"({inner}) * {count}" if len(prices) > 1 else f"{prices[0]:.2f} * {count}"
    return " + ".join([text, *(f"{e:.2f}" for e in extra or [])])


class BookFlight(AirlineIntent):
    """Book a one-way or round trip for the user and maybe a companion, with bags and insurance."""

    name = "book_flight"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user: User | None = pick(db, rng, "users", lambda u: True)
        out_day = TODAY + dt.timedelta(days=rng.randint(3, 18))
        flight: Flight | None = pick(
            db, rng, "flights", lambda f: f.date == out_day.isoformat() and f.status == SCHEDULED
        )
        if user is None or flight is None:
            return None
        cabin = rng.choices(CABINS, (30, 50, 20))[0]
        people = [Passenger(user.name.first_name, user.name.last_name, _dob(rng))]
        if rng.random() < 0.5:
            people.append(Passenger(rng.choice(FIRST_NAMES), user.name.last_name, _dob(rng)))
        count = len(people)
        chosen = bookable(db, flight.origin, flight.destination, out_day, cabin, count)
        if not chosen:
            return None
        out = rng.choice(chosen)
        legs = [out]
        trip = ONE_WAY
        if rng.random() < 0.5:
            back_day = out_day + dt.timedelta(days=rng.randint(2, 6))
            back = bookable(db, out.destination, out.origin, back_day, cabin, count)
            if not back:
                return None
            legs.append(rng.choice(back))
            trip = ROUND_TRIP
        bags = rng.randint(0, 2 * count)
        nonfree = nonfree_bags(user.membership, cabin, count, bags)
        insurance = rng.random() < 0.4
        prices = [price_of(f, cabin) for f in legs]
        extras = ([INSURANCE_PRICE * count] if insurance else []) + (
            [BAG_FEE * nonfree] if nonfree else []
        )
        total = money(sum(prices) * count + sum(extras))
        method = next(
            (
                m
                for m in rng.sample(user.payment_methods, len(user.payment_methods))
                if m.source != "gift_card"
            ),
            None,
        )
        if method is None:
            return None
        who = self.identity(db, user.user_id, rng)
        book = Action(
            "book_reservation",
            {
                "user_id": user.user_id,
                "origin": out.origin,
                "destination": out.destination,
                "trip_type": trip,
                "cabin": cabin,
                "flights": [{"flight_number": f.flight_number, "date": f.date} for f in legs],
                "passengers": [msgspec.to_builtins(p) for p in people],
                "payment_method_id": method.id,
                "total_baggages": bags,
                "nonfree_baggages": nonfree,
                "insurance": insurance,
            },
        )
        searches = [
            Action(
                "search_direct_flights",
                {"origin": f.origin, "destination": f.destination, "date": f.date},
            )
            for f in legs
        ]
        dates = out.date if trip == ONE_WAY else f"out on {out.date}, back on {legs[1].date}"
        picked = " and back on ".join(departure_text(f) for f in legs)
        return self.task(
            domain,
            who,
            goal=f"I want to book a {'round trip' if trip == ROUND_TRIP else 'one-way trip'} "
            f"from {out.origin} to {out.destination} in {CABIN_TEXT[cabin]} for "
            f"{passengers_text(people)}: flight {picked}. We check {counted(bags, 'bag')}"
            f" in total, "
            f"{'with' if insurance else 'without'} travel insurance, paid with "
            f"{method_text(method)}. I want to know the total price. {CONFIRM}",
            opening=opening(
                rng,
                f"I'd like to book a flight from {out.origin} to {out.destination}.",
                f"I need tickets from {out.origin} to {out.destination}.",
                f"Can you book me a trip {out.origin} to {out.destination}?",
                f"Looking to fly {out.origin} to {out.destination}, can you help me book it?",
            ),
            known={
                "origin": out.origin,
                "destination": out.destination,
                "trip_type": "round trip" if trip == ROUND_TRIP else "one-way",
                "travel_dates": dates,
                "flight": picked,
                "cabin": CABIN_TEXT[cabin],
                "passengers": passengers_text(people),
                "bags": f"{counted(bags, 'checked bag')} in total",
                "insurance": "yes, travel insurance" if insurance else "no travel insurance",
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                *searches,
                Action("calculate", {"expression": expression(prices, count, extras)}),
                book,
            ],
            outputs=[money_text(total)],
            summary=f"book {trip} {out.origin}-{out.destination} in {cabin} for {count}, "
            f"{money_text(total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Insurance the other way round; every bag charged when some were free."""
        book = task.actions[-1]
        args = book.arguments
        paths = [swap_last(task, replaced(book, insurance=not args["insurance"]))]
        if args["nonfree_baggages"] < args["total_baggages"]:
            paths.append(swap_last(task, replaced(book, nonfree_baggages=args["total_baggages"])))
        return [*super().mistakes(domain, task), *paths]


def _dob(rng: random.Random) -> str:
    return dt.date(rng.randint(1955, 2008), rng.randint(1, 12), rng.randint(1, 28)).isoformat()


class FlightStatusInquiry(AirlineIntent):
    """Ask whether an upcoming flight of a reservation is on time (information only)."""

    name = "flight_status_inquiry"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def soon(r: Reservation) -> bool:
            return r.status == ACTIVE and any(
                TODAY <= iso_day(s.date) <= TODAY + dt.timedelta(days=2) for s in r.flights
            )

        r = pick_reservation(db, rng, soon)
        if r is None:
            return None
        segment = next(
            s for s in r.flights if TODAY <= iso_day(s.date) <= TODAY + dt.timedelta(days=2)
        )
        flight: Flight = record(db, "flights", flight_key(segment.flight_number, segment.date))
        outputs = [flight.status, flight.departure]
        if flight.status == DELAYED:
            outputs.append(f"{flight.delay_minutes} minutes")
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"I fly soon on flight {flight_text(flight)} (reservation {rid}). I want to know "
            "whether it is on time, its departure time and, if it is delayed, by how many "
            "minutes. I do not want to change anything.",
            opening=opening(
                rng,
                f"Is my flight {flight.flight_number} on {flight.date} on time?",
                f"What's the status of {flight.flight_number} on {flight.date}?",
                f"Any delay on flight {flight.flight_number} on {flight.date}?",
            ),
            known={
                "reservation_id": rid,
                "booked_flight": f"{flight.flight_number} on {flight.date}",
            },
            actions=[
                *gold_reads(who, rid),
                Action(
                    "get_flight_status",
                    {"flight_number": flight.flight_number, "date": flight.date},
                ),
            ],
            outputs=outputs,
            summary=f"status of {flight.flight_number} on {flight.date}: {flight.status}",
        )


class CorrectPassengerBirthDate(AirlineIntent):
    """Correct a passenger's date of birth on an upcoming reservation."""

    name = "correct_passenger_dob"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, upcoming)
        if r is None:
            return None
        index = rng.randrange(len(r.passengers))
        wrong = r.passengers[index]
        dob = _dob(rng)
        if dob == wrong.dob:
            return None
        fixed = msgspec.structs.replace(wrong, dob=dob)
        passengers = [fixed if i == index else p for i, p in enumerate(r.passengers)]
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        name = f"{wrong.first_name} {wrong.last_name}"
        return self.task(
            domain,
            who,
            goal=f"On my reservation {rid} the date of birth of passenger {name} is wrong: it "
            f"should be {dob}. Nothing else should change. {CONFIRM}",
            opening=opening(
                rng,
                f"There's a mistake in a passenger's date of birth on reservation {rid}.",
                f"A birth date on booking {rid} is wrong and needs fixing.",
                f"I typed a date of birth wrong on {rid}, can you correct it?",
            ),
            known={"reservation_id": rid, "corrected_passenger": passenger_text(fixed)},
            actions=[
                *gold_reads(who, rid),
                *statuses(r),
                Action(
                    "update_reservation_passengers",
                    {
                        "reservation_id": rid,
                        "passengers": [msgspec.to_builtins(p) for p in passengers],
                    },
                ),
            ],
            summary=f"correct the dob of {name} on {rid}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the date of birth written in day/month order."""
        write = task.actions[-1]
        passengers = [dict(p) for p in write.arguments["passengers"]]
        original: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        index = next(i for i, p in enumerate(original.passengers) if p.dob != passengers[i]["dob"])
        year, month, day = passengers[index]["dob"].split("-")
        swapped = (
            f"{year}-{day}-{month}"
            if int(day) <= 12 and day != month
            else f"{year}-{month}-{int(day) % 28 + 1:02d}"
        )
        passengers[index]["dob"] = swapped
        wrong = replaced(write, passengers=passengers)
        return [*super().mistakes(domain, task), swap_last(task, wrong)]
