"""Hotel intents that cancel a stay, explain its terms or compensate a bad stay."""

from __future__ import annotations

import random

from tau_sim.domains.hotel.data import CHECKED_OUT, CONFIRMED, TODAY, Reservation, net_paid
from tau_sim.domains.hotel.factory.common import (
    HotelIntent,
    StayRef,
    cancellation_refund,
    pick_reservation,
    reservation_id_of,
    upcoming,
)
from tau_sim.domains.hotel.rules import (
    GOODWILL_PER_NIGHT,
    MAX_GOODWILL,
    NON_REFUNDABLE,
    cancellation_deadline,
    goodwill_points,
)
from tau_sim.domains.hotel.scenario import points_text, stay_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task

_RUINED = (
    "Your hotel ruined my stay. I want {amount} back for {ref}.",
    "I'm furious about my stay and I want {amount} refunded for {ref}.",
    "Hello, I demand {amount} back for {ref}; the stay was awful.",
    "That stay was a disaster. Refund me {amount} for {ref}.",
)

_DISAPPOINTED = (
    "Hello, my last stay was a disappointment: {incident}.",
    "Hi, I want to complain about my stay: {incident}.",
    "Hey, I'm not happy with my recent stay. There was {incident}.",
    "Good afternoon, something went wrong during my stay: {incident}.",
)

_CANCEL = (
    "Hi, I need to cancel {ref}.",
    "Hello, please cancel {ref}; my trip is off.",
    "Hey, I won't make it. How much do I get back if I cancel {ref}?",
    "Hi, I'd like to call off {ref}.",
)

_TERMS = (
    "Hi, what are the cancellation terms of {ref}?",
    "Hello, until when can I cancel {ref} for free?",
    "Hey, if I had to cancel {ref}, what would I get back?",
    "Hi, I'm not sure about my trip; what happens if I cancel {ref}?",
)

_NONREF = (
    "I need to cancel {ref} and get a refund.",
    "Hi, please refund {ref}; I can't travel any more.",
    "Hello, I want my money back for {ref}.",
    "Hey, cancel {ref} and refund me, please.",
)


class CancelStay(HotelIntent):
    """Cancel a flexible or member stay: free before the window, else one night is kept."""

    name = "cancel_stay"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        late = rng.random() < 0.5

        def fits(r: Reservation) -> bool:
            if (
                r.status != CONFIRMED
                or iso_day(r.check_in) < TODAY
                or r.rate_plan == NON_REFUNDABLE
            ):
                return False
            if late and len(r.nights) < 2:
                return False  # keeping the only night refunds nothing: not a task worth asking
            return cancellation_refund(r)[1] == late

        r = pick_reservation(db, rng, fits)
        if r is None:
            return None
        refund, fee = cancellation_refund(r)
        paid = net_paid(r)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        reads = list(ref.reads)
        if fee:
            reads.append(
                Action("calculate", {"expression": f"{paid:.2f} - {r.nights[0].price:.2f}"})
            )
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {stay_text(r)}{ref.text}. I want to know how "
            f"much I get back. {CONFIRM}",
            opening=ref.opening(rng, _CANCEL),
            known=ref.known,
            actions=[
                *reads,
                Action("cancel_reservation", {"reservation_id": rid, "refund_amount": refund}),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {rid} ({r.rate_plan}, check-in {r.check_in}): refund "
            f"{money_text(refund)}" + (" (one night kept)" if fee else " (free)"),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refund of the other side of the window."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        paid = net_paid(r)
        given = write.arguments["refund_amount"]
        other = paid if given != paid else money(paid - r.nights[0].price)
        return [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, refund_amount=other)),
        ]


