"""Hard food-delivery intents with three to five writes on orders the user describes.

``LateOrdersRemedies`` refunds missing dishes and credits the lateness of two orders;
``OrderOverhaul`` changes a placed order in several ways (dishes out and in, address, code).
"""

from __future__ import annotations

import random

import msgspec

from tau_sim.domains.food_delivery.data import PLACED, Order, Restaurant
from tau_sim.domains.food_delivery.intents.common import (
    HardFoodIntent,
    describe,
    pick_order,
    restaurant_of,
    search_reads,
    searchable,
    siblings,
    user_of,
)
from tau_sim.domains.food_delivery.rules import (
    ITEM_REFUND_MONTHLY_CAP,
    LATE_CREDIT_MONTHLY_CAP,
    in_claim_window,
    item_refund,
    late_tier,
    promotion_problem,
)
from tau_sim.domains.food_delivery.scenario import (
    CONFIRM,
    dish_text,
    gold_reads,
    line_text,
    restaurant_read,
)
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.tasks import replay_actions, sum_action
from tau_sim.simulator.world import Action, Database, Domain, Task


def _late_fresh(order: Order) -> bool:
    return in_claim_window(order) and not order.refunds and late_tier(order) > 0


class LateOrdersRemedies(HardFoodIntent):
    """Two late orders with dishes missing: each dish refunded, each delay credited (3-4 writes)."""

    name = "late_orders_remedies"
    description = "Two described late orders, dishes missing: refunds and credits, the total."
    challenges = frozenset({"search", "long"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: dishes missing from the first order (and from the second, mostly)."""
        order = pick_order(
            db, rng, lambda o: _late_fresh(o) and len(o.items) >= 2 and searchable(db, o)
        )
        if order is None:
            return None
        user = user_of(db, order)
        others = [o for o in siblings(db, order) if _late_fresh(o) and searchable(db, o)]
        if not others:
            return None
        other = rng.choice(others)
        pairs = [(order, order.items[-1])]
        if len(other.items) >= 2 and rng.random() < 0.6:
            pairs.append((other, other.items[-1]))
        refunds = [item_refund(o, line, user) for o, line in pairs]
        credits = [late_tier(order), late_tier(other)]
        if (
            any(r < line.line_total for r, (_, line) in zip(refunds, pairs, strict=True))
            or sum(refunds) > ITEM_REFUND_MONTHLY_CAP - user.item_refunds_this_month
            or sum(credits) > LATE_CREDIT_MONTHLY_CAP - user.late_credits_this_month
        ):
            return None
        writes = [
            Action(
                "refund_order_item",
                {"order_id": o.order_id, "item_id": line.item_id, "reason": "missing item",
                 "amount": amount},
            )
            for (o, line), amount in zip(pairs, refunds, strict=True)
        ]
        writes.insert(1, Action("issue_late_delivery_credit", {"order_id": order.order_id,
                                                               "amount": credits[0]}))
        writes.append(Action("issue_late_delivery_credit", {"order_id": other.order_id,
                                                            "amount": credits[1]}))
        total = money(sum(refunds) + sum(credits))
        desc = f"{describe(db, order, order.items[0])}, and {describe(db, other, other.items[0])}"
        missing = " and ".join(
            f"{line_text(line)} from {describe(db, o)}" for o, line in pairs
        )
        who = self.owner(db, order, rng)
        return self.task(
            domain,
            who,
            goal=f"Two of my orders this week came late: {desc}. I do not know their numbers. "
            f"Dishes were missing too: {missing}. I want every refund and late-delivery credit "
            f"I am owed, each amount, and how much I get back in all. {CONFIRM}",
            opening=rng.choice(
                (
                    "Hi, I've had two bad deliveries this week: late and incomplete.",
                    "Hello, my last couple of orders were a mess.",
                    "I want to sort out two late orders with missing food.",
                    "Hey, {desc} were both late and missing stuff.",
                    "Good evening. Two of my orders need fixing.",
                )
            ).format(desc=desc),
            known={"order": desc, "item": " and ".join(line_text(line) for _, line in pairs)},
            actions=[
                *gold_reads(who, *search_reads(db, order)),
                *writes,
                *sum_action([*refunds, *credits]),
            ],
            outputs=[*(money_text(a) for a in [*refunds, *credits]), money_text(total)],
            summary=f"{order.order_id} + {other.order_id}: {len(writes)} remedies, {total}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the second order's credit left out."""
        credits = [a for a in task.actions if a.name == "issue_late_delivery_credit"]
        return [*super().mistakes(domain, task), [a for a in task.actions if a is not credits[-1]]]


def _dishes(rng: random.Random, order: Order, restaurant: Restaurant) -> list[tuple[str, int, str]]:
    """One or two available dishes not in ``order``: (item id, quantity, option)."""
    have = {i.item_id for i in order.items}
    menu = [m for m in restaurant.menu if m.available and m.item_id not in have]
    picked = rng.sample(menu, min(len(menu), rng.choice((1, 1, 2))))
    return [
        (m.item_id, rng.choice((1, 1, 2)), rng.choice(m.options) if m.options else "")
        for m in picked
    ]


class OrderOverhaul(HardFoodIntent):
    """A placed order changed in several ways: a dish out, dishes in, address, code (3-5 writes)."""

    name = "order_overhaul"
    description = "Several changes to a described placed order, in the policy's order; new total."
    challenges = frozenset({"search", "long"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task; the final total is the replayed writes'."""
        order = pick_order(
            db, rng, lambda o: o.status == PLACED and not o.promo_code and searchable(db, o)
        )
        if order is None:
            return None
        restaurant = restaurant_of(db, order)
        oid = order.order_id
        known: dict[str, str] = {}
        writes: list[Action] = []
        removed = None
        if len(order.items) >= 2 and rng.random() < 0.7:
            removed = rng.choice(order.items)
            writes.append(Action("remove_order_item", {"order_id": oid, "item_id": removed.item_id}))
            known["item"] = line_text(removed)
        dishes = _dishes(rng, order, restaurant)
        if not dishes:
            return None
        texts = []
        for item_id, quantity, option in dishes:
            dish = restaurant.item(item_id)
            assert dish is not None
            texts.append(dish_text(dish, quantity, option))
            writes.append(
                Action(
                    "add_order_item",
                    {"order_id": oid, "item_id": item_id, "quantity": quantity, "option": option},
                )
            )
        known["new_item"] = " and ".join(texts)
        if rng.random() < 0.6:
            address = random_address(rng)
            writes.append(Action("modify_order_address", {"order_id": oid, **address_args(address)}))
            known["new_address"] = address_text(address)
        trial = domain.new_database()
        changed = replay_actions(domain, trial, writes)
        if changed is None:
            return None
        after: Order = msgspec.convert(changed[-1], Order)
        first = not any(record(db, "orders", o).status == "delivered" for o in user_of(db, order).orders)
        codes = [
            c for c in sorted(db.keys("promotions"))
            if not promotion_problem(record(db, "promotions", c), after, first)
        ]
        reads = [restaurant_read(restaurant.restaurant_id)]
        if codes and rng.random() < 0.75:
            code = rng.choice(codes)
            known["promo_code"] = code
            reads.append(Action("get_promotion_details", {"code": code}))
            writes.append(Action("apply_promotion", {"order_id": oid, "code": code}))
        if not 3 <= len(writes) <= 5:
            return None
        results = replay_actions(domain, domain.new_database(), writes)
        if results is None:
            return None
        total = float(results[-1]["total"])
        desc = describe(db, order, rng.choice([i for i in order.items if i is not removed]))
        wishes = [
            *([f"take {line_text(removed)} off"] if removed else []),
            f"add {known['new_item']}",
            *(["have it delivered to a friend's address instead"] if "new_address" in known else []),
            *([f"use my code {known['promo_code']}"] if "promo_code" in known else []),
        ]
        who = self.owner(db, order, rng)
        return self.task(
            domain,
            who,
            goal=f"I just placed {desc} and do not know its number. I want to "
            f"{'; '.join(wishes)}. I want to know the new total at the end. {CONFIRM}",
            opening=rng.choice(
                (
                    "Hi, I need to make a few changes to the order I just placed.",
                    "Hello, can you rework {desc} for me?",
                    "I want to change several things on my current order.",
                    "Hey, a bunch of edits to {desc}, please.",
                    "Good evening, my order needs some changes before they start cooking.",
                )
            ).format(desc=desc),
            known={"order": desc, **known},
            actions=[*gold_reads(who, *search_reads(db, order), *reads), *writes],
            outputs=[money_text(total)],
            summary=f"overhaul {oid}: {len(writes)} writes, total {money_text(total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the first dish added in another quantity."""
        add = next(a for a in task.actions if a.name == "add_order_item")
        wrong = Action(add.name, {**add.arguments, "quantity": 3 - add.arguments["quantity"]})
        return [*super().mistakes(domain, task), [wrong if a is add else a for a in task.actions]]
