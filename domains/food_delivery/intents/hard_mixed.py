"""Hard food-delivery intents that ask for an allowed remedy beside a refused one, or that claim
what the order records disprove.

Each user describes its order(s) instead of naming them; the gold path reads the profile's
orders, makes the writes the policy allows and refuses the rest with the reason (the rule).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.food_delivery.data import DELIVERED, OUT_FOR_DELIVERY, PREPARING, Order, clock
from tau_sim.domains.food_delivery.intents.common import (
    HardFoodIntent,
    address_of,
    describe,
    described,
    full_refunds,
    order_from,
    pick_order,
    search_reads,
    searchable,
    siblings,
    user_of,
)
from tau_sim.domains.food_delivery.rules import (
    CLAIM_WINDOW_DAYS,
    LATE_MINUTES,
    in_claim_window,
    item_refund,
    late_credit,
    late_tier,
    minutes_late,
)
from tau_sim.domains.food_delivery.scenario import CONFIRM, gold_reads, line_text
from tau_sim.domains.kit.payments import can_pay, money, money_text
from tau_sim.domains.kit.people import address_text, random_address
from tau_sim.simulator.world import Action, Database, Domain, Task


def _fresh(order: Order) -> bool:
    """Delivered within the claim window, nothing given back yet, no promotion on it."""
    return in_claim_window(order) and not order.refunds and not order.promo_code


def _line_refund(order: Order, item_id: str, amount: float) -> Action:
    return Action(
        "refund_order_item",
        {"order_id": order.order_id, "item_id": item_id, "reason": "missing item", "amount": amount},
    )


class WholeOrderRefundMixed(HardFoodIntent):
    """A missing dish (refunded) and the whole order back (refused: only the missing dish is)."""

    name = "whole_order_refund_mixed"
    description = "A dish missing from a described order: refund it, refuse the whole order."
    challenges = frozenset({"search", "mixed"})
    rules = ("no-whole-order-refund",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(
            db, rng, lambda o: _fresh(o) and len(o.items) >= 2 and searchable(db, o)
        )
        if order is None:
            return None
        line, named = rng.sample(order.items, 2)
        amount = item_refund(order, line, user_of(db, order))
        if amount <= 0:
            return None
        who = self.owner(db, order, rng)
        desc = describe(db, order, named)
        return self.task(
            domain,
            who,
            goal=f"{line_text(line).capitalize()} was missing from {desc}, and the rest came cold; "
            "I do not know the order number. I want the missing dish refunded, and I want the "
            "whole order refunded too. If the agent says the whole order cannot be refunded, I "
            f"want to know why, and I take the refund of the missing dish. {CONFIRM}",
            demand=f"the whole of {desc} refunded",
            opening=rng.choice(
                (
                    "Hi, {desc} was a disaster: a dish missing and the rest cold.",
                    "Hello, I want my money back for an order that went badly wrong.",
                    "My dinner order was missing something and the rest was cold. Refund all of it.",
                    "Hey, I want a full refund on {desc}.",
                    "Good evening. I'm very unhappy with one of my deliveries this week.",
                )
            ).format(desc=desc),
            known={"order": desc, "item": line_text(line)},
            actions=[
                *gold_reads(who, *search_reads(db, order)),
                _line_refund(order, line.item_id, amount),
            ],
            outputs=[money_text(amount), "whole order"],
            summary=f"{order.order_id}: refund {line.name} {money_text(amount)}, not the order",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The other lines refunded in full too: the whole order given back."""
        write = task.actions[-1]
        order = order_from(domain.new_database(), write.arguments["order_id"])
        return full_refunds(order, but=write.arguments["item_id"])

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the whole order refunded, the refund on another order."""
        return [
            *super().mistakes(domain, task),
            [*task.actions, *self.violations(domain, task)],
            *self.wrong_order(domain, task, task.actions[-1]),
        ]


class NeverDeliveredDisproven(HardFoodIntent):
    """An order the user says never came, that the record shows delivered: refuse, say when."""

    name = "never_delivered_disproven"
    description = "The user says a described order never came; it was delivered: refuse."
    forbidden = True
    challenges = frozenset({"search", "disproven"})
    rules = ("delivery-record-stands",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: _fresh(o) and searchable(db, o))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        desc = describe(db, order, rng.choice(order.items))
        return self.task(
            domain,
            who,
            goal=f"{desc.capitalize()} never arrived, I am sure of it; I do not know the order "
            "number. I want all my money back for it. If the agent says it was delivered, I "
            "want to know when.",
            demand=f"a full refund for {desc}, which never came",
            opening=rng.choice(
                (
                    "Hi, {desc} never showed up.",
                    "Hello, I paid for food that never came to my door.",
                    "My order never arrived and I want a refund.",
                    "Hey, where's my money? {desc} never got here.",
                    "Good evening. I waited all evening and my delivery never came.",
                )
            ).format(desc=desc),
            known={"order": desc},
            actions=gold_reads(who, *search_reads(db, order)),
            outputs=[clock(order.delivered_at)],
            summary=f"{order.order_id} 'never came', delivered {order.delivered_at}: refuse",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """Every line of the order refunded as missing."""
        return full_refunds(described(domain.new_database(), task)[0])

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the order refunded as undelivered."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


class PreparingTipAndAddressMixed(HardFoodIntent):
    """An order being prepared: more tip (allowed) and a new address (refused, being prepared)."""

    name = "preparing_tip_and_address_mixed"
    description = "A described order being prepared: raise the tip, refuse the address change."
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
        address = address_text(random_address(rng))
        who = self.owner(db, order, rng)
        desc = describe(db, order, rng.choice(order.items))
        return self.task(
            domain,
            who,
            goal=f"I am at a friend's place tonight: I want {desc} (I do not know its number) "
            f"delivered there instead, and I want to add {money_text(extra)} to the courier's "
            "tip. If the agent says the address cannot be changed, I want to know why, and I "
            f"keep the tip change; I do not want to cancel. {CONFIRM}",
            demand=f"{desc} delivered to {address}",
            opening=rng.choice(
                (
                    "Hi, I need my food from tonight sent somewhere else.",
                    "Hello, can you redirect {desc} and bump the tip?",
                    "I'm not home tonight, my order has to go to another address.",
                    "Hey, two things about {desc}: address and tip.",
                    "Good evening, I need to change where my dinner is going.",
                )
            ).format(desc=desc),
            known={"order": desc, "new_address": address, "extra_tip": money_text(extra)},
            actions=[
                *gold_reads(who, *search_reads(db, order)),
                Action("update_tip", {"order_id": order.order_id, "tip": tip}),
            ],
            outputs=[money_text(tip), PREPARING],
            summary=f"preparing {order.order_id}: tip {money_text(tip)}, address refused",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The delivery address changed although the order is being prepared."""
        oid = task.actions[-1].arguments["order_id"]
        address = address_of(task.scenario.known_info["new_address"])
        return [Action("modify_order_address", {"order_id": oid, **address})]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the address changed too."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


