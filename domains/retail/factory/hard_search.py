"""Hard retail intents where the user describes an order by an item instead of giving its id.

The user has several orders; the gold path reads them until it has the one described. One
intent returns the described item, one exchanges it unless the exchange costs more than the
user's limit (then it returns it), one cancels and returns and then raises a new need.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, method_text, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM, sum_action, swap_last
from tau_sim.domains.retail.data import DELIVERED, PENDING, Order, OrderItem, User
from tau_sim.domains.retail.factory.common import (
    ORDERS,
    ByItemIntent,
    RetailIntent,
    described_returns,
    difference_action,
    limit_text,
    original_method,
    other_branch,
    pick_user,
    return_action,
    swap_for,
    telling_items,
    window_check,
)
from tau_sim.domains.retail.rules import returnable
from tau_sim.domains.retail.scenario import (
    REASON_TEXT,
    item_text,
    items_value,
    new_item_text,
    options_text,
    order_phrase,
)
from tau_sim.simulator.world import Action, Challenge, Database, Domain, Task


def _several_delivered(orders: list[Order]) -> bool:
    return sum(o.status == DELIVERED for o in orders) >= 2 and bool(described_returns(orders))


def _pick_described(db: Database, rng: random.Random) -> tuple[User, Order, OrderItem] | None:
    """A user with several delivered orders, a described one and its telling item.

    The item is returnable and no other order of the user holds its product.
    """
    found = pick_user(db, rng, _several_delivered)
    if found is None:
        return None
    user, orders = found
    order = rng.choice(described_returns(orders))
    item = rng.choice([i for i in telling_items(order, orders) if returnable(i)])
    return user, order, item


def wrong_returns(domain: Domain, task: Task) -> list[list[Action]]:
    """The gold path with its last write replaced by a return from another delivered order."""
    db = domain.new_database()
    user: User = record(db, "users", RetailIntent.profile_user(task))
    for other in ORDERS.elsewhere(db, task.actions[-1]):
        method = original_method(user, other)
        if other.status == DELIVERED and method is not None:
            return [swap_last(task, return_action(other, [other.items[0]], method))]
    return []


class SearchReturnByItem(ByItemIntent):
    """Return an item the user names by product, among several delivered orders."""

    name = "search_return_by_item"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _pick_described(db, rng)
        if picked is None:
            return None
        user, order, telling = picked
        more = [i for i in order.items if returnable(i) and i is not telling]
        items = [telling, *(rng.sample(more, 1) if more and rng.random() < 0.4 else [])]
        gift = [m for m in user.payment_methods if m.source == "gift_card"]
        method = rng.choice(gift) if gift and rng.random() < 0.3 else original_method(user, order)
        if method is None:
            return None
        who = self.identity(db, user.user_id, rng)
        refund = money(sum(i.price for i in items))
        name = telling.name
        opening = rng.choice(
            [
                f"Hi, I want to return the {name} I bought, it's not what I expected.",
                f"Hello, I'd like to send back the {name} from one of my orders.",
                f"I need to return a {name} please. I don't have the order number handy.",
                f"Hey there, how do I return the {name} I received?",
            ]
        )
        return self.task(
            domain,
            who,
            goal=f"I want to return {items_value(items)} from the order that had the {name} in it. "
            "I have several orders and do not remember any order number. I want the refund to "
            f"{method_text(method)}, and I want to know how much I will get back. {CONFIRM}",
            opening=opening,
            known={
                "order_desc": order_phrase(items),
                "items": items_value(items),
                "payment_method": method_text(method),
            },
            actions=[
                *ORDERS.reads(db, who, order),
                window_check(order),
                *sum_action([i.price for i in items]),
                return_action(order, items, method),
            ],
            outputs=[money_text(refund)],
            summary=f"find the order with the {name} ({order.order_id}) and return "
            f"{len(items)} item(s), refund {money_text(refund)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the return made from another delivered order (wrong one)."""
        return [*super().mistakes(domain, task), *wrong_returns(domain, task)]


