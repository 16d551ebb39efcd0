"""Food-delivery task intents: templates that sample the base database and produce tasks."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from tau_sim.domains.food_delivery.data import (
    DELIVERED,
    OUT_FOR_DELIVERY,
    PLACED,
    PREPARING,
    MenuItem,
    Order,
    OrderItem,
    Promotion,
    Restaurant,
    User,
    clock,
    priced,
)
from tau_sim.domains.food_delivery.rules import (
    LATE_MINUTES,
    in_claim_window,
    item_refund,
    late_credit,
    late_tier,
    minutes_late,
    promotion_problem,
)
from tau_sim.domains.food_delivery.scenario import (
    CONFIRM,
    ELSEWHERE,
    REASON_TEXT,
    UNKNOWN_IDS,
    dish_text,
    gold_reads,
    line_text,
    order_read,
    order_text,
    restaurant_read,
)
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import can_pay, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task


class FoodIntent(CustomerIntent):
    """A food-delivery customer: email (60%) or name + zip; never knows item or restaurant ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the user's default address; the last write left out."""
        extra = Action("modify_user_address", {"user_id": self.profile_user(task), **ELSEWHERE})
        reads = [a for a in task.actions if a.name not in domain.toolkit.endings]
        return [[*reads, extra], *self.last_write_left_out(domain, task)]


# ---- sampling helpers -------------------------------------------------------------------------


pick_order = picker("orders", Order)


def restaurant_of(db: Database, order: Order) -> Restaurant:
    """The restaurant of ``order``."""
    restaurant: Restaurant = record(db, "restaurants", order.restaurant_id)
    return restaurant


def user_of(db: Database, order: Order) -> User:
    """The customer of ``order``."""
    user: User = record(db, "users", order.user_id)
    return user


def promo_of(db: Database, order: Order) -> Promotion | None:
    """The promotion applied to ``order``, or None."""
    promo: Promotion | None = (
        record(db, "promotions", order.promo_code) if order.promo_code else None
    )
    return promo


def first_order(db: Database, user: User) -> bool:
    """Whether the customer has no delivered order yet (promotions for a first order)."""
    return all(record(db, "orders", o).status != DELIVERED for o in user.orders)


def fresh_claim(order: Order) -> bool:
    """A delivered order in the claim window with nothing refunded or credited yet."""
    return in_claim_window(order) and not order.refunds


def _order_from(db: Database, order_id: str) -> Order:
    """The order ``order_id`` of a fresh database (mistakes rebuild what the task was about)."""
    order: Order = record(db, "orders", order_id)
    return order


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
        order = _order_from(domain.new_database(), remove.arguments["order_id"])
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
            opening=opening,
            known=known,
            actions=gold_reads(who, order_read(oid)),
            outputs=[PREPARING],
            summary=f"change preparing order {oid}: refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the change made anyway (the database still takes it)."""
        known = task.scenario.known_info
        oid = known["order_id"]
        if "new_address" in known:
            change = Action(
                "modify_order_address", {"order_id": oid, **_address_of(known["new_address"])}
            )
        else:
            db = domain.new_database()
            menu = restaurant_of(db, _order_from(db, oid)).menu
            quantity, name, option = _dish_of(known["new_item"])
            dish = next(m for m in menu if m.name == name)
            args = {
                "order_id": oid,
                "item_id": dish.item_id,
                "quantity": quantity,
                "option": option,
            }
            change = Action("add_order_item", args)
        return [*super().mistakes(domain, task), [*task.actions, change]]


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


def _address_of(text: str) -> dict[str, str]:
    """The tool arguments of an ``address_text`` ("line1, [line2,] city, state, zip, country")."""
    parts = text.split(", ")
    line2 = parts[1] if len(parts) == 6 else ""
    city, state, zip_code, country = parts[-4:]
    return {
        "address1": parts[0],
        "address2": line2,
        "city": city,
        "state": state,
        "country": country,
        "zip": zip_code,
    }


# ---- promotions -------------------------------------------------------------------------------


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


