"""The food-delivery intents' base class and the order helpers they share."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from tau_sim.domains.food_delivery.data import NOW, Order, OrderItem, Refund, Restaurant, User
from tau_sim.domains.food_delivery.rules import item_refund
from tau_sim.domains.food_delivery.scenario import UNKNOWN_IDS, line_text
from tau_sim.domains.kit.factory.base import listing
from tau_sim.domains.kit.factory.search import Shelf, alike
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import money
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task


class FoodIntent(CustomerIntent):
    """A food-delivery customer: email (60%) or name + zip; never knows item or restaurant ids."""

    unknown_info = UNKNOWN_IDS

    def task(
        self,
        domain: Domain,
        who: Identity,
        *,
        known: Mapping[str, str],
        actions: list[Action],
        **rest: Any,
    ) -> Task:
        """The kit's task, with what was wrong (``problem``) where the gold path refunds dishes.

        A dish refund's reason ("missing item", "wrong item") is the customer's to say: the
        user knows it as a fact (``problem_text``), told when the agent asks what was wrong.
        """
        reasons = [a.arguments["reason"] for a in actions if a.name == "refund_order_item"]
        if reasons:
            known = {**known, "problem": problem_text(reasons)}
        return super().task(domain, who, known=known, actions=actions, **rest)

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the user's default address; the last write left out."""
        extra = Action("modify_user_address", {"user_id": self.profile_user(task), **ELSEWHERE})
        reads = [a for a in task.actions if a.name not in domain.toolkit.endings]
        return [[*reads, extra], *self.last_write_left_out(domain, task)]


PROBLEMS = {"missing item": "it was a missing item", "wrong item": "I got the wrong item"}
"""What was wrong, as the customer says it, for each refund reason of the policy."""


def problem_text(reasons: Sequence[str]) -> str:
    """What was wrong with the refunded dishes, in the customer's words, for each reason once."""
    return " and ".join(PROBLEMS[r] for r in dict.fromkeys(reasons))


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


def order_from(db: Database, order_id: str) -> Order:
    """The order ``order_id`` of a fresh database (mistakes rebuild what the task was about)."""
    order: Order = record(db, "orders", order_id)
    return order


# ---- orders the user describes instead of naming (the hard tier's search) ---------------------


def day_phrase(timestamp: str) -> str:
    """When an order was placed, as its customer says it: "from last night", "from Tuesday"."""
    moment = dt.datetime.fromisoformat(timestamp)
    days = (NOW.date() - moment.date()).days
    if days == 0:
        return "from tonight" if moment.hour >= 17 else "from earlier today"
    if days == 1:
        return "from last night" if moment.hour >= 17 else "from yesterday"
    if days < 7:
        return f"from {moment:%A}"
    return f"from {moment:%B} {moment.day}"


def short_name(restaurant: Restaurant) -> str:
    """A restaurant's name without its city ("Lotus Thai" of "Lotus Thai Austin")."""
    name = restaurant.name.removesuffix(f" {restaurant.city}")
    return name or restaurant.name


def siblings(db: Database, order: Order) -> list[Order]:
    """The other orders of ``order``'s customer, in the profile's order."""
    return [order_from(db, o) for o in user_of(db, order).orders if o != order.order_id]


def searchable(db: Database, order: Order) -> bool:
    """Whether a description tells ``order`` from its customer's other orders (at least one).

    It is named by restaurant and day: no other order of the customer may share both.
    """
    others = siblings(db, order)
    day = order.placed_at[:10]
    return bool(others) and not any(
        o.restaurant_id == order.restaurant_id and o.placed_at[:10] == day for o in others
    )


def dish_names(lines: Sequence[OrderItem]) -> str:
    """Dishes by name, as a customer lists them: "the Satay, the Soda and the Pad Thai"."""
    return listing([f"the {line.name}" for line in lines])


def describe(
    db: Database, order: Order, dish: OrderItem | None = None, missing: Sequence[OrderItem] = ()
) -> str:
    """An order as its customer describes it: "the Lotus Thai order from Tuesday, with the Satay".

    ``dish`` (a line of the order) names one thing in it, ``missing`` the dishes that did not
    come ("..., with the Satay (the Soda missing)"); without either only restaurant and day.
    """
    text = f"the {short_name(restaurant_of(db, order))} order {day_phrase(order.placed_at)}"
    if dish is not None:
        text = f"{text}, with the {dish.name}"
    if missing:
        text = f"{text} ({dish_names(missing)} missing)"
    return text


def credit_anyway(order: Order, most: float) -> Action:
    """A late-delivery credit the policy refuses, given anyway: ``most``, at most the total."""
    return Action(
        "issue_late_delivery_credit",
        {"order_id": order.order_id, "amount": min(most, order.total)},
    )


def tip_sum(order: Order, extra: float, rng: random.Random) -> list[Action]:
    """Half the time, the ``calculate`` of the new tip (the current one plus ``extra``)."""
    if rng.random() < 0.5:
        return []
    return [Action("calculate", {"expression": f"{order.tip:.2f} + {extra:.2f}"})]


