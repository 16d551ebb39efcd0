"""Car-rental intents that report damage to a rented car."""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.car_rental.data import ACTIVE, RETURNED, TODAY, Booking, DamageReport
from tau_sim.domains.car_rental.factory.common import (
    BookingRef,
    RentalIntent,
    a_or_an,
    damage_report,
    pick_booking,
)
from tau_sim.domains.car_rental.rules import DAMAGE_LIMIT
from tau_sim.domains.car_rental.scenario import rental_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task

_DAMAGES: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "scratch",
        "rear",
        "a long scratch on the rear bumper",
        ("collision", "parking_lot", "unknown"),
    ),
    ("scratch", "left_side", "a scratch along the driver's door", ("parking_lot", "unknown")),
    ("dent", "right_side", "a small dent in the passenger door", ("parking_lot", "unknown")),
    ("dent", "front", "a dent in the hood", ("collision", "road_hazard")),
    ("chipped_windshield", "windshield", "a chip in the windshield", ("road_hazard",)),
    ("broken_mirror", "left_side", "the left side mirror is cracked", ("collision", "parking_lot")),
    ("interior_stain", "interior", "a coffee stain on the back seat", ("spill",)),
    ("flat_tire", "front", "a flat front tire", ("road_hazard",)),
)
"""Damage type, area, how the user describes it, and the causes that fit it."""

_CAUSES: dict[str, tuple[str, ...]] = {
    "collision": ("backing into a concrete pillar in a parking garage", "clipping a gate post"),
    "parking_lot": (
        "someone opening a door into it in a parking lot",
        "a shopping cart rolling into it in a parking lot",
    ),
    "road_hazard": ("gravel thrown up on the highway", "a pothole on a country road"),
    "spill": ("coffee I spilled on a sharp turn",),
    "unknown": ("nothing I saw: I found it after parking on the street overnight",),
}
"""How a user tells each cause (the report's ``cause``), in its own words."""


def _words(name: str) -> str:
    return name.replace("_", " ")


_MINOR = (
    "Hi, I need to report some damage on {ref}.",
    "Hello, something happened to {ref} and I want to report it.",
    "Hey, there's a bit of damage on {ref}.",
    "Hi, I have to tell you about damage on {ref}.",
)

_LARGE = (
    "Hello, there is damage on {ref} and I need to report it.",
    "Hi, {ref} got badly damaged.",
    "Hey, I had an accident of sorts with {ref}; the repair looks expensive.",
    "Hi, I need to report serious damage on {ref}.",
)

_DISPUTE = (
    "I was charged for damage I did not cause on {ref}!",
    "Hello, I want to dispute a damage charge on {ref}.",
    "Hi, the damage charge on {ref} is wrong.",
    "Hey, why am I paying for damage on {ref}? It was already there.",
)


class _Damage:
    """Damage a user reports: type, area, description, cause, photos, estimate."""

    def __init__(self, rng: random.Random, low: int, high: int) -> None:
        self.damage_type, self.area, self.text, kinds = rng.choice(_DAMAGES)
        # one draw among six, as many as the causes once were: the other tasks stay as they were
        told = [(text, kind) for kind in kinds for text in _CAUSES[kind]]
        self.cause, self.kind = told[rng.randrange(6) % len(told)]
        self.photos = [f"IMG_{rng.randint(1000, 9999)}.jpg" for _ in range(rng.randint(1, 3))]
        self.estimate = money(rng.randrange(low, high, 10))

    def known(self) -> dict[str, str]:
        """The user's known facts about it."""
        return {
            "damage": f"{self.text} ({_words(self.damage_type)}, {_words(self.area)})",
            "cause": f"{self.cause} ({_words(self.kind)})",
            "photos": " and ".join(self.photos),
            "estimate": money_text(self.estimate),
        }

    def report(self, booking: Booking, charge: float) -> Action:
        """The damage report write."""
        damage = (self.damage_type, self.area, self.kind)
        return damage_report(booking, damage, self.photos, self.estimate, charge)


def _reportable(b: Booking) -> bool:
    recent = TODAY - dt.timedelta(days=3)
    return b.status == ACTIVE or (b.status == RETURNED and iso_day(b.return_date) >= recent)


def covered(booking: Booking) -> bool:
    """Whether the booking carries the collision damage waiver."""
    return "collision_damage_waiver" in booking.add_ons