class ApplyPromotion(FoodIntent):
    """Apply a promotion code whose conditions the order meets; the user learns the new total."""

    name = "apply_promotion"
    description = "The user applies a valid promotion code to a placed order; new total."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _promo_task(db, rng, lambda why: not why)
        if picked is None:
            return None
        order, promo, _ = picked
        new = priced(order, order.items, promo)
        who = self.owner(db, order, rng)
        oid = order.order_id
        return self.task(
            domain,
            who,
            goal=f"I forgot to enter my promotion code {promo.code} when I placed my order {oid}. "
            f"I want it applied and to know the new total. {CONFIRM}",
            opening=f"Hi, I forgot to use my promo code on order {oid}. Can you add it?",
            known={"order_id": oid, "promo_code": promo.code},
            actions=[
                *gold_reads(who, order_read(oid)),
                Action("get_promotion_details", {"code": promo.code}),
                Action("apply_promotion", {"order_id": oid, "code": promo.code}),
            ],
            outputs=[money_text(new.total)],
            summary=f"apply {promo.code} to {oid}, total {money_text(new.total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another code applied."""
        other = "LUNCH3" if task.actions[-1].arguments["code"] != "LUNCH3" else "SAVE5"
        return [*super().mistakes(domain, task), self.last_write_changed(domain, task, code=other)]


class PromotionRefused(FoodIntent):
    """A promotion code the order does not qualify for: refuse and say which condition fails."""

    name = "promotion_refused"
    description = "The user wants a promo code the order does not qualify for; the agent refuses."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _promo_task(db, rng, bool)
        if picked is None:
            return None
        order, promo, why = picked
        who = self.owner(db, order, rng)
        oid = order.order_id
        outputs = {
            "expired": [promo.expires],
            "minimum subtotal": [money_text(promo.min_subtotal)],
            "first order only": ["first order"],
        }[why]
        return self.task(
            domain,
            who,
            goal=f"I want the promotion code {promo.code} applied to my order {oid}. If the agent "
            "says the code cannot be used, I want to know why; I do not want anything else "
            "changed.",
            opening=f"Hi, please put the code {promo.code} on my order {oid}.",
            known={"order_id": oid, "promo_code": promo.code},
            actions=[
                *gold_reads(who, order_read(oid)),
                Action("get_promotion_details", {"code": promo.code}),
            ],
            outputs=outputs,
            summary=f"{promo.code} on {oid}: {why}, refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the code applied anyway (the database takes it)."""
        known = task.scenario.known_info
        apply = Action(
            "apply_promotion", {"order_id": known["order_id"], "code": known["promo_code"]}
        )
        return [*super().mistakes(domain, task), [*task.actions, apply]]


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
            goal=f"{line_text(line).capitalize()} {what} {order_text(oid, restaurant)}, which was "
            f"delivered. I want a refund for it and to know how much I get back. {CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, something {what} my order {oid}.",
                    f"My delivery from {restaurant.name} came and {line.name} {what} it!",
                ]
            ),
            known={"order_id": oid, "item": line_text(line)},
            actions=[*gold_reads(who, order_read(oid)), write],
            outputs=[money_text(amount)],
            summary=f"{self.reason} {line.name} on {oid}: refund {money_text(amount)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the full line refunded when a cap applies, another line refunded."""
        *reads, refund = task.actions
        order = _order_from(domain.new_database(), refund.arguments["order_id"])
        line = next(i for i in order.items if i.item_id == refund.arguments["item_id"])
        paths = super().mistakes(domain, task)
        if line.line_total != refund.arguments["amount"]:
            full = Action(refund.name, {**refund.arguments, "amount": line.line_total})
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
    description = "A dish was missing from a delivered order: refund its price."


class RefundWrongItemCapped(_ItemRefund):
    """A wrong line whose refund a cap (order share or monthly) reduces."""

    name = "refund_wrong_item_capped"
    description = "A dish was wrong in a delivered order: refund within the order or monthly cap."
    reason = "wrong item"
    capped = True


def _late(order: Order) -> bool:
    return fresh_claim(order) and late_tier(order) > 0


class LateDeliveryCredit(FoodIntent):
    """Account credit for a late delivery: by lateness tier, within the monthly cap."""

    name = "late_delivery_credit"
    description = "A delivery came late: account credit by lateness, within the monthly cap."

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
            opening=rng.choice(
                [
                    f"Hi, my order {oid} was really late.",
                    "My food showed up way after the time you promised. This is not okay.",
                ]
            ),
            known={"order_id": oid},
            actions=[
                *gold_reads(who, order_read(oid)),
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
        order = _order_from(domain.new_database(), credit.arguments["order_id"])
        if other > order.total:
            other = money(amount / 2)
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, amount=other),
        ]