class HardFoodIntent(FoodIntent):
    """A food-delivery intent of the hard tier."""

    tier = "hard"

    def owner_and_description(
        self, db: Database, order: Order, rng: random.Random
    ) -> tuple[Identity, str]:
        """The identity of ``order``'s customer, and the order described by one of its dishes."""
        who = self.owner(db, order, rng)
        return who, describe(db, order, rng.choice(order.items))

    @staticmethod
    def wrong_order(domain: Domain, task: Task, write: Action) -> list[list[Action]]:
        """The gold path with ``write`` made on another order of the customer, where it runs.

        The first of the customer's other orders on which the tools take the same write (the
        wrong candidate of a search); none when no other order takes it.
        """
        oid = write.arguments["order_id"]
        db = domain.new_database()
        for other in siblings(db, order_from(db, oid)):
            args = dict(write.arguments, order_id=other.order_id)
            if "item_id" in args:
                if not other.items or other.refunds:
                    continue
                line = other.items[0]
                args["item_id"] = line.item_id
                args["amount"] = min(float(args["amount"]), line.line_total)
            wrong = Action(write.name, args)
            path = [wrong if a is write else a for a in task.actions]
            trial = domain.new_database()
            if not any(domain.call(trial, a).error for a in path):
                return [path]
        return []


def described(db: Database, task: Task) -> list[Order]:
    """The orders the gold path reads that the task's ``order`` description names."""
    known = task.scenario.known_info.get("order", "")
    reads = [a.arguments["order_id"] for a in task.actions if a.name == "get_order_details"]
    orders = [order_from(db, r) for r in reads]
    return [
        o for o in orders if any(f"{describe(db, o)}{end}" in f"{known}," for end in (",", " ("))
    ]


def line_refunds(order: Order, lines: list[OrderItem], user: User) -> list[float]:
    """The refunds of ``lines`` of ``order``, made in this order, each within the caps left."""
    amounts: list[float] = []
    for line in lines:
        amount = item_refund(order, line, user)
        amounts.append(amount)
        refund = Refund("missing item", amount, order.payment_method_id, line.item_id)
        order = msgspec.structs.replace(order, refunds=(*order.refunds, refund))
        user = msgspec.structs.replace(
            user, item_refunds_this_month=money(user.item_refunds_this_month + amount)
        )
    return amounts


def missing_lines(
    db: Database, rng: random.Random, fresh: Callable[[Order], bool]
) -> tuple[Order, OrderItem, list[OrderItem], list[float]] | None:
    """A described order that passes ``fresh``, with one to three of its dishes missing.

    Returns the order, the dish that came (to describe it by), the missing lines and their
    refunds (``line_refunds``); None when no order fits or a refund would be nothing.
    """
    count = rng.choice((1, 2, 3, 3))
    order = pick_order(db, rng, lambda o: fresh(o) and len(o.items) > count and searchable(db, o))
    if order is None:
        return None
    named, *lines = rng.sample(order.items, count + 1)
    amounts = line_refunds(order, lines, user_of(db, order))
    if min(amounts) <= 0:
        return None
    return order, named, lines, amounts


def refund_writes(
    order: Order, lines: list[OrderItem], amounts: list[float], reason: str
) -> list[Action]:
    """The gold refunds of ``lines`` of ``order`` (``amounts`` from ``line_refunds``)."""
    return [
        Action(
            "refund_order_item",
            {
                "order_id": order.order_id,
                "item_id": line.item_id,
                "reason": reason,
                "amount": amount,
            },
        )
        for line, amount in zip(lines, amounts, strict=True)
    ]


def lines_text(lines: list[OrderItem]) -> str:
    """Order lines as a customer lists them: "the Satay, the 2 Soda and the Pad Thai (tofu)"."""
    return listing([line_text(line) for line in lines])


def describe_missing(db: Database, order: Order, missing: Sequence[OrderItem] = ()) -> str:
    """``describe`` naming the first dish of ``order`` that came, and the ``missing`` ones."""
    came = next((line for line in order.items if line not in missing), None)
    return describe(db, order, came, missing)


ORDERS: Shelf[User, Order] = Shelf("orders", True, alike(lambda o: o.restaurant_id))
"""A customer's orders, described by restaurant, day and a dish; the agent lists them, opens
those of the restaurant named, then reads the profile (this month's refunds and credits, read
once the order is found, so the ids come from the list that tells the orders apart)."""


class OrderRef(msgspec.Struct, frozen=True):
    """How a base task's user names its order: by id, or (half the time) by a description.

    ``text`` goes into the goal and the opening ("order #FD1234567", "the Lotus Thai order
    from Tuesday, with the Satay"), ``known`` is its slot, ``reads`` the gold reads that find it.
    """

    text: str
    known: dict[str, str]
    reads: list[Action]


def order_ref(db: Database, who: Identity, order: Order, rng: random.Random) -> OrderRef:
    """The order by id, or half the time (when a description tells it apart) described."""
    if rng.random() < 0.5 or not searchable(db, order):
        oid = order.order_id
        reads = [*who.actions, Action("get_order_details", {"order_id": oid})]
        return OrderRef(f"order {oid}", {"order_id": oid}, reads)
    desc = describe(db, order, order.items[0])
    return OrderRef(desc, {"order": desc}, ORDERS.reads(db, who, order))


def order_in(domain: Domain, task: Task) -> Order:
    """The order a task is about: the one its user names by id, or the one it describes."""
    db = domain.new_database()
    oid = task.scenario.known_info.get("order_id")
    return order_from(db, oid) if oid else described(db, task)[0]
