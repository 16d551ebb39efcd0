"""Food-delivery intents that apply a promotion code to an order, or refuse it."""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.food_delivery.data import DELIVERED, PLACED, Order, Promotion, User, priced
from tau_sim.domains.food_delivery.factory.common import (
    FoodIntent,
    order_ref,
    pick_order,
    user_of,
)
from tau_sim.domains.food_delivery.rules import promotion_problem
from tau_sim.domains.kit.factory.base import OtherChoice, one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


def first_order(db: Database, user: User) -> bool:
    """Whether the customer has no delivered order yet (promotions for a first order)."""
    return all(record(db, "orders", o).status != DELIVERED for o in user.orders)


def _promo_task(
    db: Database, rng: random.Random, want: Callable[[str], bool]
) -> tuple[Order, Promotion, str] | None:
    """A placed order without a promotion and a code whose check result ``want`` likes."""
    order = pick_order(db, rng, lambda o: o.status == PLACED and not o.promo_code)
    if order is None:
        return None
    first = first_order(db, user_of(db, order))
    promos: list[Promotion] = [record(db, "promotions", c) for c in sorted(db.keys("promotions"))]
    fits = [(p, promotion_problem(p, order, first)) for p in promos]
    chosen = [(p, why) for p, why in fits if want(why)]
    if not chosen:
        return None
    promo, why = rng.choice(chosen)
    return order, promo, why


def _first_check(promo: Promotion, user_id: str) -> list[Action]:
    """For a first-order code, the read of the customer's orders (is one delivered already?)."""
    if not promo.first_order_only:
        return []
    return [Action("list_user_orders", {"user_id": user_id})]


def _saving(subtotal: float, promo: Promotion, rng: random.Random) -> list[Action]:
    """Half the time, the ``calculate`` of a percentage code's discount on the subtotal."""
    if promo.kind != "percent" or rng.random() < 0.5:
        return []
    return [Action("calculate", {"expression": f"{subtotal:.2f} * {promo.value} / 100"})]


class ApplyPromotion(OtherChoice, FoodIntent):
    """Apply a promotion code whose conditions the order meets; the user learns the new total."""

    name = "apply_promotion"
    choice, choices = "code", ("LUNCH3", "SAVE5")

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _promo_task(db, rng, lambda why: not why)
        if picked is None:
            return None
        order, promo, _ = picked
        new = priced(order, order.items, promo)
        who = self.owner(db, order, rng)
        oid = order.order_id
        ref = order_ref(db, who, order, rng)
        return self.task(
            domain,
            who,
            goal=f"I forgot to enter my promotion code {promo.code} when I placed {ref.text}. "
            f"I want it applied and to know the new total. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I forgot to use my promo code on {ref}. Can you add it?",
                "Hello, I have a discount code for {ref}.",
                "I forgot to enter my coupon on {ref}, which I just placed.",
                "Hey, can you put a code on {ref}?",
            ).format(ref=ref.text),
            known={**ref.known, "promo_code": promo.code},
            actions=[
                *ref.reads,
                Action("get_promotion_details", {"code": promo.code}),
                *_first_check(promo, who.actions[-1].arguments["user_id"]),
                *_saving(order.subtotal, promo, rng),
                Action("apply_promotion", {"order_id": oid, "code": promo.code}),
            ],
            outputs=[money_text(new.total)],
            summary=f"apply {promo.code} to {oid}, total {money_text(new.total)}",
        )


class PromotionRefused(Refuses, FoodIntent):
    """A promotion code the order does not qualify for: refuse and say which condition fails."""

    rules = ("promo-expired", "promo-min-subtotal", "promo-first-order-only")
    name = "promotion_refused"
    forbidden = True
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _promo_task(db, rng, bool)
        if picked is None:
            return None
        order, promo, why = picked
        who = self.owner(db, order, rng)
        oid = order.order_id
        ref = order_ref(db, who, order, rng)
        outputs = {
            "expired": [promo.expires],
            "minimum subtotal": [money_text(promo.min_subtotal)],
            "first order only": ["first order"],
        }[why]
        task = self.task(
            domain,
            who,
            goal=f"I want the promotion code {promo.code} applied to {ref.text}. If the agent "
            "says the code cannot be used, I want to know why; I do not want anything else "
            "changed.",
            demand=f"the promotion code {promo.code} applied to {ref.text}",
            opening=one_of(
                rng,
                f"Hi, please put the code {promo.code} on {{ref}}.",
                "Hello, my promo code won't go through on {ref}.",
                "I want to use a coupon on {ref}.",
                f"Hey, apply {promo.code} to {{ref}} please.",
            ).format(ref=ref.text),
            known={**ref.known, "promo_code": promo.code},
            actions=[
                *ref.reads,
                Action("get_promotion_details", {"code": promo.code}),
                *(
                    _first_check(promo, who.actions[-1].arguments["user_id"])
                    if why == "first order only"
                    else []
                ),
            ],
            outputs=outputs,
            summary=f"{promo.code} on {oid}: {why}, refuse",
        )
        # the refused code applied as the user asks (the database takes it)
        return refusing(task, Action("apply_promotion", {"order_id": oid, "code": promo.code}))