class ConditionalExchangeOrReturn(ByItemIntent):
    """Exchange a described item for another variant unless that costs more than a limit."""

    name = "conditional_exchange_or_return"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _pick_described(db, rng)
        if picked is None:
            return None
        user, order, old = picked
        new = swap_for(db, old, rng)
        method = original_method(user, order)
        if new is None or method is None:
            return None
        difference = money(new.price - old.price)
        if method.source == "gift_card" or not can_pay(method, difference):
            return None
        exchange = difference <= 10 or rng.random() < 0.5
        limit = (int(max(difference, 0)) // 10 + 2) * 10 if exchange else int(difference // 2)
        who = self.identity(db, user.user_id, rng)
        name = old.name
        exchange_args = {
            "order_id": order.order_id,
            "item_ids": [old.item_id],
            "new_item_ids": [new.item_id],
            "payment_method_id": method.id,
        }
        write = (
            Action("exchange_delivered_order_items", exchange_args)
            if exchange
            else return_action(order, [old], method)
        )
        outputs = [money_text(abs(difference))]
        if not exchange:
            outputs.append(money_text(old.price))
        opening = rng.choice(
            [
                f"Hi, the {name} I got isn't quite right and I'd like a different one.",
                f"Hello, I want to swap the {name} from one of my orders for another version.",
                f"Can I exchange the {name} I received? It depends on the price though.",
            ]
        ) + limit_text(name, limit)
        return self.task(
            domain,
            who,
            goal=f"I want to exchange {item_text(old)} from the order that had the {name} in it "
            f"for the same {name} with {options_text(new.options)}. If the exchange would cost "
            f"me more than ${limit} extra, I would rather return the {name} instead, refunded to "
            f"{method_text(method)}. Any price difference of an exchange also goes through "
            f"{method_text(method)}. I do not know any order number. {CONFIRM}",
            opening=opening,
            known={
                "order_desc": order_phrase(old),
                "items": items_value([old]),
                "new_item": new_item_text(new.options, name),
                "payment_method": method_text(method),
            },
            actions=[
                *ORDERS.reads(db, who, order),
                window_check(order),
                Action("get_product_details", {"product_id": old.product_id}),
                difference_action([(old, new)]),
                write,
            ],
            outputs=outputs,
            summary=f"{'exchange' if exchange else 'return'} the {name} of {order.order_id}: "
            f"difference {money_text(difference)} vs limit ${limit}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the other branch taken (the condition ignored)."""
        return [*super().mistakes(domain, task), other_branch(domain, task)]


def _cancel_and_return(orders: list[Order]) -> bool:
    pending = [o for o in orders if o.status == PENDING and telling_items(o, orders)]
    return bool(pending) and bool(described_returns(orders))


class LaterCancelReturnAndMore(ByItemIntent):
    """Cancel a described pending order and return a described item; a third need comes later."""

    name = "later_cancel_return_and_more"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search", "later", "long"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_user(db, rng, _cancel_and_return)
        if found is None:
            return None
        user, orders = found
        pending = rng.choice(
            [o for o in orders if o.status == PENDING and telling_items(o, orders)]
        )
        delivered = rng.choice(described_returns(orders))
        p_item = rng.choice(telling_items(pending, orders))
        d_item = rng.choice([i for i in telling_items(delivered, orders) if returnable(i)])
        method = original_method(user, delivered)
        if method is None:
            return None
        who = self.identity(db, user.user_id, rng)
        reason = rng.choice(sorted(REASON_TEXT))
        address = random_address(rng)
        others = [
            o
            for o in orders
            if o.status == PENDING and o is not pending and telling_items(o, orders)
        ]
        ship = rng.choice(others) if others and rng.random() < 0.5 else None
        known = {
            "cancel_order": order_phrase(p_item, "pending"),
            "cancel_reason": reason,
            "return_order": order_phrase(d_item),
            "items": items_value([d_item]),
            "payment_method": method_text(method),
            "new_address": address_text(address),
        }
        reads = ORDERS.reads(db, who, pending, delivered)
        first = [
            *reads,
            window_check(delivered),
            Action("cancel_pending_order", {"order_id": pending.order_id, "reason": reason}),
            return_action(delivered, [d_item], method),
        ]
        if ship is None:
            later = (
                "Oh, and while I have you, could you also update the default address on my "
                "account? I have just moved."
            )
            rest = [
                Action("modify_user_address", {"user_id": user.user_id, **address_args(address)})
            ]
        else:
            s_item = telling_items(ship, orders)[0]
            known["ship_order"] = order_phrase(s_item, "other pending")
            later = (
                f"Oh, and before I forget, could you also send my other pending order, the one "
                f"with the {s_item.name}, to my new address?"
            )
            read = Action("get_order_details", {"order_id": ship.order_id})
            rest = [
                *([] if read in reads else [read]),
                Action(
                    "modify_pending_order_address",
                    {"order_id": ship.order_id, **address_args(address)},
                ),
            ]
        opening = rng.choice(
            [
                f"Hi, two things: I want to cancel the order with the {p_item.name}, and return "
                f"the {d_item.name} I received.",
                f"Hello, please cancel my pending order with the {p_item.name}. I also need to "
                f"return the {d_item.name}.",
            ]
        )
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my pending order with the {p_item.name} because "
            f"{REASON_TEXT[reason]}, and to return {item_text(d_item)} from the order that had "
            f"it, refunded to {method_text(method)}. I want to know the refund amount. I do not "
            f"know any order number. {CONFIRM}",
            opening=opening,
            known=known,
            actions=[*first, *rest],
            outputs=[money_text(d_item.price)],
            summary=f"cancel {pending.order_id}, return from {delivered.order_id}, then "
            f"{'the default address' if ship is None else 'ship ' + ship.order_id + ' elsewhere'}",
            later=later,
            later_at=len(first),
        )
