"""The retail intents' base class and the order and item helpers they share."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple

import msgspec

from tau_sim.domains.kit.factory.search import Shelf, until_found
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text
from tau_sim.domains.kit.people import Customer
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.domains.retail.data import DELIVERED, TODAY, Order, OrderItem, Product, User
from tau_sim.domains.retail.rules import in_window, returnable
from tau_sim.domains.retail.scenario import (
    DESCRIBING,
    ORDER_IDS,
    UNKNOWN_IDS,
    item_text,
    items_value,
    new_item_text,
    options_text,
)
from tau_sim.simulator.world import Action, Database, Domain, Task


class RetailIntent(CustomerIntent):
    """A retail customer: email (60%) or name + zip; never knows item, product or method ids."""

    unknown_info = UNKNOWN_IDS

    def task(self, domain: Domain, who: Identity, **kwargs: Any) -> Task:
        """The kit's task; a user who describes orders knows no order number and says them.

        The opening states every description the user holds that it does not already hold,
        so the agent hears which orders are meant before it reads any.
        """
        known: dict[str, str] = kwargs["known"]
        described = [v for k, v in known.items() if k in DESCRIBING]
        opening: str = kwargs["opening"]
        missing = [v for v in described if v.lower() not in opening.lower()]
        if missing:
            kwargs["opening"] = f"{opening} It's about {' and '.join(missing)}."
        task = super().task(domain, who, **kwargs)
        scenario = task.scenario
        if described and ORDER_IDS not in scenario.unknown_info:
            unknown = [*scenario.unknown_info, ORDER_IDS]
            scenario = msgspec.structs.replace(scenario, unknown_info=unknown)
            task = msgspec.structs.replace(task, scenario=scenario)
        return task

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the user's default address; the last write left out."""
        return [
            self.stray_write(task, "modify_user_address", **ELSEWHERE),
            *self.last_write_left_out(domain, task),
        ]


pick_order = picker("orders", Order)


def _method_for(
    user: Customer, order: Order, amount: float, rng: random.Random
) -> PaymentMethod | None:
    """The order's original payment method if it can pay ``amount``, else another one that can."""
    original = user.payment_method(order.payment_history[0].payment_method_id)
    candidates = [m for m in user.payment_methods if can_pay(m, amount)]
    if original is not None and original in candidates:
        return original
    return rng.choice(candidates) if candidates else None


Swap = tuple[OrderItem, Product, OrderItem]
"""An item, its product and the other variant of it the user wants."""


def _swaps(db: Database, order: Order, rng: random.Random, count: int) -> list[Swap]:
    """Up to ``count`` items of ``order`` (distinct products), each with another variant."""
    swaps: list[Swap] = []
    for item in rng.sample(order.items, len(order.items)):
        product: Product = record(db, "products", item.product_id)
        others = [v for v in product.variants if v.available and v.item_id != item.item_id]
        if others and all(p.product_id != product.product_id for _, p, _ in swaps):
            v = rng.choice(others)
            new = OrderItem(v.item_id, product.product_id, product.name, v.options, v.price)
            swaps.append((item, product, new))
        if len(swaps) == count:
            break
    return swaps


def swaps_text(swaps: list[Swap], verb: str) -> str:
    """The swaps as the user asks for them: "the Hoodie (...) replaced by one with ..."."""
    return " and ".join(
        f"{item_text(o)} {verb} one with {options_text(n.options)}" for o, _, n in swaps
    )


class VariantSwap(RetailIntent):
    """Swap one item of an order for another variant of the same product (modify or exchange)."""

    status: ClassVar[str]
    tool: ClassVar[str]

    def texts(
        self, oid: str, ref: str, swaps: list[Swap], method: PaymentMethod
    ) -> tuple[str, str, str]:
        """The goal, the opening message and the summary of the task.

        ``ref`` names the order as the user does ("order #W1234567", "order with the Hoodie").
        """
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(
            db, rng, lambda o: o.status == self.status and (o.status != DELIVERED or in_window(o))
        )
        swaps = [] if order is None else _swaps(db, order, rng, rng.choice([1, 1, 2]))
        if order is None or not swaps:
            return None
        who = self.owner(db, order, rng)
        difference = sum(n.price - o.price for o, _, n in swaps)
        method = _method_for(who.customer, order, difference, rng)
        if method is None:
            return None
        oid = order.order_id
        args = {
            "order_id": oid,
            "item_ids": [o.item_id for o, _, _ in swaps],
            "new_item_ids": [n.item_id for _, _, n in swaps],
            "payment_method_id": method.id,
        }
        olds = [o for o, _, _ in swaps]
        at = locate(db, order, rng, items=olds)
        goal, opening, summary = self.texts(oid, at.ref, swaps, method)
        return self.task(
            domain,
            who,
            goal=goal,
            opening=opening,
            known={
                **at.known,
                "items": items_value(olds),
                "new_item": "; ".join(new_item_text(n.options, p.name) for _, p, n in swaps),
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                *at.reads,
                *([window_check(order)] if order.status == DELIVERED else []),
                *(Action("get_product_details", {"product_id": p.product_id}) for _, p, _ in swaps),
                *([difference_action([(o, n) for o, _, n in swaps])] if len(swaps) > 1 else []),
                Action(self.tool, args),
            ],
            summary=summary,
        )


class ByItemIntent(RetailIntent):
    """A hard intent whose user describes orders by their items and knows no order number."""

    tier = "hard"
    unknown_info = [*UNKNOWN_IDS, ORDER_IDS]


ORDERS: Shelf[User, Order] = Shelf("orders", opens=until_found)
"""A user's orders, described by an item no other order holds; the agent opens them in profile
order until it has the one meant."""