class NotStartedDisproven(HardFoodIntent):
    """An order the user says the restaurant has not started, that is out for delivery: no cancel."""

    name = "not_started_disproven"
    description = "The user says a described order is not started; it is out for delivery."
    forbidden = True
    challenges = frozenset({"search", "disproven"})
    rules = ("no-cancel-after-pickup",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == OUT_FOR_DELIVERY and searchable(db, o))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        desc = describe(db, order, rng.choice(order.items))
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
                    "Hello, I want to cancel an order the restaurant hasn't touched yet.",
                    "Cancel my dinner order please, it's not being made yet anyway.",
                    "Hey, I changed my mind about {desc}.",
                    "Good evening. I'd like to cancel the food I ordered tonight.",
                )
            ).format(desc=desc),
            known={"order": desc, "cancel_reason": "changed my mind"},
            actions=gold_reads(who, *search_reads(db, order)),
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


def _both(db: Database, first: Order, second: Order) -> str:
    """Two orders described in one breath."""
    return (
        f"{describe(db, first, first.items[0])}, and {describe(db, second, second.items[0])}"
    )


def _late_ok(order: Order) -> bool:
    return in_claim_window(order) and not order.refunds and late_tier(order) > 0


def _late_refused(order: Order) -> bool:
    if order.status != DELIVERED or not order.delivered_at:
        return False
    if in_claim_window(order):
        return 0 < minutes_late(order) < LATE_MINUTES
    return late_tier(order) > 0


