"""Hard retail intents with long horizons: three or four writes over several described orders.

One redirects a pending order, returns items of a delivered one and cancels another pending
one; one exchanges items in two delivered orders and then cancels or moves; one moves house
(default address and a pending order) and exchanges an item unless that costs too much.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.factory.chains import Chain, left_out
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM, replaced, sum_action, swapped
from tau_sim.domains.retail.data import PENDING, Order, OrderItem
from tau_sim.domains.retail.factory.common import (
    ORDERS,
    ByItemIntent,
    can_swap,
    described_returns,
    difference_action,
    in_window_delivered,
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


def _pending(orders: list[Order]) -> list[Order]:
    return [o for o in orders if o.status == PENDING and telling_items(o, orders)]


def _swappable(db: Database, orders: list[Order]) -> list[Order]:
    return [
        o
        for o in orders
        if in_window_delivered(o) and any(can_swap(db, i) for i in telling_items(o, orders))
    ]


def _wrong_cancel(domain: Domain, task: Task) -> list[Action] | None:
    """The gold path with its cancellation made on the order whose address it changes."""
    cancel = next((a for a in task.actions if a.name == "cancel_pending_order"), None)
    moved = next((a for a in task.actions if a.name == "modify_pending_order_address"), None)
    if cancel is None or moved is None:
        return None
    return swapped(task, cancel, replaced(cancel, order_id=moved.arguments["order_id"]))


class LongAddressReturnCancel(Chain, ByItemIntent):
    """Ship one pending order elsewhere, return items of a delivered one, cancel another."""

    name = "long_address_return_cancel"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search", "long"})
    slips = (_wrong_cancel,)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_user(
            db, rng, lambda os: len(_pending(os)) >= 2 and bool(described_returns(os))
        )
        if found is None:
            return None
        user, orders = found
        ship, cancel = rng.sample(_pending(orders), 2)
        back = rng.choice(described_returns(orders))
        s_item = rng.choice(telling_items(ship, orders))
        c_item = rng.choice(telling_items(cancel, orders))
        told = [i for i in telling_items(back, orders) if returnable(i)]
        more = [i for i in back.items if returnable(i) and i not in told]
        items = [rng.choice(told), *(more[:1] if rng.random() < 0.5 else [])]
        method = original_method(user, back)
        if method is None:
            return None
        who = self.identity(db, user.user_id, rng)
        reason = rng.choice(sorted(REASON_TEXT))
        address = random_address(rng)
        default = rng.random() < 0.5
        writes = [
            Action(
                "modify_pending_order_address",
                {"order_id": ship.order_id, **address_args(address)},
            ),
            return_action(back, items, method),
            Action("cancel_pending_order", {"order_id": cancel.order_id, "reason": reason}),
        ]
        if default:
            writes.append(
                Action("modify_user_address", {"user_id": user.user_id, **address_args(address)})
            )
        also = " I also want my account's default address changed to it." if default else ""
        refund = money(sum(i.price for i in items))
        opening = rng.choice(
            [
                f"Hi, I have a few things: a new address for the {s_item.name} order, a return, "
                "and a cancellation.",
                f"Hello, I moved, so the order with the {s_item.name} needs my new address. I "
                f"also want to return the {items[0].name} and cancel the {c_item.name}.",
                "Hi there, I need help with three of my orders, I don't have the numbers.",
            ]
        )
        return self.task(
            domain,
            who,
            goal=f"Three things, and I know no order numbers: ship my pending order with the "
            f"{s_item.name} to my new address{'.' if not default else ','}{also} Return "
            f"{items_value(items)}, refunded to {method_text(method)}; I want to know the "
            f"refund. Cancel my pending order with the {c_item.name} because "
            f"{REASON_TEXT[reason]}. {CONFIRM}",
            opening=opening,
            known={
                "ship_order": order_phrase(s_item, "pending"),
                "new_address": address_text(address),
                "return_order": order_phrase(items),
                "items": items_value(items),
                "payment_method": method_text(method),
                "cancel_order": order_phrase(c_item, "pending"),
                "cancel_reason": reason,
            },
            actions=[
                *ORDERS.reads(db, who, ship, back, cancel),
                window_check(back),
                *sum_action([i.price for i in items]),
                *writes,
            ],
            outputs=[money_text(refund)],
            summary=f"ship {ship.order_id} elsewhere, return {len(items)} of {back.order_id}, "
            f"cancel {cancel.order_id}{', default address' if default else ''}",
        )


def _exchange(
    db: Database, order: Order, orders: list[Order], rng: random.Random, count: int
) -> list[tuple[OrderItem, OrderItem]]:
    """Up to ``count`` (old, new) pairs of ``order``, the first item one that names the order."""
    told = telling_items(order, orders)
    rest = [i for i in order.items if i not in told]
    pairs = []
    for item in [*rng.sample(told, len(told)), *rest]:
        new = swap_for(db, item, rng)
        if new is not None:
            pairs.append((item, new))
        if len(pairs) == count:
            break
    return pairs if pairs and pairs[0][0] in told else []


def _exchange_write(
    order: Order, pairs: list[tuple[OrderItem, OrderItem]], method: PaymentMethod
) -> Action:
    return Action(
        "exchange_delivered_order_items",
        {
            "order_id": order.order_id,
            "item_ids": [o.item_id for o, _ in pairs],
            "new_item_ids": [n.item_id for _, n in pairs],
            "payment_method_id": method.id,
        },
    )


def _swaps_text(pairs: list[tuple[OrderItem, OrderItem]]) -> str:
    return " and ".join(f"{item_text(o)} for one with {options_text(n.options)}" for o, n in pairs)


class LongExchangeTwoOrders(Chain, ByItemIntent):
    """Exchange items in two delivered orders, then cancel a pending order or move."""

    name = "long_exchange_two_orders"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search", "long"})
    slips = (left_out("exchange_delivered_order_items", 1),)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_user(db, rng, lambda os: len(_swappable(db, os)) >= 2)
        if found is None:
            return None
        user, orders = found
        first, second = rng.sample(_swappable(db, orders), 2)
        pairs_a = _exchange(db, first, orders, rng, rng.choice([1, 2]))
        pairs_b = _exchange(db, second, orders, rng, 1)
        if not pairs_a or not pairs_b:
            return None
        diff_a = money(sum(n.price - o.price for o, n in pairs_a))
        diff_b = money(sum(n.price - o.price for o, n in pairs_b))
        cards = [m for m in user.payment_methods if can_pay(m, max(diff_a, 0) + max(diff_b, 0))]
        if not cards:
            return None
        method = rng.choice(cards)
        who = self.identity(db, user.user_id, rng)
        pending = _pending(orders)
        known = {
            "exchange_order": order_phrase([o for o, _ in pairs_a]),
            "exchange_order_2": order_phrase([o for o, _ in pairs_b]),
            # options only: the descriptions above name the items (they say which order)
            "new_items": "; then ".join(options_text(n.options) for _, n in pairs_a + pairs_b),
            "payment_method": method_text(method),
        }
        reads = ORDERS.reads(db, who, first, second)
        if pending and rng.random() < 0.6:
            cancel = rng.choice(pending)
            c_item = telling_items(cancel, orders)[0]
            reason = rng.choice(sorted(REASON_TEXT))
            known["cancel_order"] = order_phrase(c_item, "pending")
            known["cancel_reason"] = reason
            read = Action("get_order_details", {"order_id": cancel.order_id})
            third = [
                *([] if read in reads else [read]),
                Action("cancel_pending_order", {"order_id": cancel.order_id, "reason": reason}),
            ]
            then = f"cancel my pending order with the {c_item.name} because {REASON_TEXT[reason]}"
        else:
            address = random_address(rng)
            known["new_address"] = address_text(address)
            third = [
                Action("modify_user_address", {"user_id": user.user_id, **address_args(address)})
            ]
            then = "update my account's default address, as I have moved"
        steps: list[Action] = list(reads)
        for order, pairs in ((first, pairs_a), (second, pairs_b)):
            steps.append(window_check(order))
            steps += [
                Action("get_product_details", {"product_id": p})
                for p in dict.fromkeys(o.product_id for o, _ in pairs)
            ]
            steps.append(difference_action(pairs))
        writes = [_exchange_write(first, pairs_a, method), _exchange_write(second, pairs_b, method)]
        opening = rng.choice(
            [
                f"Hi, I need to exchange a few things from two orders, starting with the "
                f"{pairs_a[0][0].name}.",
                f"Hello, the {pairs_a[0][0].name} and the {pairs_b[0][0].name} I got need to be "
                "swapped for other versions.",
                "Hi, I have exchanges on two different orders and one more request after that.",
            ]
        )
        return self.task(
            domain,
            who,
            goal=f"I know no order numbers. In the order that had the {pairs_a[0][0].name}, I "
            f"want to exchange {_swaps_text(pairs_a)}; in the order that had the "
            f"{pairs_b[0][0].name}, {_swaps_text(pairs_b)}. Price differences go through "
            f"{method_text(method)}; I want to know each one. After that I want to {then}. "
            f"{CONFIRM}",
            opening=opening,
            known=known,
            actions=[*steps, *writes, *third],
            outputs=[money_text(abs(diff_a)), money_text(abs(diff_b))],
            summary=f"exchange {len(pairs_a)} item(s) of {first.order_id} and 1 of "
            f"{second.order_id}, then {third[-1].name}",
        )


class ConditionalMoveAndExchange(Chain, ByItemIntent):
    """Move house (default address and a pending order), exchange an item or else return it."""

    name = "conditional_move_and_exchange"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search", "conditional", "long"})
    slips = (other_branch,)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = pick_user(db, rng, lambda os: bool(_pending(os)) and bool(described_returns(os)))
        if found is None:
            return None
        user, orders = found
        ship = rng.choice(_pending(orders))
        back = rng.choice(described_returns(orders))
        old = rng.choice([i for i in telling_items(back, orders) if returnable(i)])
        new = swap_for(db, old, rng)
        method = original_method(user, back)
        if new is None or method is None or method.source == "gift_card":
            return None
        s_item = telling_items(ship, orders)[0]
        difference = money(new.price - old.price)
        exchange = difference <= 10 or rng.random() < 0.5
        limit = (int(max(difference, 0)) // 10 + 2) * 10 if exchange else int(difference // 2)
        who = self.identity(db, user.user_id, rng)
        address = random_address(rng)
        last = (
            _exchange_write(back, [(old, new)], method)
            if exchange
            else return_action(back, [old], method)
        )
        outputs = [money_text(abs(difference))] + ([] if exchange else [money_text(old.price)])
        opening = rng.choice(
            [
                "Hi, I just moved and need to sort out my account and a couple of orders.",
                f"Hello, new address for me, and my pending {s_item.name} order should go there. "
                f"Also a question about the {old.name}.",
                f"Hi, I've moved house. Also, the {old.name} I got might need exchanging.",
            ]
        ) + limit_text(old.name, limit)
        return self.task(
            domain,
            who,
            goal=f"I moved: my account's default address and my pending order with the "
            f"{s_item.name} should both get my new address. I also want to exchange "
            f"{item_text(old)} for the same {old.name} with {options_text(new.options)}; if "
            f"the exchange would cost me more than ${limit} extra, I would rather return it, "
            f"refunded to {method_text(method)}. Any price difference also goes through "
            f"{method_text(method)}. I know no order numbers. {CONFIRM}",
            opening=opening,
            known={
                "new_address": address_text(address),
                "ship_order": order_phrase(s_item, "pending"),
                "return_order": order_phrase(old),
                "items": items_value([old]),
                "new_item": new_item_text(new.options, old.name),
                "payment_method": method_text(method),
            },
            actions=[
                *ORDERS.reads(db, who, ship, back),
                window_check(back),
                Action("get_product_details", {"product_id": old.product_id}),
                difference_action([(old, new)]),
                Action("modify_user_address", {"user_id": user.user_id, **address_args(address)}),
                Action(
                    "modify_pending_order_address",
                    {"order_id": ship.order_id, **address_args(address)},
                ),
                last,
            ],
            outputs=outputs,
            summary=f"move {user.user_id} and {ship.order_id}; "
            f"{'exchange' if exchange else 'return'} the {old.name} of {back.order_id}",
        )