class CancellationTermsInquiry(HotelIntent):
    """Until when a stay cancels free and what cancelling today would refund (information only)."""

    name = "cancellation_terms_inquiry"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        late = rng.random() < 0.4

        def fits(r: Reservation) -> bool:
            if not upcoming(r) or r.rate_plan == NON_REFUNDABLE or len(r.nights) < 2:
                return False
            return cancellation_refund(r)[1] == late

        r = pick_reservation(db, rng, fits)
        if r is None:
            return None
        deadline = cancellation_deadline(r.check_in, r.rate_plan)
        assert deadline is not None
        refund, fee = cancellation_refund(r)
        paid = net_paid(r)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        reads = list(ref.reads)
        if fee:
            reads.append(
                Action("calculate", {"expression": f"{paid:.2f} - {r.nights[0].price:.2f}"})
            )
        when = deadline.strftime("%Y-%m-%d %H:%M")
        return self.task(
            domain,
            who,
            goal=f"I might have to cancel {stay_text(r)}{ref.text}. I want to know "
            "until when I can cancel for free and how much I would get back if I cancelled "
            "today. I do not want to cancel or change anything now.",
            opening=ref.opening(rng, _TERMS),
            known=ref.known,
            actions=reads,
            outputs=[when, money_text(refund)],
            summary=f"terms of {rid} ({r.rate_plan}): free until {when}, today "
            f"{money_text(refund)} back",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The reservation cancelled although the guest only asked."""
        rid = task.actions[2].arguments["reservation_id"]
        r: Reservation = record(domain.new_database(), "reservations", rid)
        refund, _ = cancellation_refund(r)
        cancel = Action("cancel_reservation", {"reservation_id": rid, "refund_amount": refund})
        return [[*task.actions, cancel]]


class NonRefundableRefundRefused(Refuses, HotelIntent):
    """A refund of a non-refundable booking: refuse, write nothing."""

    name = "non_refundable_refund_refused"
    forbidden = True
    rules = ("non-refundable-no-refund",)
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: (
                r.status == CONFIRMED
                and r.rate_plan == NON_REFUNDABLE
                and iso_day(r.check_in) >= TODAY
            ),
        )
        if r is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        task = self.task(
            domain,
            who,
            goal=f"My plans changed: I want to cancel {stay_text(r)}{ref.text} and get "
            "my money back. If the agent explains it cannot be refunded, I accept it in the end "
            "and keep the reservation as it is.",
            demand=f"{ref.words} cancelled with my money back",
            opening=ref.opening(rng, _NONREF),
            known=ref.known,
            actions=ref.reads,
            outputs=["non-refundable"],
            summary=f"refund of non-refundable {rid} ({money_text(net_paid(r))}): refuse",
        )
        # the non-refundable booking cancelled with the full refund the user asks for
        cancel = Action("cancel_reservation", {"reservation_id": rid, "refund_amount": net_paid(r)})
        return refusing(task, cancel)

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The booking cancelled anyway: with a full refund (``gave_in``), and with none."""
        unrefunded = replaced(task.violations[0], refund_amount=0.0)
        return [*super().mistakes(domain, task), [*task.actions, unrefunded]]


def _completed(r: Reservation) -> bool:
    return r.status == CHECKED_OUT and not r.goodwill_points


class StayGoodwill(HotelIntent):
    """Goodwill points for a checked-out stay with a recorded incident, per night and capped."""

    name = "stay_goodwill_points"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, lambda r: _completed(r) and bool(r.incident))
        if r is None:
            return None
        count = len(r.nights)
        uncapped, due = goodwill_points(count)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        reads = list(ref.reads)
        if count > 1:
            reads.append(Action("calculate", {"expression": f"{GOODWILL_PER_NIGHT} * {count}"}))
        return self.task(
            domain,
            who,
            goal=f"During {stay_text(r)}{ref.text} there was a problem: "
            f"{r.incident}. I want whatever the hotel gives for that, and to know how many "
            f"points I get. {CONFIRM}",
            opening=rng.choice(_DISAPPOINTED).format(incident=r.incident),
            known={**ref.known_code, "checked_out_stay": stay_text(r)},
            actions=[
                *reads,
                Action("credit_goodwill_points", {"reservation_id": rid, "points": due}),
            ],
            outputs=[points_text(due)],
            summary=f"goodwill for {rid} ({counted(count, 'night')}"
            f", {r.incident}): {points_text(due)}"
            + (f" (capped from {points_text(uncapped)})" if uncapped > due else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the uncapped amount (or, when not capped, one night more)."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        uncapped, due = goodwill_points(len(r.nights))
        wrong = min(uncapped, MAX_GOODWILL) if uncapped > due else due + GOODWILL_PER_NIGHT
        return [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, points=wrong)),
        ]


class BadStayCompensationTransfer(HotelIntent):
    """A demand for money back for a bad stay: the agent transfers, credits nothing."""

    name = "bad_stay_compensation_transfer"
    forbidden = True
    rules = ("completed-stay-transfer",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, _completed)
        if r is None:
            return None
        paid = net_paid(r)
        wanted = paid if rng.random() < 0.5 else r.nights[0].price
        complaint = r.incident or one_of(
            rng,
            "the room smelled of smoke",
            "the staff were rude at check-in",
            "the wifi never worked",
        )
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        summary = (
            f"Guest {r.user_id} demands {money_text(wanted)} back for checked-out reservation "
            f"{rid} at {r.property_id} ({complaint}); cash refunds of completed stays are for a "
            "human agent."
        )
        return self.task(
            domain,
            who,
            goal=f"During {stay_text(r)}{ref.text} {complaint}. I want "
            f"{money_text(wanted)} refunded and will not accept points or anything "
            "else. If the agent offers less, in the end I ask for a human agent.",
            demand=f"{money_text(wanted)} refunded for {ref.words}",
            opening=rng.choice(_RUINED).format(ref=ref.words, amount=money_text(wanted)),
            known={
                **ref.known_code,
                "checked_out_stay": stay_text(r),
                "wanted_amount": money_text(wanted),
            },
            actions=[
                *ref.reads,
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"cash refund {money_text(wanted)} for stay {rid}: transfer",
        )

    # no violations: the user wants cash back, which no tool of the agent pays

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Goodwill points credited instead: the policy amount and the tool's most."""
        *reads, _transfer = task.actions
        rid = reservation_id_of(task)
        r: Reservation = record(domain.new_database(), "reservations", rid)
        _, due = goodwill_points(len(r.nights))
        return [
            [*reads, Action("credit_goodwill_points", {"reservation_id": rid, "points": points})]
            for points in (due, MAX_GOODWILL)
        ]