class LateCreditsMixed(HardFoodIntent):
    """Two late orders: one credited, the other refused (under 20 minutes, or past 7 days)."""

    name = "late_credits_mixed"
    description = "Credits for two described late orders: one qualifies, the other does not."
    challenges = frozenset({"search", "mixed"})
    rules = ("late-credit-threshold", "late-credit-window")

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        pair = _pair(db, rng, _late_ok, _late_refused)
        if pair is None:
            return None
        order, other = pair
        credit = late_credit(order, user_of(db, order))
        if credit <= 0:
            return None
        first, second = (order, other) if rng.random() < 0.5 else (other, order)
        desc = _both(db, first, second)
        why = "7 days" if not in_claim_window(other) else f"{LATE_MINUTES} minutes"
        who = self.owner(db, order, rng)
        return self.task(
            domain,
            who,
            goal=f"Two of my orders came late: {desc}. I do not know their numbers. I want the "
            "late-delivery credit for each and to know the amounts. If the agent says one does "
            f"not qualify, I want to know why, and I take the other. {CONFIRM}",
            demand=f"the late-delivery credit for {describe(db, other)} as well",
            opening=rng.choice(
                (
                    "Hi, two of my recent orders were late and I want the credits.",
                    "Hello, you were late twice with my food lately.",
                    "I'd like late-delivery credits for a couple of orders.",
                    "Hey, {desc} were both late.",
                    "Good evening. Your deliveries keep arriving late.",
                )
            ).format(desc=desc),
            known={"order": desc},
            actions=[
                *gold_reads(who, *search_reads(db, order)),
                Action("issue_late_delivery_credit", {"order_id": order.order_id, "amount": credit}),
            ],
            outputs=[money_text(credit), why],
            summary=f"credit {order.order_id} {money_text(credit)}, refuse {other.order_id}",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """A late credit on the order that does not qualify."""
        credited = task.actions[-1].arguments["order_id"]
        other = next(o for o in described(domain.new_database(), task) if o.order_id != credited)
        amount = min(5.0, other.total)
        return [Action("issue_late_delivery_credit", {"order_id": other.order_id, "amount": amount})]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and both orders credited."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


def _old_claim(order: Order) -> bool:
    return order.status == DELIVERED and bool(order.delivered_at) and not in_claim_window(order)


class ItemRefundWindowMixed(HardFoodIntent):
    """Missing dishes on two orders: the recent one refunded, the one past 7 days refused."""

    name = "item_refund_window_mixed"
    description = "Dishes missing from two described orders; the older one is past the window."
    challenges = frozenset({"search", "mixed"})
    rules = ("item-refund-window",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        pair = _pair(db, rng, lambda o: _fresh(o) and len(o.items) >= 2, _old_claim)
        if pair is None or len(pair[1].items) < 2:
            return None
        order, old = pair
        line = order.items[-1]
        amount = item_refund(order, line, user_of(db, order))
        if amount <= 0:
            return None
        old_line = old.items[-1]
        desc = _both(db, order, old) if rng.random() < 0.5 else _both(db, old, order)
        who = self.owner(db, order, rng)
        return self.task(
            domain,
            who,
            goal=f"Dishes were missing from two of my orders ({desc}; I do not know their "
            f"numbers): {line_text(line)} from {describe(db, order)}, and "
            f"{line_text(old_line)} from {describe(db, old)}. I want both refunded and to know "
            "the amounts. "
            f"If the agent says one cannot be refunded, I want to know why. {CONFIRM}",
            demand=f"a refund for {line_text(old_line)} too",
            opening=rng.choice(
                (
                    "Hi, two of my orders came with dishes missing.",
                    "Hello, I've been shorted on a couple of deliveries.",
                    "I want refunds for missing food on {desc}.",
                    "Hey, stuff keeps going missing from my orders.",
                    "Good evening. Two orders, two missing dishes.",
                )
            ).format(desc=desc),
            known={"order": desc, "item": f"{line_text(line)} and {line_text(old_line)}"},
            actions=[
                *gold_reads(who, *search_reads(db, order)),
                _line_refund(order, line.item_id, amount),
            ],
            outputs=[money_text(amount), f"{CLAIM_WINDOW_DAYS} days"],
            summary=f"refund {line.name} on {order.order_id}, refuse old {old.order_id}",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The dish of the order past the window refunded too."""
        refunded = task.actions[-1].arguments["order_id"]
        old = next(o for o in described(domain.new_database(), task) if o.order_id != refunded)
        line = old.items[-1]
        return [_line_refund(old, line.item_id, min(line.line_total, old.total))]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the old order's dish refunded too."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]
