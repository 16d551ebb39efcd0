"""Food-delivery intents about an order on its way: where it is, a bigger tip."""

from __future__ import annotations

import random

from tau_sim.domains.food_delivery.data import OUT_FOR_DELIVERY, PREPARING, clock
from tau_sim.domains.food_delivery.factory.common import (
    FoodIntent,
    pick_order,
    restaurant_of,
    user_of,
)
from tau_sim.domains.food_delivery.scenario import gold_reads, order_read, restaurant_read
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.payments import can_pay, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


class OrderStatusInquiry(FoodIntent):
    """Where is my food: the order's status and the promised delivery time."""

    name = "order_status_inquiry"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status in (PREPARING, OUT_FOR_DELIVERY))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        wonders = rng.random() < 0.5
        asks = ", and which restaurant is making it (I forgot)" if wonders else ""
        menu = [restaurant_read(restaurant.restaurant_id)] if wonders else []
        extra = [restaurant.name] if wonders else []
        return self.task(
            domain,
            who,
            goal=f"I want to know the status of my order {oid} and by what time it should "
            f"arrive{asks}. I do not want to change anything.",
            opening=one_of(
                rng,
                f"Hi, where is my order {oid}?",
                "Where is my food?!",
                f"Hello, when will order {oid} get here?",
                "Can you check on my dinner? It's been a while.",
                f"Hey, any update on {oid}?",
            ),
            known={"order_id": oid},
            actions=gold_reads(who, order_read(oid), *menu),
            outputs=[order.status, clock(order.promised_by), *extra],
            summary=f"status of {oid} ({order.status}, by {clock(order.promised_by)})",
        )


class RaiseTip(FoodIntent):
    """Add to the courier's tip of an order on its way; the user learns the new total."""

    name = "raise_tip"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == OUT_FOR_DELIVERY and o.tip > 0)
        if order is None:
            return None
        extra = float(rng.choice((2, 3, 4, 5)))
        tip = money(order.tip + extra)
        new_total = money(order.total + extra)
        method = user_of(db, order).payment_method(order.payment_method_id)
        if method is None or not can_pay(method, extra):
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        return self.task(
            domain,
            who,
            goal=f"My courier for order {oid} has been great and I want to add {money_text(extra)} "
            "on top of the tip I already gave. I want to know the new tip and the new total. "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to give my courier a bigger tip on order {oid}.",
                f"Hello, can I add to the tip on {oid}?",
                "My driver is being super helpful, I want to tip more.",
                f"Hey, bump up the tip for order {oid} please.",
            ),
            known={"order_id": oid, "extra_tip": money_text(extra)},
            actions=[
                *gold_reads(who, order_read(oid)),
                *(
                    [Action("calculate", {"expression": f"{order.tip:.2f} + {extra:.2f}"})]
                    if rng.random() < 0.5
                    else []
                ),
                Action("update_tip", {"order_id": oid, "tip": tip}),
            ],
            outputs=[money_text(tip), money_text(new_total)],
            summary=f"tip of {oid} {money_text(order.tip)} -> {money_text(tip)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the tip set to the extra amount instead of the sum."""
        extra = float(task.scenario.known_info["extra_tip"].lstrip("$"))
        return [*super().mistakes(domain, task), self.last_write_changed(domain, task, tip=extra)]
