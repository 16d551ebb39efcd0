"""Hard airline intents whose user claims what the records disprove; the agent refuses.

A flight "delayed for hours" that the record shows late by less than the threshold; a flight
"cancelled by the airline" that is scheduled (the basic economy ticket stays non-refundable);
a flight "not gone yet" that left this morning (the trip can no longer be cancelled).
"""

from __future__ import annotations

import random

from tau_sim.domains.airline.data import (
    ACTIVE,
    CANCELLED,
    NOW,
    TODAY,
    Flight,
    Reservation,
    User,
)
from tau_sim.domains.airline.factory.common import (
    AirlineIntent,
    flights_of,
    full_refund_cancel,
    opening,
    pick_reservation,
    refund_reason,
    statuses,
)
from tau_sim.domains.airline.factory.finding import (
    TRIPS,
    SearchIntent,
    pick_described,
    searchable,
    unique_flight,
)
from tau_sim.domains.airline.rules import DELAY_THRESHOLD_MINUTES, compensation
from tau_sim.domains.airline.scenario import gold_reads
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.claims import DisprovenClaim
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.simulator.world import Action, Database, Domain, Task


def _status(flight: Flight) -> Action:
    return Action("get_flight_status", {"flight_number": flight.flight_number, "date": flight.date})


def _short_delay(db: Database, r: Reservation) -> Flight | None:
    """A flown flight of ``r`` late by less than the threshold, when none of ``r`` qualifies."""
    if r.status != ACTIVE or r.compensation:
        return None
    flights = flights_of(db, r)
    if any(f.status == CANCELLED or f.delay_minutes >= DELAY_THRESHOLD_MINUTES for f in flights):
        return None
    late = [f for f in flights if iso_day(f.date) < TODAY and f.delay_minutes > 0]
    return late[0] if late else None


class DisprovenDelayCompensation(DisprovenClaim, SearchIntent):
    """Compensation claimed for a flight "hours late" that was late by under 180 minutes."""

    name = "disproven_delay_compensation"
    rules = ("compensation-threshold",)
    challenges = frozenset({"search", "disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db, rng, lambda r: searchable(db, r) and _short_delay(db, r) is not None
        )
        if r is None:
            return None
        flight = _short_delay(db, r)
        assert flight is not None
        claimed = f"my flight from {flight.origin} to {flight.destination} on {flight.date}"
        if not unique_flight(db, r, flight):
            return None
        hours = rng.choice(("three", "four", "five"))
        who = self.owner(db, r, rng)
        task = self.task(
            domain,
            who,
            goal=f"I do not know the reservation code. I say {claimed} was delayed "
            f"by about {hours} hours and I want the compensation for it. If the agent shows "
            "me what the record says, I accept it in the end.",
            demand=f"compensation for the delay of {claimed}",
            opening=opening(
                rng,
                f"{claimed.capitalize()} was {hours} hours late and I want compensation.",
                f"I sat at the gate for {hours} hours on {claimed}. What do I get for that?",
                f"I'm owed compensation: {claimed} was delayed by {hours} hours.",
            ),
            known={"trip": claimed, "disrupted_flight": claimed},
            actions=[*TRIPS.reads(db, who, r), _status(flight)],
            outputs=[f"{flight.delay_minutes} minutes"],
            summary=f"{flight.flight_number} on {flight.date} of {r.reservation_id} was "
            f"{flight.delay_minutes} minutes late (under {DELAY_THRESHOLD_MINUTES}): refuse",
        )
        user: User = record(db, "users", r.user_id)
        _, due = compensation(user.membership, False, len(r.passengers))
        paid = Action(
            "issue_compensation",
            {
                "reservation_id": r.reservation_id,
                "flight_number": flight.flight_number,
                "amount": due,
            },
        )
        return refusing(task, paid)  # the delay compensation of the user's tier paid all the same


class DisprovenCancelledRefund(DisprovenClaim, SearchIntent):
    """A full refund claimed for a basic economy trip "the airline cancelled": it did not."""

    name = "disproven_cancelled_refund"
    rules = ("basic-economy-non-refundable",)
    challenges = frozenset({"search", "disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_described(
            db, rng, lambda r: r.cabin == "basic_economy" and refund_reason(db, r) is None
        )
        if found is None:
            return None
        r, text = found
        if text is None:
            return None
        flights = flights_of(db, r)
        claimed = rng.choice(flights)
        said = f"the flight from {claimed.origin} to {claimed.destination} on {claimed.date}"
        who = self.owner(db, r, rng)
        task = self.task(
            domain,
            who,
            goal=f"I do not know the reservation code of {text}. I say you cancelled {said}, "
            "so I want the whole trip cancelled with a full refund. If the agent shows me the "
            "flight is not cancelled, I accept it in the end and keep the reservation.",
            demand=f"{text} cancelled with a full refund",
            opening=opening(
                rng,
                f"You cancelled {said}, so I want a full refund for {text}.",
                f"I got word that {said} was cancelled. Refund {text}, please.",
                f"Since the airline cancelled {said}, I expect my money back for {text}.",
            ),
            known={"trip": text, "disrupted_flight": said},
            actions=[*TRIPS.reads(db, who, r), *(_status(f) for f in flights)],
            outputs=["non-refundable", claimed.status],
            summary=f"basic economy {r.reservation_id}: {claimed.flight_number} is "
            f"{claimed.status}, not cancelled; no refund",
        )
        return refusing(task, full_refund_cancel(r))  # the trip cancelled, all paid refunded


def departed_today(flight: Flight) -> bool:
    """Whether ``flight`` is dated today and left (departure plus delay) before ``NOW``."""
    if flight.date != TODAY.isoformat() or flight.status == CANCELLED:
        return False
    hours, minutes = map(int, flight.departure.split(":"))
    left = hours * 60 + minutes + flight.delay_minutes
    return left < NOW.hour * 60 + NOW.minute


class DepartedTodayCancel(DisprovenClaim, AirlineIntent):
    """Cancel a trip whose first flight "has not left yet": it left this morning. Refuse."""

    name = "departed_today_cancel"
    rules = ("no-change-after-departure",)
    challenges = frozenset({"disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: (
                r.status == ACTIVE
                and departed_today(flights_of(db, r)[0])
                and (r.cabin != "basic_economy" or refund_reason(db, r) is not None)
            ),
        )
        if r is None:
            return None
        flight = flights_of(db, r)[0]
        rid = r.reservation_id
        who = self.owner(db, r, rng)
        task = self.task(
            domain,
            who,
            goal=f"I want to cancel my reservation {rid} with my money back: I say my flight "
            f"from {flight.origin} to {flight.destination} today has not left yet and I am not "
            "going to take it. If the agent shows me it already departed, I accept it in the "
            "end.",
            demand=f"reservation {rid} cancelled with my money back",
            opening=opening(
                rng,
                f"Please cancel reservation {rid}, my flight today hasn't even left yet.",
                f"I can't make today's flight on {rid}, it hasn't departed, so refund me.",
                f"I won't be flying today. Cancel booking {rid} before the flight leaves.",
            ),
            known={"reservation_id": rid},
            actions=[*gold_reads(who, rid), *statuses(r)],
            outputs=[flight.departure],
            summary=f"{rid}: {flight.flight_number} left at {flight.departure} today; "
            "no cancellation after departure",
        )
        return refusing(task, full_refund_cancel(r))  # cancelled, everything paid refunded
