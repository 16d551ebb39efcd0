"""Food-delivery intents that change an order before pickup: cancel, address, dishes."""

from __future__ import annotations

import random

from tau_sim.domains.food_delivery.data import (
    PLACED,
    PREPARING,
    MenuItem,
    Order,
    OrderItem,
    Promotion,
    Restaurant,
    priced,
)
from tau_sim.domains.food_delivery.factory.common import (
    FoodIntent,
    order_from,
    pick_order,
    restaurant_of,
    user_of,
)
from tau_sim.domains.food_delivery.scenario import (
    REASON_TEXT,
    dish_text,
    gold_reads,
    line_text,
    order_read,
    order_text,
    restaurant_read,
)
from tau_sim.domains.kit.factory.base import OtherChoice, one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


def promo_of(db: Database, order: Order) -> Promotion | None:
    """The promotion applied to ``order``, or None."""
    promo: Promotion | None = (
        record(db, "promotions", order.promo_code) if order.promo_code else None
    )
    return promo


# ---- changes before preparation ---------------------------------------------------------------


def fee_sum(order: Order) -> list[Action]:
    """The ``calculate`` of a preparing order's refund (fees and tip); none when placed."""
    if order.status != PREPARING:
        return []
    parts = (order.delivery_fee, order.service_fee, order.tip)
    return [Action("calculate", {"expression": " + ".join(f"{p:.2f}" for p in parts)})]


class CancelOrder(OtherChoice, FoodIntent):
    """Cancel an order before pickup: full refund when placed, fees and tip once preparing."""

    name = "cancel_order"
    choice, choices = "reason", tuple(sorted(REASON_TEXT))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        status = PLACED if rng.random() < 0.5 else PREPARING
        order = pick_order(db, rng, lambda o: o.status == status)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        reason = rng.choice(self.choices)
        refund = order.total
        if status == PREPARING:
            refund = money(order.delivery_fee + order.service_fee + order.tip)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {order_text(oid, restaurant)} because "
            f"{REASON_TEXT[reason]}. I want to know how much money I get back. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I need to cancel my order {oid}.",
                f"Hello, please cancel my food order from {restaurant.name}.",
                f"I don't want order {oid} anymore, can you call it off?",
                f"Hey, scrap my {restaurant.name} order please.",
                "Good evening, I'd like to cancel an order I just placed.",
            ),
            known={"order_id": oid, "cancel_reason": reason},
            actions=[
                *gold_reads(who, order_read(oid)),
                *fee_sum(order),
                Action("cancel_order", {"order_id": oid, "reason": reason}),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {status} order {oid}, refund {money_text(refund)}",
        )


class ModifyOrderAddress(FoodIntent):
    """Deliver a placed order to another address."""

    name = "modify_order_address"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PLACED)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        address = random_address(rng)
        oid = order.order_id
        writes = [Action("modify_order_address", {"order_id": oid, **address_args(address)})]
        if rng.random() < 0.5:
            user_id = who.actions[-1].arguments["user_id"]
            writes.append(
                Action("modify_user_address", {"user_id": user_id, **address_args(address)})
            )
            scope = "I have just moved there, so I want it as my default address too."
        else:
            scope = "Only this order should change, not my default address."
        return self.task(
            domain,
            who,
            goal=f"My order {oid} should be delivered to a different address. {scope} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, can you send my order {oid} to a different address?",
                f"Hello, order {oid} needs to go somewhere else.",
                "I gave the wrong address on the order I just placed.",
                f"Hey, my food ({oid}) should be delivered elsewhere.",
            ),
            known={"order_id": oid, "new_address": address_text(address)},
            actions=[*gold_reads(who, order_read(oid)), *writes],
            summary=f"deliver placed order {oid} elsewhere",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the default address changed instead of the order's."""
        write = next(a for a in task.actions if a.name == "modify_order_address")
        reads = [
            a for a in task.actions if a.name not in ("modify_order_address", "modify_user_address")
        ]
        args = {k: v for k, v in write.arguments.items() if k != "order_id"}
        instead = Action("modify_user_address", {"user_id": self.profile_user(task), **args})
        return [*super().mistakes(domain, task), [*reads, instead]]


def _addable(order: Order, restaurant: Restaurant) -> list[MenuItem]:
    have = {i.item_id for i in order.items}
    return [m for m in restaurant.menu if m.available and m.item_id not in have]


