"""Food-delivery intents about an order: cancel, modify, track, tip."""

from __future__ import annotations

import random

from tau_sim.domains.food_delivery.data import (
    OUT_FOR_DELIVERY,
    PLACED,
    PREPARING,
    MenuItem,
    Order,
    OrderItem,
    Promotion,
    Restaurant,
    clock,
    priced,
)
from tau_sim.domains.food_delivery.intents.common import (
    FoodIntent,
    address_of,
    order_from,
    pick_order,
    restaurant_of,
    user_of,
)
from tau_sim.domains.food_delivery.scenario import (
    CONFIRM,
    REASON_TEXT,
    dish_text,
    gold_reads,
    line_text,
    order_read,
    order_text,
    restaurant_read,
)
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.simulator.world import Action, Database, Domain, Task


def promo_of(db: Database, order: Order) -> Promotion | None:
    """The promotion applied to ``order``, or None."""
    promo: Promotion | None = (
        record(db, "promotions", order.promo_code) if order.promo_code else None
    )
    return promo


# ---- changes before preparation ---------------------------------------------------------------


class CancelOrder(FoodIntent):
    """Cancel an order before pickup: full refund when placed, fees and tip once preparing."""

    name = "cancel_order"
    description = "The user cancels an order not yet picked up and learns the refund amount."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        status = PLACED if rng.random() < 0.6 else PREPARING
        order = pick_order(db, rng, lambda o: o.status == status)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        reason = rng.choice(sorted(REASON_TEXT))
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
            opening=rng.choice(
                [
                    f"Hi, I need to cancel my order {oid}.",
                    f"Hello, please cancel my food order from {restaurant.name}.",
                ]
            ),
            known={"order_id": oid, "cancel_reason": reason},
            actions=[
                *gold_reads(who, order_read(oid)),
                Action("cancel_order", {"order_id": oid, "reason": reason}),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {status} order {oid}, refund {money_text(refund)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the order cancelled for another reason."""
        reason = task.actions[-1].arguments["reason"]
        other = next(r for r in sorted(REASON_TEXT) if r != reason)
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, reason=other),
        ]


class ModifyOrderAddress(FoodIntent):
    """Deliver a placed order to another address."""

    name = "modify_order_address"
    description = "The user changes the delivery address of an order not started yet."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PLACED)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        address = random_address(rng)
        oid = order.order_id
        write = Action("modify_order_address", {"order_id": oid, **address_args(address)})
        return self.task(
            domain,
            who,
            goal=f"My order {oid} should be delivered to a different address (I am at a friend's "
            f"place). Only this order should change, not my default address. {CONFIRM}",
            opening=f"Hi, can you send my order {oid} to a different address?",
            known={"order_id": oid, "new_address": address_text(address)},
            actions=[*gold_reads(who, order_read(oid)), write],
            summary=f"deliver placed order {oid} elsewhere",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the default address changed instead of the order's."""
        *reads, write = task.actions
        args = {k: v for k, v in write.arguments.items() if k != "order_id"}
        instead = Action("modify_user_address", {"user_id": self.profile_user(task), **args})
        return [*super().mistakes(domain, task), [*reads, instead]]


def _addable(order: Order, restaurant: Restaurant) -> list[MenuItem]:
    have = {i.item_id for i in order.items}
    return [m for m in restaurant.menu if m.available and m.item_id not in have]


class AddOrderItem(FoodIntent):
    """Add a dish to a placed order; the user learns the new total."""

    name = "add_order_item"
    description = "The user adds a dish to an order the restaurant has not started; new total."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PLACED)
        if order is None:
            return None
        restaurant = restaurant_of(db, order)
        dishes = _addable(order, restaurant)
        if not dishes:
            return None
        dish = rng.choice(dishes)
        quantity = 1 if rng.random() < 0.7 else 2
        option = rng.choice(dish.options) if dish.options else ""
        line = OrderItem(dish.item_id, dish.name, quantity, dish.price, option)
        new = priced(order, (*order.items, line), promo_of(db, order))
        who = self.owner(db, order, rng)
        oid = order.order_id
        args = {"order_id": oid, "item_id": dish.item_id, "quantity": quantity, "option": option}
        return self.task(
            domain,
            who,
            goal=f"I forgot something in {order_text(oid, restaurant)}: I want to add "
            f"{dish_text(dish, quantity, option)}. I want to know the new total of the order. "
            f"{CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, can I still add something to my order {oid}?",
                    f"Hello, I forgot to add a dish to my {restaurant.name} order.",
                ]
            ),
            known={"order_id": oid, "new_item": dish_text(dish, quantity, option)},
            actions=[
                *gold_reads(who, order_read(oid), restaurant_read(restaurant.restaurant_id)),
                Action("add_order_item", args),
            ],
            outputs=[money_text(new.total)],
            summary=f"add {dish.name} x{quantity} to {oid}, total {money_text(new.total)}",
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
    description = "The user removes a dish from an order the restaurant has not started."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PLACED and len(o.items) >= 2)
        if order is None:
            return None
        line = rng.choice(order.items)
        rest = tuple(i for i in order.items if i is not line)
        new = priced(order, rest, promo_of(db, order))
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        return self.task(
            domain,
            who,
            goal=f"I want {line_text(line)} removed from {order_text(oid, restaurant)}; the rest "
            f"stays. I want to know the new total of the order. {CONFIRM}",
            opening=f"Hi, I'd like to take something off my order {oid}.",
            known={"order_id": oid, "item": line_text(line)},
            actions=[
                *gold_reads(who, order_read(oid)),
                Action("remove_order_item", {"order_id": oid, "item_id": line.item_id}),
            ],
            outputs=[money_text(new.total)],
            summary=f"remove {line.name} from {oid}, total {money_text(new.total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another line removed."""
        remove = task.actions[-1]
        order = order_from(domain.new_database(), remove.arguments["order_id"])
        other = next(i for i in order.items if i.item_id != remove.arguments["item_id"])
        wrong = self.last_write_changed(domain, task, item_id=other.item_id)
        return [*super().mistakes(domain, task), wrong]


class ModifyPreparingRefused(FoodIntent):
    """Change an order the restaurant is already preparing: the policy forbids it, refuse."""

    name = "modify_preparing_refused"
    description = "The user wants to change an order already being prepared; the agent refuses."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: a new address (half the tasks) or one more dish."""
        order = pick_order(db, rng, lambda o: o.status == PREPARING)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        if rng.random() < 0.5:
            address = address_text(random_address(rng))
            wish = "delivered to another address"
            known = {"order_id": oid, "new_address": address}
            opening = f"Hi, I need to change the delivery address of my order {oid}, quickly!"
        else:
            dish = _payable_dish(db, order, rng)
            if dish is None:
                return None
            wish = f"to also include {dish}"
            known = {"order_id": oid, "new_item": dish}
            opening = f"Hi, I want to add something to my order {oid}."
        return self.task(
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

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The change made to the order being prepared (the database still takes it)."""
        known = task.scenario.known_info
        oid = known["order_id"]
        if "new_address" in known:
            change = Action(
                "modify_order_address", {"order_id": oid, **address_of(known["new_address"])}
            )
        else:
            db = domain.new_database()
            menu = restaurant_of(db, order_from(db, oid)).menu
            quantity, name, option = _dish_of(known["new_item"])
            dish = next(m for m in menu if m.name == name)
            args = {
                "order_id": oid,
                "item_id": dish.item_id,
                "quantity": quantity,
                "option": option,
            }
            change = Action("add_order_item", args)
        return [change]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the change made anyway (the database still takes it)."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


def _payable_dish(db: Database, order: Order, rng: random.Random) -> str | None:
    """A dish the database would add to ``order`` (its payer covers it), as the user says it."""
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
    return dish_text(dish, 1, option)


def _dish_of(text: str) -> tuple[int, str, str]:
    """Quantity, name and option of a ``dish_text`` ("2 Garlic Naan", "1 Green Curry, hot")."""
    quantity, _, rest = text.partition(" ")
    name, _, option = rest.partition(", ")
    return int(quantity), name, option


class OrderStatusInquiry(FoodIntent):
    """Where is my food: the order's status and the promised delivery time."""

    name = "order_status_inquiry"
    description = "The user asks for an order's status and promised time (information only)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status in (PREPARING, OUT_FOR_DELIVERY))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        return self.task(
            domain,
            who,
            goal=f"I want to know the status of my order {oid} and by what time it should "
            "arrive. I do not want to change anything.",
            opening=rng.choice([f"Hi, where is my order {oid}?", "Where is my food?!"]),
            known={"order_id": oid},
            actions=gold_reads(who, order_read(oid)),
            outputs=[order.status, clock(order.promised_by)],
            summary=f"status of {oid} ({order.status}, by {clock(order.promised_by)})",
        )


class RaiseTip(FoodIntent):
    """Add to the courier's tip of an order on its way; the user learns the new total."""

    name = "raise_tip"
    description = "The user adds to the tip of an order on its way; the new tip and total."

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
            opening=f"Hi, I'd like to give my courier a bigger tip on order {oid}.",
            known={"order_id": oid, "extra_tip": money_text(extra)},
            actions=[
                *gold_reads(who, order_read(oid)),
                Action("update_tip", {"order_id": oid, "tip": tip}),
            ],
            outputs=[money_text(tip), money_text(new_total)],
            summary=f"tip of {oid} {money_text(order.tip)} -> {money_text(tip)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the tip set to the extra amount instead of the sum."""
        extra = float(task.scenario.known_info["extra_tip"].lstrip("$"))
        return [*super().mistakes(domain, task), self.last_write_changed(domain, task, tip=extra)]
