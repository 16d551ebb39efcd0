"""Hard food-delivery intents whose user describes the order among several: refund, cancel, code.

The user never gives an order id: it names the restaurant, the day and a dish, and the gold
path lists the profile's orders and opens those of that restaurant (``ORDERS``).
``SearchCancelIfPlaced`` and ``PromotionWithFallback`` make the path depend on what the records
show; ``LaterLateCredit`` brings up a second need in the middle of the conversation.
"""

from __future__ import annotations

import random

from tau_sim.domains.food_delivery.data import PLACED, PREPARING, Order, priced
from tau_sim.domains.food_delivery.factory.common import (
    ORDERS,
    HardFoodIntent,
    describe,
    dish_names,
    line_refunds,
    lines_text,
    missing_lines,
    order_from,
    pick_order,
    refund_writes,
    searchable,
    tip_sum,
    user_of,
)
from tau_sim.domains.food_delivery.rules import (
    in_claim_window,
    late_credit,
    late_tier,
    minutes_late,
    promotion_problem,
)
from tau_sim.domains.food_delivery.scenario import REASON_TEXT, sentence
from tau_sim.domains.kit.factory.claims import DisprovenClaim
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task

_REFUND_OPENINGS = {
    "missing item": (
        "Hi, something was missing from {desc}.",
        "Hello, {desc} came without everything I paid for.",
        "My food order was incomplete: {desc}. I'd like my money back for what didn't come.",
        "Hey, I'm short on {desc}. Can you sort it out?",
        "Good evening. About {desc}: not all of it made it into my bag.",
    ),
    "wrong item": (
        "Hi, I got the wrong dishes in {desc}.",
        "Hello, {desc} had something in it that I never ordered.",
        "The restaurant mixed up part of my order ({desc}) and I want a refund.",
        "Hey, part of {desc} was wrong.",
        "Good evening. In {desc}, I received food that wasn't mine.",
    ),
}


def _fresh(order: Order) -> bool:
    return in_claim_window(order) and not order.refunds


