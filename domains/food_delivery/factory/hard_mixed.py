"""Hard food-delivery intents: an allowed remedy beside a refused one, or a claim disproven.

Each user describes its order(s) instead of naming them; the gold path reads the profile's
orders, makes the writes the policy allows and refuses the rest with the reason (the rule).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.food_delivery.data import (
    DELIVERED,
    OUT_FOR_DELIVERY,
    PREPARING,
    Order,
    OrderItem,
    clock,
)
from tau_sim.domains.food_delivery.factory.common import (
    ORDERS,
    HardFoodIntent,
    credit_anyway,
    describe,
    describe_missing,
    line_refunds,
    lines_text,
    missing_lines,
    pick_order,
    refund_writes,
    searchable,
    siblings,
    tip_sum,
    user_of,
)
from tau_sim.domains.food_delivery.rules import (
    CLAIM_WINDOW_DAYS,
    LATE_MINUTES,
    in_claim_window,
    late_credit,
    late_tier,
    minutes_late,
)
from tau_sim.domains.food_delivery.scenario import line_text, sentence
from tau_sim.domains.kit.factory.mixed import (
    Mixed,
)
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.payments import can_pay, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


def _fresh(order: Order) -> bool:
    """Delivered within the claim window, nothing given back yet, no promotion on it."""
    return in_claim_window(order) and not order.refunds and not order.promo_code


def _missing(order: Order, lines: list[OrderItem]) -> list[Action]:
    """``lines`` of ``order`` refunded in full as missing (all of them: a whole-order refund)."""
    return refund_writes(order, lines, [line.line_total for line in lines], "missing item")


class WholeOrderRefundMixed(Mixed, HardFoodIntent):
    """A missing dish (refunded) and the whole order back (refused: only the missing dish is)."""

    name = "whole_order_refund_mixed"
    challenges = frozenset({"search", "mixed"})
    rules = ("no-whole-order-refund",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = missing_lines(db, rng, _fresh)
        if picked is None:
            return None
        order, named, lines, amounts = picked
        who = self.owner(db, order, rng)
        desc = describe(db, order, named, lines)
        verb = "was" if len(lines) == 1 else "were"
        task = self.task(
            domain,
            who,
            goal=f"{sentence(lines_text(lines))} {verb} missing from "
            f"{describe(db, order, named)}, and the rest came "
            "cold; I do not know the order number. I want the missing dishes refunded, and I want "
            "the whole order refunded too. If the agent says the whole order cannot be refunded, "
            f"I want to know why, and I take the refund of the missing dishes. {CONFIRM}",
            demand=f"the whole of {desc} refunded",
            opening=rng.choice(
                (
                    "Hi, {desc} was a disaster: food missing and the rest cold.",
                    "Hello, I want my money back for an order that went badly wrong: {desc}.",
                    "My dinner order was missing things and the rest was cold ({desc}).",
                    "Hey, I want a full refund on {desc}.",
                    "Good evening. I'm very unhappy with {desc}.",
                )
            ).format(desc=desc),
            known={"order": desc},
            actions=[
                *ORDERS.reads(db, who, order),
                *refund_writes(order, lines, amounts, "missing item"),
            ],
            outputs=[*(money_text(a) for a in amounts), "cannot be refunded"],
            summary=f"{order.order_id}: refund {len(lines)} missing, not the whole order",
        )
        # the other lines refunded in full too: the whole order given back
        return refusing(task, *_missing(order, [i for i in order.items if i not in lines]))

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The whole order refunded, the generic ones, the refund on another order."""
        return [*super().mistakes(domain, task), *self.wrong_order(domain, task, task.actions[-1])]


class NeverDeliveredDisproven(Refuses, HardFoodIntent):
    """An order the user says never came, that the record shows delivered: refuse, say when."""

    name = "never_delivered_disproven"
    forbidden = True
    challenges = frozenset({"search", "disproven"})
    rules = ("delivery-record-stands",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: _fresh(o) and searchable(db, o))
        if order is None:
            return None
        who, desc = self.owner_and_description(db, order, rng)
        task = self.task(
            domain,
            who,
            goal=f"{sentence(desc)} never arrived, I am sure of it; I do not know the order "
            "number. I want all my money back for it. If the agent says it was delivered, I "
            "want to know when.",
            demand=f"a full refund for {desc}, which never came",
            opening=rng.choice(
                (
                    "Hi, {desc} never showed up.",
                    "Hello, I paid for food that never came to my door: {desc}.",
                    "My order never arrived and I want a refund. It's {desc}.",
                    "Hey, where's my money? {desc} never got here.",
                    "Good evening. I waited all evening and {desc} never came.",
                )
            ).format(desc=desc),
            known={"order": desc},
            actions=ORDERS.reads(db, who, order),
            outputs=[clock(order.delivered_at)],
            summary=f"{order.order_id} 'never came', delivered {order.delivered_at}: refuse",
        )
        return refusing(task, *_missing(order, list(order.items)))  # refunded as if never delivered