def _credit_anyway(domain: Domain, task: Task, most: float) -> Action:
    """A late-delivery credit of ``most`` (at most the order's total) on the task's order."""
    oid = task.scenario.known_info["order_id"]
    order = _order_from(domain.new_database(), oid)
    return Action("issue_late_delivery_credit", {"order_id": oid, "amount": min(most, order.total)})


class LateCreditRefused(FoodIntent):
    """A delivery a few minutes late, under the policy's threshold: no credit, say why."""

    name = "late_credit_refused"
    description = f"A delivery under {LATE_MINUTES} minutes late: no credit, the agent refuses."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: fresh_claim(o) and 0 < minutes_late(o) < LATE_MINUTES)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        return self.task(
            domain,
            who,
            goal=f"My order {oid} came later than promised and I want a credit for it. If the "
            "agent says I do not qualify, I want to know why; I do not want anything else.",
            opening=f"Hi, my order {oid} was late, I want compensation.",
            known={"order_id": oid},
            actions=gold_reads(who, order_read(oid)),
            outputs=[f"{LATE_MINUTES} minutes"],
            summary=f"{oid} {minutes_late(order)} min late: under threshold, refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a late credit issued anyway."""
        credit = _credit_anyway(domain, task, 5.0)
        return [*super().mistakes(domain, task), [*task.actions, credit]]


class MissingItemAndLateCredit(FoodIntent):
    """Two remedies on one order: a missing line refunded and a late-delivery credit."""

    name = "missing_item_and_late_credit"
    description = "A late delivery with a dish missing: refund the dish and credit the lateness."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, _late)
        if order is None:
            return None
        user = user_of(db, order)
        line = rng.choice(order.items)
        refund = item_refund(order, line, user)
        credit = late_credit(order, user)
        if refund <= 0 or credit <= 0:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        restaurant = restaurant_of(db, order)
        return self.task(
            domain,
            who,
            goal=f"{order_text(oid, restaurant).capitalize()} arrived {minutes_late(order)} "
            f"minutes late, and {line_text(line)} was missing. I want a refund for the missing "
            "dish and the credit for the late delivery, and to know both amounts. "
            f"{CONFIRM}",
            opening=f"Hi, my order {oid} came late AND something was missing.",
            known={"order_id": oid, "item": line_text(line)},
            actions=[
                *gold_reads(who, order_read(oid)),
                Action(
                    "refund_order_item",
                    {
                        "order_id": oid,
                        "item_id": line.item_id,
                        "reason": "missing item",
                        "amount": refund,
                    },
                ),
                Action("issue_late_delivery_credit", {"order_id": oid, "amount": credit}),
            ],
            outputs=[money_text(refund), money_text(credit)],
            summary=f"{oid}: refund {line.name} {money_text(refund)} + credit {money_text(credit)}",
        )


class CourierSafetyTransfer(FoodIntent):
    """A courier safety incident: the policy sends it to a human, nothing is credited."""

    name = "courier_safety_transfer"
    description = "The user reports a courier safety incident: transfer to a human, no write."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, fresh_claim)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        incident = rng.choice(
            [
                "the courier shouted at me and threatened me at my door",
                "the courier drove onto the sidewalk and nearly hit my child",
                "the courier tried to force his way into my building",
            ]
        )
        summary = f"Courier safety incident on order {oid} ({who.customer.user_id}): {incident}."
        return self.task(
            domain,
            who,
            goal=f"When my order {oid} was delivered, {incident}. I want this reported to someone "
            "who handles safety, not a coupon.",
            opening=rng.choice(
                [
                    f"I need to report your courier for order {oid}. I felt unsafe.",
                    "Your delivery driver was dangerous today and I want it dealt with.",
                ]
            ),
            known={"order_id": oid, "incident": incident},
            actions=[
                *gold_reads(who, order_read(oid)),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"courier safety incident on {oid}: transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a goodwill credit handed out instead of the transfer."""
        *reads, _ = task.actions
        credit = _credit_anyway(domain, task, 10.0)
        return [*super().mistakes(domain, task), [*reads, credit]]


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


INTENTS: list[Intent] = [
    CancelOrder(),
    ModifyOrderAddress(),
    AddOrderItem(),
    RemoveOrderItem(),
    ModifyPreparingRefused(),
    ApplyPromotion(),
    PromotionRefused(),
    RefundMissingItem(),
    RefundWrongItemCapped(),
    LateDeliveryCredit(),
    LateCreditRefused(),
    MissingItemAndLateCredit(),
    CourierSafetyTransfer(),
    OrderStatusInquiry(),
    RaiseTip(),
]
