"""Food-delivery intents that refund items, credit late deliveries or transfer."""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.food_delivery.data import Order, User
from tau_sim.domains.food_delivery.factory.common import (
    FoodIntent,
    credit_anyway,
    line_refunds,
    lines_text,
    order_from,
    order_ref,
    pick_order,
    refund_writes,
    restaurant_of,
    user_of,
)
from tau_sim.domains.food_delivery.rules import (
    ITEM_REFUND_ORDER_SHARE,
    LATE_CREDIT_MONTHLY_CAP,
    LATE_MINUTES,
    in_claim_window,
    item_refund,
    late_credit,
    late_tier,
    minutes_late,
)
from tau_sim.domains.food_delivery.scenario import (
    gold_reads,
    line_text,
    order_read,
    order_text,
    sentence,
)
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced
from tau_sim.simulator.world import Action, Database, Domain, Task


def fresh_claim(order: Order) -> bool:
    """A delivered order in the claim window with nothing refunded or credited yet."""
    return in_claim_window(order) and not order.refunds


def _cap_check(order: Order, rng: random.Random) -> list[Action]:
    """Half the time, the ``calculate`` of the order cap (half the subtotal) before a refund."""
    if rng.random() < 0.5:
        return []
    return [
        Action("calculate", {"expression": f"{order.subtotal:.2f} * {ITEM_REFUND_ORDER_SHARE}"})
    ]


def _month_check(user: User, rng: random.Random) -> list[Action]:
    """Half the time, the ``calculate`` of what the monthly late-credit cap leaves."""
    if rng.random() < 0.5:
        return []
    spent = user.late_credits_this_month
    return [Action("calculate", {"expression": f"{LATE_CREDIT_MONTHLY_CAP:.2f} - {spent:.2f}"})]


# ---- after delivery ---------------------------------------------------------------------------


class _ItemRefund(FoodIntent):
    """A missing or wrong line of a delivered order, refunded within the policy's caps."""

    reason: ClassVar[str] = "missing item"
    capped: ClassVar[bool] = False

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, fresh_claim)
        if order is None:
            return None
        user = user_of(db, order)
        line = rng.choice(order.items)
        amount = item_refund(order, line, user)
        if amount <= 0 or (amount < line.line_total) != self.capped:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        what = "was missing from" if self.reason == "missing item" else "was wrong in"
        write = Action(
            "refund_order_item",
            {"order_id": oid, "item_id": line.item_id, "reason": self.reason, "amount": amount},
        )
        return self.task(
            domain,
            who,
            goal=f"{sentence(line_text(line))} {what} {order_text(oid, restaurant)}, which was "
            f"delivered. I want a refund for it and to know how much I get back. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I have a {self.reason} on my order {oid}: something {what} it.",
                f"My delivery from {restaurant.name} came and {line.name} {what} it! "
                f"That's a {self.reason}.",
                f"Hello, there's a problem with what I got in order {oid}.",
                "My food arrived but it isn't right.",
            ),
            known={"order_id": oid, "item": line_text(line)},
            actions=[*gold_reads(who, order_read(oid)), *_cap_check(order, rng), write],
            outputs=[money_text(amount)],
            summary=f"{self.reason} {line.name} on {oid}: refund {money_text(amount)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the full line refunded when a cap applies, another line refunded."""
        *reads, refund = task.actions
        order = order_from(domain.new_database(), refund.arguments["order_id"])
        line = next(i for i in order.items if i.item_id == refund.arguments["item_id"])
        paths = super().mistakes(domain, task)
        if line.line_total != refund.arguments["amount"]:
            full = replaced(refund, amount=line.line_total)
            paths.append([*reads, full])
        others = [i for i in order.items if i.item_id != line.item_id]
        if others:
            amount = min(others[0].line_total, refund.arguments["amount"])
            other = {**refund.arguments, "item_id": others[0].item_id, "amount": amount}
            paths.append([*reads, Action(refund.name, other)])
        return paths


class RefundMissingItem(_ItemRefund):
    """A missing line refunded in full (no cap applies)."""

    name = "refund_missing_item"


class RefundWrongItemCapped(_ItemRefund):
    """A wrong line whose refund a cap (order share or monthly) reduces."""

    rules = ("item-refund-caps",)
    name = "refund_wrong_item_capped"
    reason = "wrong item"
    capped = True


def _late(order: Order) -> bool:
    return fresh_claim(order) and late_tier(order) > 0