class SearchItemRefund(HardFoodIntent):
    """A missing or wrong dish of an order the user describes; the gold path finds the order."""

    name = "search_item_refund"
    challenges = frozenset({"search"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = missing_lines(db, rng, _fresh)
        if picked is None:
            return None
        order, named, lines, amounts = picked
        reason = rng.choice(("missing item", "wrong item"))
        who = self.owner(db, order, rng)
        if reason == "missing item":
            desc = describe(db, order, named, lines)
        else:  # the opening says what the goal and the refund's reason say: wrong, not missing
            desc = f"{describe(db, order, named)} ({dish_names(lines)} wrong)"
        verb = "was" if len(lines) == 1 else "were"
        wrong = "the wrong dish in" if len(lines) == 1 else "the wrong dishes in"
        what = "missing from" if reason == "missing item" else wrong
        return self.task(
            domain,
            who,
            goal=f"{sentence(lines_text(lines))} {verb} {what} {describe(db, order, named)}. "
            "I do not know the order "
            f"number. I want a refund for each and to know how much I get back. {CONFIRM}",
            opening=rng.choice(_REFUND_OPENINGS[reason]).format(desc=desc),
            known={"order": desc},
            actions=[
                *ORDERS.reads(db, who, order),
                *refund_writes(order, lines, amounts, reason),
            ],
            outputs=[money_text(a) for a in amounts],
            summary=f"{reason} x{len(lines)} on described {order.order_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refund made on another order of the customer."""
        return [
            *super().mistakes(domain, task),
            *self.wrong_order(domain, task, task.actions[-1]),
        ]


_CANCEL_OPENINGS = (
    "Hi, I'd like to cancel {desc}.",
    "Hello, I need to call off {desc}.",
    "Can you cancel the food I ordered a few minutes ago? It's {desc}.",
    "Hey, please stop {desc}, I don't want it anymore.",
    "I placed an order and I want to back out of it: {desc}.",
)


class SearchCancelIfPlaced(HardFoodIntent):
    """Cancel a described open order only while placed; once preparing, raise the tip instead."""

    name = "search_cancel_if_placed"
    challenges = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: the order is placed (cancel it) or preparing (add to the tip)."""
        status = rng.choice((PLACED, PREPARING))
        order = pick_order(db, rng, lambda o: o.status == status and searchable(db, o))
        if order is None:
            return None
        extra = float(rng.choice((2, 3, 4, 5)))
        method = user_of(db, order).payment_method(order.payment_method_id)
        if method is None or not can_pay(method, extra):
            return None
        reason = rng.choice(sorted(REASON_TEXT))
        who, desc = self.owner_and_description(db, order, rng)
        oid = order.order_id
        checks: list[Action] = []
        if status == PLACED:
            write = Action("cancel_order", {"order_id": oid, "reason": reason})
            outputs = [money_text(order.total)]
        else:
            tip = money(order.tip + extra)
            write = Action("update_tip", {"order_id": oid, "tip": tip})
            outputs = [PREPARING, money_text(tip)]
            checks = tip_sum(order, extra, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {desc} because {REASON_TEXT[reason]}; I do not know its order "
            "number. If the restaurant has not started on it, cancel it and tell me the refund. "
            "If they are already preparing it, do not cancel it (I would lose the food money): "
            f"then I keep it and want {money_text(extra)} added to the courier's tip instead, "
            f"and to know the new tip. {CONFIRM}",
            opening=rng.choice(_CANCEL_OPENINGS).format(desc=desc),
            known={"order": desc, "cancel_reason": reason, "extra_tip": money_text(extra)},
            actions=[*ORDERS.reads(db, who, order), *checks, write],
            outputs=outputs,
            summary=f"described {status} order {oid}: {write.name}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the other branch: cancelled once preparing, tipped while placed."""
        *reads, write = task.actions
        oid = write.arguments["order_id"]
        known = task.scenario.known_info
        if write.name == "cancel_order":
            order = order_from(domain.new_database(), oid)
            extra = float(known["extra_tip"].lstrip("$"))
            other = Action("update_tip", {"order_id": oid, "tip": money(order.tip + extra)})
        else:
            other = Action("cancel_order", {"order_id": oid, "reason": known["cancel_reason"]})
        return [*super().mistakes(domain, task), [*reads, other]]


_LATER_OPENINGS = (
    "Hi, {desc} came with food missing.",
    "Hello, I have a problem with one of my deliveries this week: {desc}.",
    "One of my orders arrived without everything in it: {desc}.",
    "Hey, I didn't get all my food from {desc}.",
    "Good evening, I paid for dishes that never came ({desc}).",
)


def _late(order: Order) -> bool:
    return _fresh(order) and late_tier(order) > 0


class LaterLateCredit(HardFoodIntent):
    """A missing dish refunded; then, mid-conversation, a late-delivery credit on another order."""

    name = "later_late_credit"
    challenges = frozenset({"search", "later", "long"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        count = 2
        order = pick_order(
            db, rng, lambda o: _fresh(o) and len(o.items) > count and searchable(db, o)
        )
        if order is None:
            return None
        user = user_of(db, order)
        late = [
            o
            for o in ORDERS.of(db, user.user_id)
            if o.order_id != order.order_id and _late(o) and searchable(db, o)
        ]
        if not late:
            return None
        other = rng.choice(late)
        named, *lines = rng.sample(order.items, count + 1)
        refunds = line_refunds(order, lines, user)
        credit = late_credit(other, user)
        if min(refunds) <= 0 or credit <= 0:
            return None
        who = self.owner(db, order, rng)
        desc = describe(db, order, named, lines)
        later_desc = describe(db, other)
        actions = [
            *ORDERS.reads(db, who, order),
            *refund_writes(order, lines, refunds, "missing item"),
            Action("get_order_details", {"order_id": other.order_id}),
            Action("issue_late_delivery_credit", {"order_id": other.order_id, "amount": credit}),
        ]
        verb = "was" if len(lines) == 1 else "were"
        return self.task(
            domain,
            who,
            goal=f"{sentence(lines_text(lines))} {verb} missing from "
            f"{describe(db, order, named)}; I do not know the "
            f"order number. I want a refund for each and to know the amounts. {CONFIRM}",
            opening=rng.choice(_LATER_OPENINGS).format(desc=desc),
            known={"order": desc},
            actions=actions,
            outputs=[*(money_text(r) for r in refunds), money_text(credit)],
            summary=f"refund {len(lines)} on {order.order_id}, later credit {other.order_id}",
            later=f"Oh, and while I have you: {later_desc} arrived {minutes_late(other)} minutes "
            "after the promised time. Can I get the late-delivery credit for it? I'd like to "
            "know how much it is.",
            later_at=len(actions) - 2,
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones (the later credit left out among them), the refund on another order."""
        refund = next(a for a in task.actions if a.name == "refund_order_item")
        return [*super().mistakes(domain, task), *self.wrong_order(domain, task, refund)]


_PROMO_OPENINGS = (
    "Hi, I have a promo code for the order I just placed, {desc}.",
    "Hello, can you put a discount code on {desc}?",
    "I forgot to enter my coupon on my current order: {desc}.",
    "Hey, I'd like to use a promotion code on {desc}.",
    "Good evening, I have two codes and want one of them on {desc}.",
)


class PromotionWithFallback(HardFoodIntent):
    """A code for a described placed order; if it cannot be used, a second code instead."""

    name = "promotion_with_fallback"
    challenges = frozenset({"search", "conditional"})
    rules = ("promo-expired", "promo-min-subtotal", "promo-first-order-only")

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: the first code fails a condition (mostly) or holds."""
        order = pick_order(
            db, rng, lambda o: o.status == PLACED and not o.promo_code and searchable(db, o)
        )
        if order is None:
            return None
        user = user_of(db, order)
        first = not any(record(db, "orders", o).status == "delivered" for o in user.orders)
        codes = sorted(db.keys("promotions"))
        problems = {c: promotion_problem(record(db, "promotions", c), order, first) for c in codes}
        good = [c for c in codes if not problems[c]]
        bad = [c for c in codes if problems[c]]
        if not good or not bad:
            return None
        fails = rng.random() < 0.75
        primary = rng.choice(bad if fails else good)
        fallback = rng.choice([c for c in good if c != primary] or bad)
        applied = fallback if fails else primary
        new = priced(order, order.items, record(db, "promotions", applied))
        who, desc = self.owner_and_description(db, order, rng)
        oid = order.order_id
        reads = [Action("get_promotion_details", {"code": primary})]
        outputs = [money_text(new.total)]
        if fails:
            reads.append(Action("get_promotion_details", {"code": fallback}))
            why = problems[primary]
            promo = record(db, "promotions", primary)
            outputs.insert(
                0,
                {
                    "expired": promo.expires,
                    "minimum subtotal": money_text(promo.min_subtotal),
                    "first order only": "first order",
                }[why],
            )
        return self.task(
            domain,
            who,
            goal=f"I want the promotion code {primary} applied to {desc} (I just placed it and do "
            f"not know its number). If {primary} cannot be used, I want to know why, and then "
            f"I want my other code {fallback} applied instead. I want to know the new total. "
            f"{CONFIRM}",
            opening=rng.choice(_PROMO_OPENINGS).format(desc=desc),
            known={"order": desc, "promo_code": primary, "fallback_code": fallback},
            actions=[
                *ORDERS.reads(db, who, order),
                *reads,
                Action("apply_promotion", {"order_id": oid, "code": applied}),
            ],
            outputs=outputs,
            summary=f"{primary} on described {oid}: {'fails, ' + fallback if fails else 'holds'}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the other code applied (the failing one, or the fallback)."""
        known = task.scenario.known_info
        code = task.actions[-1].arguments["code"]
        other = known["fallback_code"] if code == known["promo_code"] else known["promo_code"]
        return [*super().mistakes(domain, task), self.last_write_changed(domain, task, code=other)]


class NotTheirOrderDisproven(DisprovenClaim, HardFoodIntent):
    """An order the user says is theirs, that is on another customer's profile: no help with it."""

    name = "not_their_order_disproven"
    challenges = frozenset({"disproven"})
    rules = ("other-customer-order",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: the order is still cancellable, the caller lives in the same city."""
        order = pick_order(db, rng, lambda o: o.status in (PLACED, PREPARING))
        if order is None:
            return None
        owner = user_of(db, order)
        neighbours = [
            u
            for _, u in sorted(db.items("users"))
            if u.user_id != owner.user_id and u.address.city == owner.address.city
        ]
        if not neighbours:
            return None
        caller = rng.choice(neighbours)
        who = self.identity(db, caller.user_id, rng)
        oid = order.order_id
        reason = rng.choice(sorted(REASON_TEXT))
        task = self.task(
            domain,
            who,
            goal=f"I want order {oid} cancelled because {REASON_TEXT[reason]}. It is my order, I "
            "am sure: the app must have filed it under the wrong name. If the agent says it "
            "cannot help with that order, I accept it in the end.",
            demand=f"order {oid} cancelled",
            opening=rng.choice(
                (
                    f"Hi, please cancel my order {oid}.",
                    f"Hello, order {oid} is mine, I need it cancelled.",
                    f"I placed order {oid} and I want to cancel it.",
                    f"Hey, cancel {oid} for me, it's under my name somewhere.",
                    f"Good evening. I want to call off order {oid}.",
                )
            ),
            known={"order_id": oid, "cancel_reason": reason},
            actions=list(who.actions),
            outputs=["cannot help"],
            summary=f"{caller.user_id} claims {owner.user_id}'s order {oid}: refuse",
        )
        # the other customer's order cancelled as the caller asks
        return refusing(task, Action("cancel_order", {"order_id": oid, "reason": reason}))
