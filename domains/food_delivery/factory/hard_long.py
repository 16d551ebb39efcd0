"""Hard food-delivery intents with three to five writes on orders the user describes.

``LateOrdersRemedies`` refunds missing dishes and credits the lateness of two orders;
``OrderOverhaul`` changes a placed order in several ways (dishes out and in, address, code).
"""

from __future__ import annotations

import random

import msgspec

from tau_sim.domains.food_delivery.data import PLACED, Order, Restaurant
from tau_sim.domains.food_delivery.factory.common import (
    ORDERS,
    HardFoodIntent,
    describe,
    describe_missing,
    pick_order,
    refund_writes,
    restaurant_of,
    searchable,
    siblings,
    user_of,
)
from tau_sim.domains.food_delivery.factory.refunds import fresh_claim
from tau_sim.domains.food_delivery.rules import (
    ITEM_REFUND_MONTHLY_CAP,
    LATE_CREDIT_MONTHLY_CAP,
    item_refund,
    late_tier,
    promotion_problem,
)
from tau_sim.domains.food_delivery.scenario import dish_text, line_text, restaurant_read, sentence
from tau_sim.domains.kit.factory.chains import Chain, changed, left_out
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM, replaced, replay_actions, sum_action
from tau_sim.simulator.world import Action, Database, Domain, Task


def _late_fresh(order: Order) -> bool:
    return fresh_claim(order) and late_tier(order) > 0


class LateOrdersRemedies(Chain, HardFoodIntent):
    """Two late orders with dishes missing: each dish refunded, each delay credited (3-4 writes)."""

    name = "late_orders_remedies"
    challenges = frozenset({"search", "long"})
    slips = (left_out("issue_late_delivery_credit", -1),)

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
        if len(other.items) >= 2 and rng.random() < 0.5:
            pairs.append((other, other.items[-1]))
        refunds = [item_refund(o, line, user) for o, line in pairs]
        credits = [late_tier(order), late_tier(other)]
        if (
            min(refunds) <= 0
            or sum(line.line_total for _, line in pairs)
            > ITEM_REFUND_MONTHLY_CAP - user.item_refunds_this_month
            or sum(credits) > LATE_CREDIT_MONTHLY_CAP - user.late_credits_this_month
        ):
            return None
        writes = [
            w
            for (o, line), amount in zip(pairs, refunds, strict=True)
            for w in refund_writes(o, [line], [amount], "missing item")
        ]
        writes.insert(
            1,
            Action(
                "issue_late_delivery_credit", {"order_id": order.order_id, "amount": credits[0]}
            ),
        )
        writes.append(
            Action("issue_late_delivery_credit", {"order_id": other.order_id, "amount": credits[1]})
        )
        total = money(sum(refunds) + sum(credits))
        gone = {o.order_id: [line] for o, line in pairs}
        desc = ", and ".join(
            describe_missing(db, o, gone.get(o.order_id, [])) for o in (order, other)
        )
        missing = " and ".join(f"{line_text(line)} from {describe(db, o)}" for o, line in pairs)
        who = self.owner(db, order, rng)
        return self.task(
            domain,
            who,
            goal=f"Two of my orders this week came late: {desc}. I do not know their numbers. "
            f"Dishes were missing too: {missing}. I want every refund and late-delivery credit "
            f"I am owed, each amount, and how much I get back in all. {CONFIRM}",
            opening=rng.choice(
                (
                    "Hi, I've had two bad deliveries this week, late and incomplete: {desc}.",
                    "Hello, my last couple of orders were a mess ({desc}).",
                    "I want to sort out two late orders with missing food: {desc}.",
                    "Hey, {desc} were both late and missing stuff.",
                    "Good evening. Two of my orders need fixing: {desc}.",
                )
            ).format(desc=desc),
            known={"order": desc},
            actions=[
                *ORDERS.reads(db, who, order, other),
                *writes,
                *sum_action([*refunds, *credits]),
            ],
            outputs=[*(money_text(a) for a in [*refunds, *credits]), money_text(total)],
            summary=f"{order.order_id} + {other.order_id}: {len(writes)} remedies, {total}",
        )


def _dishes(rng: random.Random, order: Order, restaurant: Restaurant) -> list[tuple[str, int, str]]:
    """One or two available dishes not in ``order``: (item id, quantity, option)."""
    have = {i.item_id for i in order.items}
    menu = [m for m in restaurant.menu if m.available and m.item_id not in have]
    picked = rng.sample(menu, min(len(menu), rng.choice((1, 1, 2))))
    return [
        (m.item_id, rng.choice((1, 1, 2)), rng.choice(m.options) if m.options else "")
        for m in picked
    ]


def _codes(domain: Domain, db: Database, order: Order, writes: list[Action]) -> list[str] | None:
    """The promotion codes that apply to ``order`` once ``writes`` change it (None: refused)."""
    changed = replay_actions(domain, domain.new_database(), writes)
    if changed is None:
        return None
    after: Order = msgspec.convert(changed[-1], Order)
    first = not any(
        record(db, "orders", o).status == "delivered" for o in user_of(db, order).orders
    )
    return [
        c
        for c in sorted(db.keys("promotions"))
        if not promotion_problem(record(db, "promotions", c), after, first)
    ]


