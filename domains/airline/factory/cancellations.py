"""Airline intents that cancel a reservation or compensate a disruption."""

from __future__ import annotations

import random

from tau_sim.domains.airline.data import ACTIVE, CANCELLED, Flight, Reservation, User, net_paid
from tau_sim.domains.airline.factory.common import (
    AirlineIntent,
    flights_of,
    full_refund_cancel,
    opening,
    pick_reservation,
    refund_reason,
    statuses,
    upcoming,
)
from tau_sim.domains.airline.rules import (
    CANCELLATION_FEE,
    CANCELLED_RATE,
    COMPENSATION_CAP,
    DELAY_RATE,
    DELAY_THRESHOLD_MINUTES,
    compensation,
)
from tau_sim.domains.airline.scenario import flight_text, gold_reads, trip_text
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swap_last
from tau_sim.simulator.world import Action, Database, Domain, Task

_REASON_GOAL = {
    "booked within the last 24 hours": "I booked it only a few hours ago.",
    "a flight was cancelled by the airline": "I heard one of my flights was cancelled.",
    "business cabin": "It is a business class booking.",
    "travel insurance": "I bought travel insurance with it.",
}


class CancelReservation(AirlineIntent):
    """Cancel an upcoming reservation: a full refund, or the economy refund less the fee."""

    name = "cancel_reservation"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: (
                upcoming(r) and (r.cabin != "basic_economy" or refund_reason(db, r) is not None)
            ),
        )
        if r is None:
            return None
        reason = refund_reason(db, r)
        paid = net_paid(r)
        count = len(r.passengers)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        reads = gold_reads(who, rid) + statuses(r)
        if reason is None:
            refund = money(paid - CANCELLATION_FEE * count)
            reads.append(
                Action(
                    "calculate", {"expression": f"{paid:.2f} - {CANCELLATION_FEE:.2f} * {count}"}
                )
            )
            why = "the economy refund less the cancellation fee"
        else:
            refund = paid
            why = reason
        if refund < 0:
            return None
        hint = _REASON_GOAL.get(reason or "", "")
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my reservation {rid} ({trip_text(r)}) completely. {hint} "
            f"I want to know how much I get back. {CONFIRM}".replace("  ", " "),
            opening=opening(
                rng,
                f"I want to cancel my reservation {rid}.",
                f"Please cancel booking {rid} for me.",
                f"I won't be travelling after all, so reservation {rid} has to be cancelled.",
                f"How much would I get back if I cancel {rid}? I want to cancel it.",
            ),
            known={"reservation_id": rid},
            actions=[
                *reads,
                Action("cancel_reservation", {"reservation_id": rid, "refund_amount": refund}),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {rid} ({r.cabin}): refund {money_text(refund)} ({why})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refund the other rule would give (full vs less the fee)."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        paid = net_paid(r)
        given = write.arguments["refund_amount"]
        other = (
            paid if given != paid else max(0.0, money(paid - CANCELLATION_FEE * len(r.passengers)))
        )
        return [
            *super().mistakes(domain, task),
            swap_last(task, replaced(write, refund_amount=other)),
        ]


def disrupted(db: Database, r: Reservation) -> Flight | None:
    """The reservation's first flight delayed past the threshold or cancelled, or None."""
    for flight in flights_of(db, r):
        if flight.status == CANCELLED or flight.delay_minutes >= DELAY_THRESHOLD_MINUTES:
            return flight
    return None


def _disrupted_trip(db: Database, rng: random.Random) -> tuple[Reservation, Flight, User] | None:
    """An active, uncompensated reservation whose first flight was disrupted, with its owner."""
    r = pick_reservation(
        db,
        rng,
        lambda r: r.status == ACTIVE and not r.compensation and disrupted(db, r) is not None,
    )
    if r is None:
        return None
    flight = disrupted(db, r)
    assert flight is not None
    user: User = record(db, "users", r.user_id)
    return r, flight, user


def _disruption_text(flight: Flight) -> str:
    if flight.status == CANCELLED:
        return f"flight {flight_text(flight)} was cancelled"
    return f"flight {flight_text(flight)} was delayed by {flight.delay_minutes} minutes"


def rate_check(tier: str, flight: Flight, count: int) -> list[Action]:
    """The ``calculate`` of the uncapped compensation when several passengers travel."""
    if count < 2:
        return []
    rate = (CANCELLED_RATE if flight.status == CANCELLED else DELAY_RATE)[tier]
    return [Action("calculate", {"expression": f"{rate:.2f} * {count}"})]


class DelayCompensation(AirlineIntent):
    """Compensation for a delayed or cancelled flight: a rate per passenger, capped by tier."""

    name = "delay_compensation"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        trip = _disrupted_trip(db, rng)
        if trip is None:
            return None
        r, flight, user = trip
        count = len(r.passengers)
        uncapped, due = compensation(user.membership, flight.status == CANCELLED, count)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"My {_disruption_text(flight)} (reservation {rid}). I want the compensation "
            f"I am entitled to and I want to know the amount. {CONFIRM}",
            opening=opening(
                rng,
                f"My flight {flight.flight_number} was a disaster and I want compensation.",
                f"Flight {flight.flight_number} was a mess. What compensation do I get?",
                f"I'd like to claim compensation for flight {flight.flight_number}.",
                f"After what happened on {flight.flight_number}, I expect to be compensated.",
            ),
            known={
                "reservation_id": rid,
                "disrupted_flight": f"{flight.flight_number} on {flight.date}",
            },
            actions=[
                *gold_reads(who, rid),
                *statuses(r, flight),
                *rate_check(user.membership, flight, count),
                Action(
                    "issue_compensation",
                    {"reservation_id": rid, "flight_number": flight.flight_number, "amount": due},
                ),
            ],
            outputs=[money_text(due)],
            summary=f"compensate {rid} ({user.membership}, {count} pax, {flight.status}): "
            f"{money_text(due)}"
            + (f" (capped from {money_text(uncapped)})" if uncapped > due else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the uncapped amount (or, when not capped, another tier's rate)."""
        write = task.actions[-1]
        due = write.arguments["amount"]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", write.arguments["reservation_id"])
        user: User = record(db, "users", r.user_id)
        flight = disrupted(db, r)
        assert flight is not None
        uncapped, _ = compensation(user.membership, flight.status == CANCELLED, len(r.passengers))
        wrong = uncapped if uncapped != due else money(due + 50.0)
        return [*super().mistakes(domain, task), swap_last(task, replaced(write, amount=wrong))]


class CancelBasicEconomyRefused(Refuses, AirlineIntent):
    """Cancel a basic economy ticket outside every refund case: refuse, write nothing."""

    name = "basic_economy_cancel_refused"
    forbidden = True
    rules = ("basic-economy-non-refundable",)
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: upcoming(r) and r.cabin == "basic_economy" and refund_reason(db, r) is None,
        )
        if r is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        task = self.task(
            domain,
            who,
            goal=f"I want to cancel my reservation {rid} ({trip_text(r)}) and get my money "
            "back. If the agent explains it cannot be refunded, I accept it in the end and keep "
            "the reservation as it is.",
            demand=f"my reservation {rid} cancelled with my money back",
            opening=opening(
                rng,
                f"I need to cancel reservation {rid} and get a refund.",
                f"Cancel {rid} and refund me, please.",
                f"I want my money back for booking {rid}; I'm cancelling it.",
            ),
            known={"reservation_id": rid},
            actions=[
                *gold_reads(who, rid),
                *statuses(r),
            ],
            outputs=["non-refundable"],
            summary=f"cancel basic economy {rid} booked {r.created_at[:10]}, no insurance: refuse",
        )
        return refusing(task, full_refund_cancel(r))  # the full refund the user asks for

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The ticket cancelled anyway: with no refund, then with a full refund (``gave_in``)."""
        unrefunded = replaced(task.violations[0], refund_amount=0.0)
        return [[*task.actions, unrefunded], *super().mistakes(domain, task)]


class CompensationOverCapTransfer(Refuses, AirlineIntent):
    """Demand more compensation than the tier's cap: the agent transfers, pays nothing."""

    name = "compensation_over_cap_transfer"
    forbidden = True
    rules = ("compensation-cap",)
    done_at = "instead"
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        trip = _disrupted_trip(db, rng)
        if trip is None:
            return None
        r, flight, user = trip
        cap = COMPENSATION_CAP[user.membership]
        wanted = money(cap + rng.choice((100.0, 200.0, 250.0)))
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        summary = (
            f"User {user.user_id} wants {money_text(wanted)} compensation for reservation {rid} "
            f"({flight.flight_number} {flight.status}); the {user.membership} cap is "
            f"{money_text(cap)}."
        )
        task = self.task(
            domain,
            who,
            goal=f"My {_disruption_text(flight)} (reservation {rid}). I want {money_text(wanted)} "
            "in compensation and will not accept less. If the agent offers less, in the end I "
            "ask for a human agent.",
            demand=f"{money_text(wanted)} in compensation for reservation {rid}",
            opening=opening(
                rng,
                f"Your airline ruined my trip on flight {flight.flight_number}. I want "
                f"{money_text(wanted)} in compensation.",
                f"I expect {money_text(wanted)} for what happened on {flight.flight_number}.",
                f"Nothing less than {money_text(wanted)} will do after flight "
                f"{flight.flight_number}.",
            ),
            known={
                "reservation_id": rid,
                "disrupted_flight": f"{flight.flight_number} on {flight.date}",
                "wanted_amount": money_text(wanted),
            },
            actions=[
                *gold_reads(who, rid),
                *statuses(r, flight),
                *rate_check(user.membership, flight, len(r.passengers)),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"compensation {money_text(wanted)} above the {money_text(cap)} cap: transfer",
        )
        paid = Action(
            "issue_compensation",
            {"reservation_id": rid, "flight_number": flight.flight_number, "amount": wanted},
        )
        return refusing(task, paid)  # the demanded amount paid, above the cap

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The demanded amount paid (``gave_in``), and the capped amount (the user refused it)."""
        paid = task.violations[0]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", paid.arguments["reservation_id"])
        user: User = record(db, "users", r.user_id)
        capped = replaced(paid, amount=COMPENSATION_CAP[user.membership])
        return [*super().mistakes(domain, task), swap_last(task, capped)]


class CancelOthersReservationRefused(Refuses, AirlineIntent):
    """Cancel a reservation that belongs to another customer: refuse, change nothing on it."""

    name = "others_reservation_cancel_refused"
    forbidden = True
    rules = ("other-customer-reservation",)
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, upcoming)
        user: User | None = pick(
            db, rng, "users", lambda u: r is not None and u.user_id != r.user_id
        )
        if r is None or user is None:
            return None
        owner: User = record(db, "users", r.user_id)
        holder = f"{owner.name.first_name} {owner.name.last_name}"
        relation = rng.choice(("friend", "colleague", "neighbour", "cousin"))
        who = self.identity(db, user.user_id, rng)
        rid = r.reservation_id
        task = self.task(
            domain,
            who,
            goal=f"My {relation} {holder} asked me to cancel their reservation {rid} "
            f"({trip_text(r).replace('my ', '', 1)}); it is not in my name. If the agent "
            "explains it can only act on my own reservations, I accept it in the end.",
            demand=f"reservation {rid} of my {relation} cancelled",
            opening=opening(
                rng,
                f"I'm calling for my {relation} {holder}: please cancel reservation {rid}.",
                f"My {relation} can't call, so I need you to cancel booking {rid} for them.",
                f"Could you cancel {rid}? It's my {relation}'s trip.",
            ),
            known={"reservation_id": rid},
            actions=[*gold_reads(who, rid)],
            summary=f"{rid} belongs to {owner.user_id}, not {user.user_id}: refuse",
        )
        return refusing(task, full_refund_cancel(r))  # cancelled with everything refunded