class AddOrderItem(FoodIntent):
    """Add a dish to a placed order; the user learns the new total."""

    name = "add_order_item"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PLACED)
        if order is None:
            return None
        restaurant = restaurant_of(db, order)
        dishes = _addable(order, restaurant)
        if not dishes:
            return None
        picked = rng.sample(dishes, min(len(dishes), 1 if rng.random() < 0.65 else 2))
        lines = []
        for dish in picked:
            quantity = 1 if rng.random() < 0.7 else 2
            option = rng.choice(dish.options) if dish.options else ""
            lines.append(OrderItem(dish.item_id, dish.name, quantity, dish.price, option))
        new = priced(order, (*order.items, *lines), promo_of(db, order))
        who = self.owner(db, order, rng)
        oid = order.order_id
        wanted = " and ".join(
            dish_text(d, line.quantity, line.option) for d, line in zip(picked, lines, strict=True)
        )
        adds = [
            Action(
                "add_order_item",
                {
                    "order_id": oid,
                    "item_id": line.item_id,
                    "quantity": line.quantity,
                    "option": line.option,
                },
            )
            for line in lines
        ]
        return self.task(
            domain,
            who,
            goal=f"I forgot something in {order_text(oid, restaurant)}: I want to add "
            f"{wanted}. I want to know the new total of the order. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, can I still add something to my order {oid}?",
                f"Hello, I forgot to add a dish to my {restaurant.name} order.",
                f"I'd like to put more food on order {oid}.",
                "Hey, is it too late to add to the order I just placed?",
                f"Good evening, my {restaurant.name} order is missing something I wanted.",
            ),
            known={"order_id": oid, "new_item": wanted},
            actions=[
                *gold_reads(who, order_read(oid), restaurant_read(restaurant.restaurant_id)),
                *adds,
            ],
            outputs=[money_text(new.total)],
            summary=f"add {len(lines)} dish(es) to {oid}, total {money_text(new.total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the dish added in another quantity."""
        quantity = task.actions[-1].arguments["quantity"]
        other = 3 - quantity if quantity < 3 else 1
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, quantity=other),
        ]


class RemoveOrderItem(FoodIntent):
    """Remove a line from a placed order; the user learns the new total."""

    name = "remove_order_item"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PLACED and len(o.items) >= 2)
        if order is None:
            return None
        count = 2 if len(order.items) >= 3 and rng.random() < 0.6 else 1
        lines = rng.sample(order.items, count)
        rest = tuple(i for i in order.items if i not in lines)
        new = priced(order, rest, promo_of(db, order))
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        named = " and ".join(line_text(line) for line in lines)
        return self.task(
            domain,
            who,
            goal=f"I want {named} removed from {order_text(oid, restaurant)}; the rest "
            f"stays. I want to know the new total of the order. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to take something off my order {oid}.",
                f"Hello, I ordered too much on {oid}.",
                f"Can you remove a dish from my {restaurant.name} order?",
                "Hey, I need to drop something from the order I just placed.",
            ),
            known={"order_id": oid, "item": named},
            actions=[
                *gold_reads(who, order_read(oid)),
                *(
                    Action("remove_order_item", {"order_id": oid, "item_id": line.item_id})
                    for line in lines
                ),
            ],
            outputs=[money_text(new.total)],
            summary=f"remove {count} from {oid}, total {money_text(new.total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another line removed."""
        removes = [a for a in task.actions if a.name == "remove_order_item"]
        order = order_from(domain.new_database(), removes[0].arguments["order_id"])
        gone = {a.arguments["item_id"] for a in removes}
        other = next(i for i in order.items if i.item_id not in gone)
        wrong = self.last_write_changed(domain, task, item_id=other.item_id)
        return [*super().mistakes(domain, task), wrong]


class ModifyPreparingRefused(Refuses, FoodIntent):
    """Change an order the restaurant is already preparing: the policy forbids it, refuse."""

    rules = ("no-change-once-preparing",)
    name = "modify_preparing_refused"
    forbidden = True
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: a new address (half the tasks) or one more dish."""
        order = pick_order(db, rng, lambda o: o.status == PREPARING)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        if rng.random() < 0.5:
            moved = random_address(rng)
            address = address_text(moved)
            wish = "delivered to another address"
            known = {"order_id": oid, "new_address": address}
            change = Action("modify_order_address", {"order_id": oid, **address_args(moved)})
            opening = one_of(
                rng,
                f"Hi, I need to change the delivery address of my order {oid}, quickly!",
                f"Hello, order {oid} has to go to another address.",
                f"Please redirect my {restaurant.name} order, I'm not at home.",
            )
        else:
            payable = _payable_dish(db, order, rng)
            if payable is None:
                return None
            dish, option = payable
            wanted = dish_text(dish, 1, option)
            wish = f"to also include {wanted}"
            known = {"order_id": oid, "new_item": wanted}
            added = {"order_id": oid, "item_id": dish.item_id, "quantity": 1, "option": option}
            change = Action("add_order_item", added)
            opening = one_of(
                rng,
                f"Hi, I want to add something to my order {oid}.",
                f"Hello, can you put one more dish on my {restaurant.name} order?",
                f"I forgot a dish on order {oid}, add it please.",
            )
        task = self.task(
            domain,
            who,
            goal=f"I want {order_text(oid, restaurant)} {wish}. I do not want to cancel it. If "
            "the agent says it cannot be changed, I want to know why, and then I keep the order "
            "as it is.",
            demand=f"{order_text(oid, restaurant)} {wish}",
            opening=opening,
            known=known,
            actions=gold_reads(who, order_read(oid)),
            outputs=[PREPARING],
            summary=f"change preparing order {oid}: refuse",
        )
        return refusing(task, change)  # the change made (the database still takes it)


def _payable_dish(db: Database, order: Order, rng: random.Random) -> tuple[MenuItem, str] | None:
    """A dish the database would add to ``order`` (its payer covers it), and its option."""
    dishes = _addable(order, restaurant_of(db, order))
    method = user_of(db, order).payment_method(order.payment_method_id)
    if not dishes or method is None:
        return None
    dish = rng.choice(dishes)
    option = rng.choice(dish.options) if dish.options else ""
    line = OrderItem(dish.item_id, dish.name, 1, dish.price, option)
    new = priced(order, (*order.items, line), promo_of(db, order))
    if not can_pay(method, new.total - order.total):
        return None
    return dish, option