class OrderOverhaul(Chain, HardFoodIntent):
    """A placed order changed in several ways: a dish out, dishes in, address, code (3-5 writes)."""

    name = "order_overhaul"
    challenges = frozenset({"search", "long"})
    slips = (
        changed("add_order_item", lambda a: replaced(a, quantity=3 - a.arguments["quantity"])),
    )

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
            writes.append(
                Action("remove_order_item", {"order_id": oid, "item_id": removed.item_id})
            )
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
            writes.append(
                Action("modify_order_address", {"order_id": oid, **address_args(address)})
            )
            known["new_address"] = address_text(address)
        codes = _codes(domain, db, order, writes)
        if codes is None:
            return None
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
        desc = describe(db, order, removed or rng.choice(order.items))
        wishes = [
            *([f"take {line_text(removed)} off"] if removed else []),
            f"add {known['new_item']}",
            *(
                ["have it delivered to a friend's address instead"]
                if "new_address" in known
                else []
            ),
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
                    "Hi, I need to make a few changes to the order I just placed, {desc}.",
                    "Hello, can you rework {desc} for me?",
                    "I want to change several things on my current order: {desc}.",
                    "Hey, a bunch of edits to {desc}, please.",
                    "Good evening, {desc} needs some changes before they start cooking.",
                )
            ).format(desc=desc),
            known={"order": desc, **known},
            actions=[*ORDERS.reads(db, who, order), *reads, *writes],
            outputs=[money_text(total)],
            summary=f"overhaul {oid}: {len(writes)} writes, total {money_text(total)}",
        )


def _same_place(db: Database, placed: Order) -> list[tuple[Order, str]]:
    """The customer's fresh delivered orders from ``placed``'s restaurant, each with a dish id.

    The dish (a line of the delivered order) is on the menu now and not in ``placed``: what
    came missing last time and the customer wants tonight.
    """
    menu = restaurant_of(db, placed).menu
    have = {i.item_id for i in placed.items}
    found = []
    for other in siblings(db, placed):
        if other.restaurant_id != placed.restaurant_id or not fresh_claim(other):
            continue
        for line in other.items:
            dish = next((m for m in menu if m.item_id == line.item_id), None)
            if dish is not None and dish.available and line.item_id not in have:
                found.append((other, line.item_id))
                break
    return found


class MissingDishReordered(Chain, HardFoodIntent):
    """A dish missing last time, refunded, and added to tonight's order there; tip or code too."""

    name = "missing_dish_reordered"
    challenges = frozenset({"search", "long"})
    slips = (left_out("refund_order_item"),)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: 3 to 4 writes on two orders of one restaurant."""
        placed = pick_order(
            db, rng, lambda o: o.status == PLACED and not o.promo_code and bool(_same_place(db, o))
        )
        if placed is None:
            return None
        past, item_id = rng.choice(_same_place(db, placed))
        user = user_of(db, placed)
        line = next(i for i in past.items if i.item_id == item_id)
        refund = item_refund(past, line, user)
        if refund <= 0:
            return None
        restaurant = restaurant_of(db, placed)
        dish = restaurant.item(item_id)
        assert dish is not None
        quantity = rng.choice((1, 2))
        option = line.option if line.option in dish.options else ""
        if dish.options and not option:
            option = dish.options[0]
        pid = placed.order_id
        writes = [
            *refund_writes(past, [line], [refund], "missing item"),
            Action(
                "add_order_item",
                {"order_id": pid, "item_id": item_id, "quantity": quantity, "option": option},
            ),
        ]
        wishes = [f"add {dish_text(dish, quantity, option)}"]
        known: dict[str, str] = {"new_item": dish_text(dish, quantity, option)}
        extra = float(rng.choice((2, 3, 4)))
        tipping = rng.random() < 0.6
        if tipping:
            writes.append(Action("update_tip", {"order_id": pid, "tip": money(placed.tip + extra)}))
            wishes.append(f"add {money_text(extra)} to its tip")
            known["extra_tip"] = money_text(extra)
        codes = _codes(domain, db, placed, writes)
        if codes is None:
            return None
        reads = [restaurant_read(restaurant.restaurant_id)]
        if codes and (not tipping or rng.random() < 0.5):
            code = rng.choice(codes)
            reads.append(Action("get_promotion_details", {"code": code}))
            writes.append(Action("apply_promotion", {"order_id": pid, "code": code}))
            wishes.append(f"use my code {code} on it")
            known["promo_code"] = code
        if len(writes) < 3:
            return None
        results = replay_actions(domain, domain.new_database(), writes)
        if results is None:
            return None
        total = float(results[-1]["total"])
        desc = f"{describe(db, past, None, [line])}, and {describe(db, placed, placed.items[0])}"
        who = self.owner(db, placed, rng)
        return self.task(
            domain,
            who,
            goal=f"{sentence(line_text(line))} was missing from {describe(db, past)}; I want "
            f"it refunded. I have just placed another order there ({describe(db, placed)}); I "
            f"do not know the order numbers. On tonight's order I want to {'; '.join(wishes)}. "
            f"I want to know the refund and the new total of tonight's order. {CONFIRM}",
            opening=rng.choice(
                (
                    "Hi, two orders from the same place: {desc}.",
                    "Hello, they forgot a dish last time and I want it tonight: {desc}.",
                    "I need a refund on one order and changes on another ({desc}).",
                    "Hey, about {desc}: can you fix both?",
                    "Good evening. My orders, {desc}, need some sorting out.",
                )
            ).format(desc=desc),
            known={"order": desc, **known},
            actions=[
                *ORDERS.reads(db, who, placed),
                *reads,
                *writes,
            ],
            outputs=[money_text(refund), money_text(total)],
            summary=f"refund {line.name} on {past.order_id}, {len(writes) - 1} changes on {pid}",
        )
