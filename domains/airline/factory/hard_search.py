"""Hard airline intents whose user describes the trip instead of giving its code.

The agent reads every reservation of the profile to find the one meant, then changes it: a
flight move decided by a price condition, a family trip overhauled in four writes, a move
followed by a need raised later, a bag moved from one trip to another (the removal refused).
"""

from __future__ import annotations

import random

from tau_sim.domains.airline.data import Flight, User, route_key
from tau_sim.domains.airline.factory.common import fee_check, opening, statuses
from tau_sim.domains.airline.factory.finding import (
    NEXT_CABIN,
    TRIPS,
    SearchIntent,
    old_cabin_bags,
    pick_described,
)
from tau_sim.domains.airline.factory.moves import (
    Move,
    bag_write,
    cabin_change,
    corrected,
    outbound_options,
)
from tau_sim.domains.airline.scenario import CABIN_TEXT, passenger_text
from tau_sim.domains.kit.factory.chains import Chain, left_out
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import card_for, diff_text, method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task


class SearchChangeFlight(SearchIntent):
    """Move the outbound flight of a described trip; a price limit picks which flight."""

    name = "search_change_flight"
    challenges = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_described(db, rng, lambda r: r.cabin != "basic_economy")
        if found is None:
            return None
        r, text = found
        options = outbound_options(db, r, rng)
        if text is None or len(options) < 2:
            return None
        wanted, fallback = rng.sample(options, 2)
        if wanted.departure == fallback.departure:
            return None
        user: User = record(db, "users", r.user_id)
        method = card_for(user, 1000.0 * len(r.passengers), rng)
        if method is None:
            return None
        first = Move(r, wanted, method)
        limit = max(0.0, round((first.difference + rng.choice((-60, -30, 30, 60))) / 10) * 10.0)
        over = first.difference > limit
        move = Move(r, fallback, method) if over else first
        day = wanted.date
        condition = (
            f"the {wanted.departure} departure on {day}, or the {fallback.departure} one that day "
            f"if the {wanted.departure} one costs more than {money_text(limit)} extra in total"
        )
        who = self.owner(db, r, rng)
        return self.task(
            domain,
            who,
            goal=f"I do not know the reservation code. I want to move the outbound flight of "
            f"{text} to {day}: the {wanted.departure} departure, but if moving to it costs more "
            f"than {money_text(limit)} extra in total, the {fallback.departure} departure that "
            f"day instead. Any difference goes through {method_text(method)}. I want to know "
            f"how much I pay or get back. {CONFIRM}",
            opening=opening(
                rng,
                f"I need to move {text} to another day.",
                f"Can you change the date of {text}? I don't have the booking code.",
                f"I'd like to fly out on a different day for {text}.",
                f"Something came up and {text} has to move.",
            ),
            known={
                "trip": text,
                "new_date": day,  # asked on its own ("Which day?"), not only inside the flight
                "flight": condition,
                "payment_method": method_text(method),
            },
            actions=[
                *TRIPS.reads(db, who, r),
                *statuses(r),
                first.search,
                first.calculate,
                *([move.calculate] if over else []),
                move.write,
            ],
            outputs=[money_text(abs(move.difference))],
            summary=f"move {r.reservation_id} ({text}) to {move.new.flight_number} "
            f"({'over' if over else 'within'} the {money_text(limit)} limit): "
            f"{diff_text(move.difference)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the flight the condition did not pick (the limit ignored)."""
        write = task.actions[-1]
        db = domain.new_database()
        search = next(a for a in task.actions if a.name == "search_direct_flights").arguments
        keys = db.find("routes", route_key(search["origin"], search["destination"], search["date"]))
        chosen = write.arguments["flights"][0]["flight_number"]
        wanted = task.scenario.known_info["flight"]  # names both departures of the condition
        other: Flight = next(
            f
            for k in keys
            if (f := record(db, "flights", k)).flight_number != chosen and f.departure in wanted
        )
        flights = [{"flight_number": other.flight_number, "date": other.date}]
        flights += write.arguments["flights"][1:]
        return [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, flights=flights)),
        ]


class FamilyTripOverhaul(Chain, SearchIntent):
    """A described trip of several travellers: a birth date fixed, flight moved, cabin, bags."""

    name = "family_trip_overhaul"
    challenges = frozenset({"search", "long"})
    slips = (left_out("change_reservation_cabin"), old_cabin_bags)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_described(db, rng, lambda r: r.cabin in NEXT_CABIN and len(r.passengers) >= 2)
        if found is None:
            return None
        r, text = found
        fix = corrected(r, rng)
        if text is None or fix is None:
            return None
        user: User = record(db, "users", r.user_id)
        method = card_for(user, 1500.0 * len(r.passengers), rng)
        if method is None:
            return None
        cabin = NEXT_CABIN[r.cabin]
        options = outbound_options(db, r, rng) if r.cabin != "basic_economy" else []
        move = Move(r, rng.choice(options), method) if options else None
        after = move.moved(r) if move else r
        change = cabin_change(db, after, cabin, method)
        added = rng.randint(1, 3)
        bags = bag_write(r, user, added, method, cabin)
        if change is None or bags is None:
            return None
        cabin_calc, cabin_write, cabin_diff = change
        bag_action, fee = bags
        fix_write, wrong, fixed = fix
        who = self.owner(db, r, rng)
        reads = [*TRIPS.reads(db, who, r), *statuses(r)]
        known = {"trip": text, "corrected_passenger": passenger_text(fixed)}
        outputs = []
        if move:
            reads += [move.search, move.calculate]
            known["flight"] = f"the {move.new.departure} departure on {move.new.date}"
            outputs.append(money_text(abs(move.difference)))
        reads.append(cabin_calc)
        reads += fee_check(fee)
        steps = [fix_write, *([move.write] if move else []), cabin_write, bag_action]
        outputs += [money_text(abs(cabin_diff)), money_text(fee)]
        known |= {
            "new_cabin": CABIN_TEXT[cabin],
            "bags": f"{counted(added, 'more checked bag')}",
            "payment_method": method_text(method),
        }
        moving = f" move our outbound flight to {known['flight']}," if move else ""
        return self.task(
            domain,
            who,
            goal=f"I do not know the reservation code of {text}. I want to fix it up: "
            f"{wrong.first_name} {wrong.last_name}'s date of birth should be {fixed.dob},"
            f"{moving} move every flight to {CABIN_TEXT[cabin]}, and add "
            f"{counted(added, 'checked bag')}"
            f". Everything is paid with {method_text(method)}. I want to know each "
            f"amount. {CONFIRM}",
            opening=opening(
                rng,
                f"I have several changes to make on {text}.",
                f"Can you help me sort out {text}? There are a few things to fix.",
                f"I need a few updates to {text}, I don't have the code with me.",
            ),
            known=known,
            actions=[*reads, *steps],
            outputs=outputs,
            summary=f"overhaul {r.reservation_id}: dob of {wrong.first_name}, "
            f"{'move, ' if move else ''}{r.cabin} -> {cabin} ({money_text(cabin_diff)}), "
            f"+{counted(added, 'bag')} ({money_text(fee)})",
        )
