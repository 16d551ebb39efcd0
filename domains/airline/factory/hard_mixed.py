"""Hard airline intents that mix allowed writes with a request the policy refuses.

A flight move and bags go through while a basic economy refund is refused (a bag on that
trip instead); bags go on a basic economy trip whose flight cannot move; a family trip is
corrected, upgraded and given bags while a new traveller and insurance are refused.
"""

from __future__ import annotations

import random

from tau_sim.domains.airline.data import User
from tau_sim.domains.airline.factory.common import (
    fee_check,
    full_refund_cancel,
    opening,
    pick_reservation,
    refund_reason,
    statuses,
    upcoming,
)
from tau_sim.domains.airline.factory.finding import (
    NEXT_CABIN,
    TRIPS,
    SearchIntent,
    describe,
    old_cabin_bags,
    pick_described,
    searchable,
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
from tau_sim.domains.kit.factory.mixed import (
    Mixed,
)
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import card_for, diff_text, method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.kit.vocab import FIRST_NAMES, counted
from tau_sim.simulator.world import Database, Domain, Task


class ChangeAndBasicRefundRefused(Mixed, SearchIntent):
    """Move one trip's flight and add bags; a basic economy refund refused, a bag added there."""

    name = "change_and_basic_refund_refused"
    rules = ("basic-economy-non-refundable",)
    challenges = frozenset({"search", "mixed", "conditional", "long"})
    done_at = "instead"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        a = pick_reservation(
            db, rng, lambda r: upcoming(r) and r.cabin != "basic_economy" and searchable(db, r)
        )
        if a is None:
            return None
        basics = [
            r
            for r in TRIPS.of(db, a.user_id)
            if upcoming(r) and r.cabin == "basic_economy" and refund_reason(db, r) is None
        ]
        options = outbound_options(db, a, rng)
        if not basics or not options:
            return None
        b = rng.choice(basics)
        moving, refunding = describe(db, a, rng), describe(db, b, rng)
        user: User = record(db, "users", a.user_id)
        method = card_for(user, 800.0 * len(a.passengers), rng)
        if moving is None or refunding is None or moving == refunding or method is None:
            return None
        move = Move(a, rng.choice(options), method)
        added = rng.randint(1, 2)
        bags_a, bags_b = bag_write(a, user, added, method), bag_write(b, user, 1, method)
        if bags_a is None or bags_b is None:
            return None
        flight = f"the {move.new.departure} departure on {move.new.date}"
        who = self.owner(db, a, rng)
        task = self.task(
            domain,
            who,
            goal=f"I do not know the reservation codes. Two trips: move the outbound flight of "
            f"{moving} to {flight} and add {counted(added, 'checked bag')}"
            f" to it; and cancel {refunding} "
            f"with my money back. If the agent says that ticket cannot be refunded, I keep it "
            f"and want one checked bag added to it instead. Everything is paid with "
            f"{method_text(method)}. I want to know every amount. {CONFIRM}",
            demand=f"{refunding} cancelled with my money back",
            opening=opening(
                rng,
                f"I need to change {moving} and get a refund on {refunding}.",
                f"Two things: {moving} has to move, and I want to cancel {refunding}.",
                f"Could you move {moving}, and cancel {refunding} for a refund?",
            ),
            known={
                "trip": moving,
                "other_trip": refunding,
                "flight": flight,
                "bags": f"{counted(added, 'more checked bag')}"
                f" on the trip I move, 1 on the one I cancel",
                "payment_method": method_text(method),
            },
            actions=[
                *TRIPS.reads(db, who, a, b),
                *statuses(b),
                move.search,
                move.calculate,
                *fee_check(bags_a[1] + bags_b[1]),
                move.write,
                bags_a[0],
                bags_b[0],
            ],
            outputs=[
                money_text(abs(move.difference)),
                money_text(bags_a[1]),
                money_text(bags_b[1]),
                "non-refundable",
            ],
            summary=f"move {a.reservation_id} ({diff_text(move.difference)}), bags; refund of "
            f"basic economy {b.reservation_id} refused, a bag on it instead",
        )
        # the basic economy trip cancelled with everything refunded (instead of the bag)
        return refusing(task, full_refund_cancel(b))


class BasicBagsChangeRefused(Mixed, SearchIntent):
    """Bags on a basic economy trip go through; moving its flight is refused."""

    name = "basic_bags_change_refused"
    rules = ("basic-economy-no-change",)
    challenges = frozenset({"search", "mixed"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_described(db, rng, lambda r: r.cabin == "basic_economy")
        if found is None:
            return None
        r, text = found
        options = outbound_options(db, r, rng)
        user: User = record(db, "users", r.user_id)
        method = card_for(user, 600.0 * len(r.passengers), rng)
        if text is None or not options or method is None:
            return None
        added = rng.randint(1, 3)
        bags = bag_write(r, user, added, method)
        if bags is None:
            return None
        move = Move(r, rng.choice(options), method)
        if [f.departure for f in options].count(move.new.departure) > 1:
            return None
        flight = f"the {move.new.departure} departure on {move.new.date}"
        who = self.owner(db, r, rng)
        task = self.task(
            domain,
            who,
            goal=f"I do not know the reservation code. On {text} I want to add "
            f"{counted(added, 'checked bag')} and move the outbound flight to {flight}, paid with "
            f"{method_text(method)}. If the flight cannot be moved, I still want the bags. I "
            f"want to know the bag fee. {CONFIRM}",
            demand=f"the outbound flight of {text} moved to {flight}",
            opening=opening(
                rng,
                f"I want to add bags to {text} and move it to another day.",
                f"Could you put {counted(added, 'more bag')} on {text}, and change its flight?",
                f"Two things on {text}: extra luggage and a different flight.",
            ),
            known={
                "trip": text,
                "bags": f"{counted(added, 'more checked bag')}",
                "flight": flight,
                "payment_method": method_text(method),
            },
            actions=[*TRIPS.reads(db, who, r), bags[0]],
            outputs=[money_text(bags[1]), "cannot be changed"],
            summary=f"+{counted(added, 'bag')}"
            f" on basic economy {r.reservation_id} ({money_text(bags[1])});"
            f" move to {move.new.flight_number} refused",
        )
        return refusing(task, move.write)  # the basic economy flight moved as asked


class FamilyFixWithRefusals(Chain, SearchIntent):
    """Correct, upgrade and add bags to a described trip; a new traveller and insurance refused."""

    name = "family_fix_with_refusals"
    rules = ("passenger-count-fixed", "insurance-at-booking-only")
    challenges = frozenset({"search", "long"})
    slips = (old_cabin_bags, left_out("change_reservation_cabin"))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_described(
            db, rng, lambda r: r.cabin in NEXT_CABIN and not r.insurance and len(r.passengers) < 5
        )
        if found is None:
            return None
        r, text = found
        fix = corrected(r, rng)
        user: User = record(db, "users", r.user_id)
        method = card_for(user, 1500.0 * len(r.passengers), rng)
        if text is None or fix is None or method is None:
            return None
        cabin = NEXT_CABIN[r.cabin]
        change = cabin_change(db, r, cabin, method)
        added = rng.randint(1, 2)
        bags = bag_write(r, user, added, method, cabin)
        if change is None or bags is None:
            return None
        calc, cabin_write, difference = change
        fix_write, wrong, fixed = fix
        first = rng.choice(FIRST_NAMES)
        if first == user.name.first_name:  # the traveller added is someone else
            first = FIRST_NAMES[(FIRST_NAMES.index(first) + 1) % len(FIRST_NAMES)]
        extra = f"{first} {user.name.last_name}"
        who = self.owner(db, r, rng)
        return self.task(
            domain,
            who,
            goal=f"I do not know the reservation code of {text}. I want {wrong.first_name} "
            f"{wrong.last_name}'s date of birth corrected to {fixed.dob}, {extra} added as "
            f"another traveller, travel insurance added, every flight moved to "
            f"{CABIN_TEXT[cabin]} and {counted(added, 'checked bag')} added, paid with "
            f"{method_text(method)}. If the agent cannot add {extra} or the insurance, I want "
            f"the rest done anyway, and I do not want a separate booking for {extra}. I want to "
            f"know each amount. {CONFIRM}",
            demand=f"{extra} added to {text} with travel insurance",
            opening=opening(
                rng,
                f"I need to update {text}: a birthday fix, one more traveller and some extras.",
                f"Lots to change on {text}, including adding {extra}.",
                f"I'd like to add {extra} to {text} and fix a few other things.",
            ),
            known={
                "trip": text,
                "corrected_passenger": passenger_text(fixed),
                "new_cabin": CABIN_TEXT[cabin],
                "bags": f"{counted(added, 'more checked bag')}",
                "payment_method": method_text(method),
            },
            actions=[
                *TRIPS.reads(db, who, r),
                *statuses(r),
                calc,
                *fee_check(bags[1]),
                fix_write,
                cabin_write,
                bags[0],
            ],
            outputs=[money_text(abs(difference)), money_text(bags[1]), "cannot be added"],
            summary=f"{r.reservation_id}: dob, {r.cabin} -> {cabin}, +{counted(added, 'bag')}; "
            f"{extra} and insurance refused",
        )
