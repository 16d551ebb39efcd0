"""Hard airline intents whose request grows: a need raised later, a bag moved between two trips.

Both users describe their trips instead of giving codes. One moves a flight and, once the
agent is under way, also asks for bags and a birth-date correction; the other wants a bag
taken off one trip and put on another: the removal is refused, the addition made.
"""

from __future__ import annotations

import random

from tau_sim.domains.airline.data import Reservation, User
from tau_sim.domains.airline.factory.common import (
    fee_check,
    opening,
    pick_reservation,
    statuses,
    upcoming,
)
from tau_sim.domains.airline.factory.finding import (
    TRIPS,
    SearchIntent,
    describe,
    pick_described,
    searchable,
)
from tau_sim.domains.airline.factory.moves import Move, bag_write, corrected, outbound_options
from tau_sim.domains.airline.rules import BAG_FEE
from tau_sim.domains.airline.scenario import passenger_text
from tau_sim.domains.kit.factory.chains import Chain, later_left_out, links
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import card_for, diff_text, method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task


class ChangeWithLaterExtras(Chain, SearchIntent):
    """Move a described trip's flight; later the user also adds bags and fixes a birth date."""

    name = "change_with_later_extras"
    challenges = frozenset({"search", "later", "long"})
    slips = (later_left_out,)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_described(db, rng, lambda r: r.cabin != "basic_economy")
        if found is None:
            return None
        r, text = found
        options = outbound_options(db, r, rng)
        fix = corrected(r, rng)
        if text is None or not options or fix is None:
            return None
        user: User = record(db, "users", r.user_id)
        method = card_for(user, 800.0 * len(r.passengers), rng)
        if method is None:
            return None
        move = Move(r, rng.choice(options), method)
        added = rng.randint(1, 2)
        bags = bag_write(r, user, added, method)
        if bags is None:
            return None
        bag_action, fee = bags
        fix_write, wrong, fixed = fix
        name = f"{wrong.first_name} {wrong.last_name}"
        who = self.owner(db, r, rng)
        before = [
            *TRIPS.reads(db, who, r),
            *statuses(r),
            move.search,
            move.calculate,
            move.write,
        ]
        flight = f"the {move.new.departure} departure on {move.new.date}"
        return self.task(
            domain,
            who,
            goal=f"I do not know the reservation code. I want to move the outbound flight of "
            f"{text} to {flight}, with any difference through {method_text(method)}. I want "
            f"to know how much I pay or get back. {CONFIRM}",
            opening=opening(
                rng,
                f"I want to change the flight on {text}.",
                f"Could you move {text} to another flight?",
                f"I need a different outbound flight for {text}.",
            ),
            later=rng.choice(
                (
                    f"Oh, and while I have you, could you also add {counted(added, 'checked bag')}"
                    f" to "
                    f"that trip and fix {name}'s date of birth? It should be {fixed.dob}.",
                    f"One more thing on the same trip: I need {counted(added, 'more checked bag')}"
                    f", and "
                    f"{name}'s date of birth is wrong, it is {fixed.dob}.",
                )
            ),
            later_at=len(before),
            known={
                "trip": text,
                "flight": flight,
                "payment_method": method_text(method),
                "bags": f"{counted(added, 'more checked bag')}",
                "corrected_passenger": passenger_text(fixed),
            },
            actions=[*before, *fee_check(fee), bag_action, fix_write],
            outputs=[money_text(abs(move.difference)), money_text(fee)],
            summary=f"move {r.reservation_id} ({diff_text(move.difference)}); later +"
            f"{counted(added, 'bag')} ({money_text(fee)}) and the dob of {name}",
        )


def _bag_on_source(domain: Domain, task: Task) -> list[Action] | None:
    """The gold path with the bag added to the trip it should leave instead."""
    write = task.actions[-1]
    db = domain.new_database()
    for read in links(task, "get_reservation_details"):
        other: Reservation = record(db, "reservations", read.arguments["reservation_id"])
        if other.reservation_id == write.arguments["reservation_id"] or not upcoming(other):
            continue
        user: User = record(db, "users", other.user_id)
        method = next(
            m for m in user.payment_methods if m.id == write.arguments["payment_method_id"]
        )
        wrong = bag_write(other, user, 1, method)
        if wrong:
            return swapped(task, write, wrong[0])
    return None


def _fee_waived(domain: Domain, task: Task) -> list[Action] | None:
    """The gold path with the bag added without its fee (none where it is free)."""
    write = task.actions[-1]
    db = domain.new_database()
    target: Reservation = record(db, "reservations", write.arguments["reservation_id"])
    if write.arguments["nonfree_baggages"] <= target.nonfree_baggages:
        return None
    return swapped(task, write, replaced(write, nonfree_baggages=target.nonfree_baggages))


class MoveBagBetweenTrips(Chain, SearchIntent):
    """Take a bag off one described trip (refused: never removed) and add one to another."""

    name = "move_bag_between_trips"
    rules = ("no-bag-removal",)
    challenges = frozenset({"search"})
    slips = (_bag_on_source, _fee_waived)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        source = pick_reservation(
            db, rng, lambda r: upcoming(r) and r.total_baggages > 0 and searchable(db, r)
        )
        if source is None:
            return None
        targets = [
            r
            for r in TRIPS.of(db, source.user_id)
            if r.reservation_id != source.reservation_id and upcoming(r)
        ]
        if not targets:
            return None
        target = rng.choice(targets)
        off, on = describe(db, source, rng), describe(db, target, rng)
        user: User = record(db, "users", source.user_id)
        method = card_for(user, BAG_FEE, rng)
        bags = bag_write(target, user, 1, method) if method else None
        if off is None or on is None or off == on or bags is None or method is None:
            return None
        write, fee = bags
        who = self.owner(db, source, rng)
        return self.task(
            domain,
            who,
            goal=f"I do not know the reservation codes. I checked one bag too many on {off}: "
            f"I want it taken off and its fee refunded, and one checked bag added to {on} "
            f"instead, paid with {method_text(method)} if there is a fee. If the agent says "
            f"bags cannot be removed, I still want the bag on {on}. {CONFIRM}",
            demand=f"one bag taken off {off} with its fee refunded",
            opening=opening(
                rng,
                f"I'd like to move a checked bag from {off} to {on}.",
                f"I booked a bag on {off} but I need it on {on} instead.",
                f"Can you shift one of my bags from {off} over to {on}?",
            ),
            known={
                "trip": off,
                "other_trip": on,
                "bags": "1 more checked bag",
                "payment_method": method_text(method),
            },
            actions=[
                *TRIPS.reads(db, who, source, target),
                *statuses(target),
                *fee_check(fee),
                write,
            ],
            outputs=[money_text(fee), "cannot be removed"],
            summary=f"bag off {source.reservation_id}: refused (never removed); bag on "
            f"{target.reservation_id}: {money_text(fee)}",
        )