class PreparingTipAndAddressMixed(Mixed, HardFoodIntent):
    """An order being prepared: more tip (allowed) and a new address (refused, being prepared)."""

    name = "preparing_tip_and_address_mixed"
    challenges = frozenset({"search", "mixed"})
    rules = ("no-change-once-preparing",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PREPARING and searchable(db, o))
        if order is None:
            return None
        extra = float(rng.choice((1, 2, 3, 4, 5)))
        method = user_of(db, order).payment_method(order.payment_method_id)
        if method is None or not can_pay(method, extra):
            return None
        tip = money(order.tip + extra)
        new_address = random_address(rng)
        address = address_text(new_address)
        who, desc = self.owner_and_description(db, order, rng)
        task = self.task(
            domain,
            who,
            goal=f"I am at a friend's place tonight: I want {desc} (I do not know its number) "
            f"delivered there instead, and I want to add {money_text(extra)} to the courier's "
            "tip. If the agent says the address cannot be changed, I want to know why, and I "
            f"keep the tip change; I do not want to cancel. {CONFIRM}",
            demand=f"{desc} delivered to {address}",
            opening=rng.choice(
                (
                    "Hi, I need {desc} sent somewhere else.",
                    "Hello, can you redirect {desc} and bump the tip?",
                    "I'm not home tonight, {desc} has to go to another address.",
                    "Hey, two things about {desc}: address and tip.",
                    "Good evening, I need to change where my dinner is going ({desc}).",
                )
            ).format(desc=desc),
            known={"order": desc, "new_address": address, "extra_tip": money_text(extra)},
            actions=[
                *ORDERS.reads(db, who, order),
                *tip_sum(order, extra, rng),
                Action("update_tip", {"order_id": order.order_id, "tip": tip}),
            ],
            outputs=[money_text(tip), PREPARING, "cannot be changed"],
            summary=f"preparing {order.order_id}: tip {money_text(tip)}, address refused",
        )
        # the delivery address changed although the order is being prepared
        moved = {"order_id": order.order_id, **address_args(new_address)}
        return refusing(task, Action("modify_order_address", moved))


class NotStartedDisproven(HardFoodIntent):
    """An order the user says is not started, that is out for delivery: no cancel."""

    name = "not_started_disproven"
    forbidden = True
    challenges = frozenset({"search", "disproven"})
    rules = ("no-cancel-after-pickup",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == OUT_FOR_DELIVERY and searchable(db, o))
        if order is None:
            return None
        who, desc = self.owner_and_description(db, order, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {desc} (I do not know its number) because I changed my mind. "
            "I am sure the restaurant has not even started it. If the agent says it cannot be "
            "cancelled, I want to know its status and when it should arrive.",
            demand=f"{desc} cancelled with my money back",
            opening=rng.choice(
                (
                    "Hi, please cancel {desc}, they haven't even started it.",
                    "Hello, I want to cancel {desc}; the restaurant hasn't touched it yet.",
                    "Cancel my dinner order please ({desc}), it's not being made yet anyway.",
                    "Hey, I changed my mind about {desc}.",
                    "Good evening. I'd like to cancel the food I ordered tonight: {desc}.",
                )
            ).format(desc=desc),
            known={"order": desc, "cancel_reason": "changed my mind"},
            actions=ORDERS.reads(db, who, order),
            outputs=[OUT_FOR_DELIVERY, clock(order.promised_by)],
            summary=f"{order.order_id} 'not started' but out for delivery: refuse",
        )


def _pair(
    db: Database, rng: random.Random, good: Callable[[Order], bool], bad: Callable[[Order], bool]
) -> tuple[Order, Order] | None:
    """An order ``good`` likes and another of its customer ``bad`` likes, both describable."""
    order = pick_order(db, rng, lambda o: good(o) and searchable(db, o))
    if order is None:
        return None
    others = [o for o in siblings(db, order) if bad(o) and not o.refunds and searchable(db, o)]
    return (order, rng.choice(others)) if others else None


def _both(rng: random.Random, first: str, second: str) -> str:
    """Two order descriptions in one breath, in either order."""
    return f"{first}, and {second}" if rng.random() < 0.5 else f"{second}, and {first}"


def _late_ok(order: Order) -> bool:
    return in_claim_window(order) and not order.refunds and late_tier(order) > 0


def _late_refused(order: Order) -> bool:
    if order.status != DELIVERED or not order.delivered_at:
        return False
    if in_claim_window(order):
        return 0 < minutes_late(order) < LATE_MINUTES
    return late_tier(order) > 0