orders_of = ORDERS.of
"""The user's orders, in the order their profile lists them."""


def pick_user(
    db: Database, rng: random.Random, accept: Callable[[list[Order]], bool]
) -> tuple[User, list[Order]] | None:
    """A random user whose orders ``accept`` takes, with those orders (None after 300 tries)."""
    keys = sorted(db.keys("users"))
    for _ in range(300):
        user: User = record(db, "users", rng.choice(keys))
        orders = orders_of(db, user.user_id)
        if accept(orders):
            return user, orders
    return None


def telling_items(order: Order, others: list[Order]) -> list[OrderItem]:
    """The items of ``order`` whose product no other of the user's orders holds."""
    elsewhere = {i.name for o in others if o.order_id != order.order_id for i in o.items}
    return [i for i in order.items if i.name not in elsewhere]


def window_check(order: Order) -> Action:
    """The ``days_between`` call that tells whether a delivered order is still in its window."""
    return Action("days_between", {"start_date": order.delivered_on, "end_date": TODAY.isoformat()})


def in_window_delivered(order: Order) -> bool:
    """A delivered order still within the return and exchange window."""
    return order.status == DELIVERED and in_window(order)


def described_returns(orders: list[Order]) -> list[Order]:
    """The in-window delivered orders with a returnable item no other order of the user holds."""
    return [
        o
        for o in orders
        if in_window_delivered(o) and any(returnable(i) for i in telling_items(o, orders))
    ]


def late_delivered(order: Order) -> bool:
    """A delivered order past the return and exchange window."""
    return order.status == DELIVERED and not in_window(order)


def original_method(user: Customer, order: Order) -> PaymentMethod | None:
    """The method that paid ``order``."""
    return user.payment_method(order.payment_history[0].payment_method_id)


def return_action(order: Order, items: list[OrderItem], method: PaymentMethod) -> Action:
    """The return of ``items`` of ``order``, refunded to ``method``."""
    return Action(
        "return_delivered_order_items",
        {
            "order_id": order.order_id,
            "item_ids": [i.item_id for i in items],
            "payment_method_id": method.id,
        },
    )


def can_swap(db: Database, item: OrderItem) -> bool:
    """Whether ``item``'s product has another available variant."""
    product: Product = record(db, "products", item.product_id)
    return any(v.available and v.item_id != item.item_id for v in product.variants)


def swap_for(db: Database, item: OrderItem, rng: random.Random) -> OrderItem | None:
    """Another available variant of ``item``'s product, as an order item, or None."""
    product: Product = record(db, "products", item.product_id)
    others = [v for v in product.variants if v.available and v.item_id != item.item_id]
    if not others:
        return None
    v = rng.choice(others)
    return OrderItem(v.item_id, product.product_id, product.name, v.options, v.price)


def difference_action(pairs: list[tuple[OrderItem, OrderItem]]) -> Action:
    """The ``calculate`` call of an exchange's price difference (new prices minus old ones)."""
    new = " + ".join(f"{n.price:.2f}" for _, n in pairs)
    old = " - ".join(f"{o.price:.2f}" for o, _ in pairs)
    return Action("calculate", {"expression": f"{new} - {old}"})


def limit_text(name: str, limit: int) -> str:
    """What a conditional exchange's user says of their limit, after the opening.

    The branch depends on it, so it is said up front: the agent looks up the price difference
    and decides from what it was told, never from the answer key's branch.
    """
    return f" If exchanging the {name} costs me more than ${limit} extra, I'd rather return it."


def other_branch(domain: Domain, task: Task) -> list[Action]:
    """The gold path with its last write, an exchange or a return, turned into the other one.

    What an agent that ignores the user's condition does: the return of the item the gold
    path exchanges, or its exchange (for the product's first other available variant).
    """
    last = task.actions[-1]
    args = last.arguments
    if last.name == "exchange_delivered_order_items":
        keep = ("order_id", "item_ids", "payment_method_id")
        other = Action("return_delivered_order_items", {k: args[k] for k in keep})
    else:
        db = domain.new_database()
        order: Order = record(db, "orders", args["order_id"])
        item = next(i for i in order.items if i.item_id == args["item_ids"][0])
        product: Product = record(db, "products", item.product_id)
        variant = next(v for v in product.variants if v.available and v.item_id != item.item_id)
        other = Action(
            "exchange_delivered_order_items", {**args, "new_item_ids": [variant.item_id]}
        )
    return [*task.actions[:-1], other]


class Located(NamedTuple):
    """How a user refers to one order, the slots that go with it and the reads that find it."""

    ref: str
    known: dict[str, str]
    reads: list[Action]


def locate(
    db: Database,
    order: Order,
    rng: random.Random,
    share: float = 0.6,
    items: list[OrderItem] | None = None,
) -> Located:
    """The order by its id, or (``share`` of the time) described by its items among several.

    A described order is "order with the Hoodie (color: grey, size: M)" (``items``, when one
    of them is in no other order of the user, else one such item): its gold reads go through
    the user's orders until they reach it. An order given by id is "order #W1234567".
    """
    orders = orders_of(db, order.user_id)
    told = telling_items(order, orders)
    if items is not None:
        told = items if any(i in told for i in items) else []
    elif told:
        told = [rng.choice(told)]
    if len(orders) >= 2 and told and rng.random() < share:
        ref = f"order with {items_value(told)}"
        return Located(
            ref, {"order_desc": ref}, [ORDERS.detail(o) for o in ORDERS.opens(orders, [order])]
        )
    oid = order.order_id
    return Located(
        f"order {oid}", {"order_id": oid}, [Action("get_order_details", {"order_id": oid})]
    )