class ReportMinorDamage(RentalIntent):
    """Report damage up to $500: filed with the photos; $0 with the waiver, else the estimate."""

    name = "report_minor_damage"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(db, rng, _reportable)
        if b is None:
            return None
        damage = _Damage(rng, 80, int(DAMAGE_LIMIT) + 1)
        charge = 0.0 if covered(b) else damage.estimate
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        return self.task(
            domain,
            who,
            goal=f"I need to report damage on {rental_text(b)}{ref.text}: "
            f"{damage.text}, from {damage.cause}. I have photos ({', '.join(damage.photos)}) and "
            f"the branch estimated the repair at {money_text(damage.estimate)}. I want to know "
            f"how much I will be charged. {CONFIRM}",
            opening=ref.opening(rng, _MINOR),
            known={**ref.known, **damage.known()},
            actions=[*ref.reads, damage.report(b, charge)],
            outputs=[money_text(charge)],
            summary=f"damage on {b.booking_id}, {money_text(damage.estimate)}, "
            f"{'waiver: $0' if covered(b) else 'no waiver: charged'}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The charge the wrong way round: billed despite the waiver, or waived without it."""
        write = task.actions[-1]
        estimate = write.arguments["estimated_cost"]
        wrong = 0.0 if write.arguments["customer_charge"] else estimate
        return [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, customer_charge=wrong)),
        ]


class LargeDamageTransfer(Refuses, RentalIntent):
    """Damage estimated above $500: the agent files nothing and transfers to a human."""

    name = "large_damage_transfer"
    forbidden = True
    rules = ("damage-over-limit-transfer",)
    done_at = "instead"
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(db, rng, _reportable)
        if b is None:
            return None
        damage = _Damage(rng, int(DAMAGE_LIMIT) + 60, 3200)
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        summary = (
            f"User {b.user_id} reports damage on booking {b.booking_id}: {damage.text}, "
            f"estimated at {money_text(damage.estimate)} (above the $500 limit)."
        )
        task = self.task(
            domain,
            who,
            goal=f"I need to report damage on {rental_text(b)}{ref.text}: "
            f"{damage.text}, from {damage.cause}. I have photos ({', '.join(damage.photos)}) and "
            f"the branch estimated the repair at {money_text(damage.estimate)}. I want it "
            "handled today; if the agent says a specialist must take it, I accept the transfer "
            "in the end.",
            demand=f"the damage on {ref.words} handled today",
            opening=ref.opening(rng, _LARGE),
            known={**ref.known, **damage.known()},
            actions=[
                *ref.reads,
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"damage on {b.booking_id} estimated {money_text(damage.estimate)}: transfer",
        )
        # the large damage report filed by the agent, charged by the waiver rule
        return refusing(task, damage.report(b, 0.0 if covered(b) else damage.estimate))


class DamageDisputeTransfer(Refuses, RentalIntent):
    """The user disputes a damage charge on a returned rental: transfer, waive nothing."""

    name = "damage_dispute_transfer"
    forbidden = True
    rules = ("damage-dispute-transfer",)
    done_at = "instead"
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def charged(b: Booking) -> bool:
            return any(
                record(db, "damage_reports", r).customer_charge > 0 for r in b.damage_reports
            )

        b = pick_booking(db, rng, charged)
        if b is None:
            return None
        report: DamageReport = next(
            r
            for rid in b.damage_reports
            if (r := record(db, "damage_reports", rid)).customer_charge > 0
        )
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        what = report.damage_type.replace("_", " ")
        summary = (
            f"User {b.user_id} disputes damage report {report.report_id} on booking "
            f"{b.booking_id}: {what}, charged {money_text(report.customer_charge)}."
        )
        task = self.task(
            domain,
            who,
            goal=f"After I returned {rental_text(b)}{ref.text} I was charged "
            f"{money_text(report.customer_charge)} for {a_or_an(what)} (damage report "
            f"{report.report_id}). The damage was already there when I picked the car up; I "
            "want the charge removed. If the agent says a specialist handles disputes, I "
            "accept the transfer in the end.",
            demand=f"the {money_text(report.customer_charge)} damage charge removed",
            opening=ref.opening(rng, _DISPUTE),
            known={**ref.known, "disputed_report": report.report_id},
            actions=[
                *ref.reads,
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"dispute of {report.report_id} ({money_text(report.customer_charge)}): "
            "transfer",
        )
        # the disputed charge waived by the agent instead of the transfer
        waive = {"booking_id": b.booking_id, "report_id": report.report_id}
        return refusing(task, Action("waive_damage_charge", waive))