class LateCreditsMixed(Mixed, HardFoodIntent):
    """Two late orders: one credited, the other refused (under 20 minutes, or past 7 days)."""

    name = "late_credits_mixed"
    challenges = frozenset({"search", "mixed"})
    rules = ("late-credit-threshold", "late-credit-window")

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        pair = _pair(db, rng, _late_ok, _late_refused)
        if pair is None:
            return None
        order, other = pair
        user = user_of(db, order)
        credit = late_credit(order, user)
        lines = rng.sample(order.items, min(len(order.items), rng.choice((0, 1, 2, 2))))
        refunds = line_refunds(order, lines, user)
        if credit <= 0 or (refunds and min(refunds) <= 0):
            return None
        missing = (
            f" Also, {lines_text(lines)} {'was' if len(lines) == 1 else 'were'} missing from "
            f"{describe(db, order)}: I want that refunded too."
            if lines
            else ""
        )
        desc = _both(rng, describe_missing(db, order, lines), describe_missing(db, other))
        why = "7 days" if not in_claim_window(other) else f"{LATE_MINUTES} minutes"
        who = self.owner(db, order, rng)
        task = self.task(
            domain,
            who,
            goal=f"Two of my orders came late: {desc}. I do not know their numbers. I want the "
            f"late-delivery credit for each and to know the amounts.{missing} If the agent says "
            f"one order does not qualify, I want to know why, and I take the rest. {CONFIRM}",
            demand=f"the late-delivery credit for {describe(db, other)} as well",
            opening=rng.choice(
                (
                    "Hi, two of my recent orders were late and I want the credits: {desc}.",
                    "Hello, you were late twice with my food lately ({desc}).",
                    "I'd like late-delivery credits for a couple of orders: {desc}.",
                    "Hey, {desc} were both late.",
                    "Good evening. Your deliveries keep arriving late, like {desc}.",
                )
            ).format(desc=desc),
            known={"order": desc},
            actions=[
                *ORDERS.reads(db, who, order, other),
                *refund_writes(order, lines, refunds, "missing item"),
                Action(
                    "issue_late_delivery_credit", {"order_id": order.order_id, "amount": credit}
                ),
            ],
            outputs=[
                *(money_text(r) for r in refunds),
                money_text(credit),
                why,
                "does not qualify",
            ],
            summary=f"credit {order.order_id} {money_text(credit)}, refuse {other.order_id}",
        )
        return refusing(task, credit_anyway(other, 5.0))  # the refused order credited


def _old_claim(order: Order) -> bool:
    return order.status == DELIVERED and bool(order.delivered_at) and not in_claim_window(order)


class ItemRefundWindowMixed(Mixed, HardFoodIntent):
    """Missing dishes on two orders: the recent one refunded, the one past 7 days refused."""

    name = "item_refund_window_mixed"
    challenges = frozenset({"search", "mixed"})
    rules = ("item-refund-window",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        count = rng.choice((1, 2, 2))
        pair = _pair(db, rng, lambda o: _fresh(o) and len(o.items) > count, _old_claim)
        if pair is None or len(pair[1].items) < 2:
            return None
        order, old = pair
        lines = list(order.items[1 : 1 + count])
        amounts = line_refunds(order, lines, user_of(db, order))
        if min(amounts) <= 0:
            return None
        old_line = old.items[-1]
        desc = _both(rng, describe_missing(db, order, lines), describe_missing(db, old, [old_line]))
        who = self.owner(db, order, rng)
        task = self.task(
            domain,
            who,
            goal=f"Dishes were missing from two of my orders ({desc}; I do not know their "
            f"numbers): {lines_text(lines)} from {describe(db, order)}, and "
            f"{line_text(old_line)} from {describe(db, old)}. I want both refunded and to know "
            "the amounts. "
            f"If the agent says one cannot be refunded, I want to know why. {CONFIRM}",
            demand=f"a refund for {line_text(old_line)} too",
            opening=rng.choice(
                (
                    "Hi, two of my orders came with dishes missing: {desc}.",
                    "Hello, I've been shorted on a couple of deliveries ({desc}).",
                    "I want refunds for missing food on {desc}.",
                    "Hey, stuff keeps going missing from my orders, {desc}.",
                    "Good evening. Two orders, missing dishes: {desc}.",
                )
            ).format(desc=desc),
            known={"order": desc},
            actions=[
                *ORDERS.reads(db, who, order, old),
                *refund_writes(order, lines, amounts, "missing item"),
            ],
            outputs=[
                *(money_text(a) for a in amounts),
                f"{CLAIM_WINDOW_DAYS} days",
                "cannot be refunded",
            ],
            summary=f"refund {len(lines)} on {order.order_id}, refuse old {old.order_id}",
        )
        # the dish of the order past the window refunded too
        amount = min(old_line.line_total, old.total)
        return refusing(task, *refund_writes(old, [old_line], [amount], "missing item"))