class LateDeliveryCredit(FoodIntent):
    """Account credit for a late delivery: by lateness tier, within the monthly cap."""

    name = "late_delivery_credit"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, _late)
        if order is None:
            return None
        amount = late_credit(order, user_of(db, order))
        if amount <= 0:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        return self.task(
            domain,
            who,
            goal=f"My order {oid} arrived {minutes_late(order)} minutes after the promised time. "
            f"I want the credit I am owed for the late delivery and to know how much it is. "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, my order {oid} was really late.",
                "My food showed up way after the time you promised. This is not okay.",
                f"Hello, {oid} took forever to arrive.",
                "I want compensation, my delivery was late.",
            ),
            known={"order_id": oid},
            actions=[
                *gold_reads(who, order_read(oid)),
                *_month_check(user_of(db, order), rng),
                Action("issue_late_delivery_credit", {"order_id": oid, "amount": amount}),
            ],
            outputs=[money_text(amount)],
            summary=f"late delivery of {oid} ({minutes_late(order)} min): {money_text(amount)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the credit of the other tier."""
        credit = task.actions[-1]
        amount = credit.arguments["amount"]
        other = 10.0 if amount != 10.0 else 5.0
        order = order_from(domain.new_database(), credit.arguments["order_id"])
        if other > order.total:
            other = money(amount / 2)
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, amount=other),
        ]


class LateCreditRefused(Refuses, FoodIntent):
    """A delivery a few minutes late, under the policy's threshold: no credit, say why."""

    rules = ("late-credit-threshold",)
    name = "late_credit_refused"
    forbidden = True
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: fresh_claim(o) and 0 < minutes_late(o) < LATE_MINUTES)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        ref = order_ref(db, who, order, rng)
        task = self.task(
            domain,
            who,
            goal=f"{sentence(ref.text)} came later than promised and I want a credit for it. If "
            "the agent says I do not qualify, I want to know why; I do not want anything else.",
            demand=f"a credit for {ref.text}, which came late",
            opening=one_of(
                rng,
                "Hi, {ref} was late, I want compensation.",
                "Your driver was late with {ref}.",
                "Hello, {ref} came after the promised time.",
                "I'd like a late-delivery credit for {ref}.",
            ).format(ref=ref.text),
            known=ref.known,
            actions=ref.reads,
            outputs=[f"{LATE_MINUTES} minutes"],
            summary=f"{oid} {minutes_late(order)} min late: under threshold, refuse",
        )
        # a late credit issued although the delivery was under the threshold
        return refusing(task, credit_anyway(order, 5.0))


class MissingItemAndLateCredit(FoodIntent):
    """Two remedies on one order: a missing line refunded and a late-delivery credit."""

    name = "missing_item_and_late_credit"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, _late)
        if order is None:
            return None
        user = user_of(db, order)
        lines = rng.sample(order.items, min(len(order.items), rng.choice((1, 2, 2))))
        refunds = line_refunds(order, lines, user)
        credit = late_credit(order, user)
        if min(refunds) <= 0 or credit <= 0:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        return self.task(
            domain,
            who,
            goal=f"{sentence(order_text(oid, restaurant))} arrived {minutes_late(order)} "
            f"minutes late, and {lines_text(lines)} missing. I want a refund for what was "
            "missing and the credit for the late delivery, and to know the amounts. "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, my order {oid} came late AND there's a missing item.",
                f"Hello, {oid} was late and incomplete.",
                "My food came late and not all of it was there.",
                f"Hey, two problems with {oid}: late and something missing.",
            ),
            known={"order_id": oid, "item": lines_text(lines)},
            actions=[
                *gold_reads(who, order_read(oid)),
                *refund_writes(order, lines, refunds, "missing item"),
                Action("issue_late_delivery_credit", {"order_id": oid, "amount": credit}),
            ],
            outputs=[*(money_text(r) for r in refunds), money_text(credit)],
            summary=f"{oid}: refund {len(lines)} + credit {money_text(credit)}",
        )


class CourierSafetyTransfer(Refuses, FoodIntent):
    """A courier safety incident: the policy sends it to a human, nothing is credited."""

    rules = ("courier-safety-transfer",)
    name = "courier_safety_transfer"
    forbidden = True
    done_at = "instead"
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, fresh_claim)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        incident = one_of(
            rng,
            "the courier shouted at me and threatened me at my door",
            "the courier drove onto the sidewalk and nearly hit my child",
            "the courier tried to force his way into my building",
        )
        summary = f"Courier safety incident on order {oid} ({who.customer.user_id}): {incident}."
        ref = order_ref(db, who, order, rng)
        task = self.task(
            domain,
            who,
            goal=f"When {ref.text} was delivered, {incident}. I want this reported to someone "
            "who handles safety, not a coupon.",
            demand="this reported to someone who handles safety",
            opening=one_of(
                rng,
                "I need to report your courier for {ref}. I felt unsafe.",
                "Your delivery driver was dangerous today with {ref}. Deal with it.",
                "Hello, something scary happened with the courier on {ref}.",
                "I have a complaint about how a courier behaved on {ref}.",
            ).format(ref=ref.text),
            known={**ref.known, "incident": incident},
            actions=[*ref.reads, Action("transfer_to_human_agents", {"summary": summary})],
            summary=f"courier safety incident on {oid}: transfer",
        )
        # a goodwill credit handed out instead of the transfer
        return refusing(task, credit_anyway(order, 10.0))
