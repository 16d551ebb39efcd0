"""Retail intents about an order before delivery, its status and the default address."""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import OtherChoice, one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.retail.data import DELIVERED, PENDING, PROCESSED
from tau_sim.domains.retail.factory.common import (
    RetailIntent,
    Swap,
    VariantSwap,
    locate,
    orders_of,
    pick_order,
    swaps_text,
)
from tau_sim.domains.retail.scenario import REASON_TEXT, gold_reads
from tau_sim.simulator.world import Action, Database, Domain, Task


class CancelPendingOrder(OtherChoice, RetailIntent):
    """Cancel a pending order for one of the two accepted reasons."""

    name = "cancel_pending_order"
    choice, choices = "reason", tuple(sorted(REASON_TEXT))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PENDING)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        reason = rng.choice(self.choices)
        because = REASON_TEXT[reason]
        oid = order.order_id
        at = locate(db, order, rng)
        opening = one_of(
            rng,
            f"Hi, I'd like to cancel my {at.ref}, {because}.",
            "Hello, I need to cancel an order please.",
            f"Please cancel my {at.ref} for me.",
            f"Hey, {because}, so I want to cancel my order.",
        )
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my pending {at.ref} because {because}. {CONFIRM}",
            opening=opening,
            known={**at.known, "cancel_reason": reason},
            actions=[
                *who.actions,
                *at.reads,
                Action("cancel_pending_order", {"order_id": oid, "reason": reason}),
            ],
            summary=f"cancel pending order {oid} ({reason})",
        )


class ModifyOrderAddress(RetailIntent):
    """Ship a pending order to another address."""

    name = "modify_order_address"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PENDING)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        address = random_address(rng)
        oid = order.order_id
        at = locate(db, order, rng)
        write = Action("modify_pending_order_address", {"order_id": oid, **address_args(address)})
        return self.task(
            domain,
            who,
            goal=f"My {at.ref} should go to a different address than the one on it. I only want "
            f"this order changed, not my default address. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I need to change the shipping address on my {at.ref}.",
                "Hello, can one of my orders be shipped to a different address?",
                f"My {at.ref} has to go somewhere else, can you update where it ships?",
            ),
            known={**at.known, "new_address": address_text(address)},
            actions=[*who.actions, *at.reads, write],
            summary=f"ship pending order {oid} to another address",
        )


class ModifyOrderItems(VariantSwap):
    """Swap an item of a pending order for another variant of the same product."""

    name = "modify_order_items"
    status = PENDING
    tool = "modify_pending_order_items"

    def texts(
        self, oid: str, ref: str, swaps: list[Swap], method: PaymentMethod
    ) -> tuple[str, str, str]:
        """The goal, the opening message and the summary (``ref``: the order as said)."""
        product = swaps[0][1]
        return (
            f"In my pending {ref} I want {swaps_text(swaps, 'replaced by')} (same products). "
            f"Any price difference should go through {method_text(method)}. Nothing else in "
            f"the order should change. {CONFIRM}",
            f"Hi, I ordered a {product.name} but picked the wrong option. Can I change it?"
            if len(ref) % 2
            else f"Hello, before my {ref} ships, I need a different {product.name}.",
            f"swap {product.name} in pending order {oid}",
        )


class ChangeOrderPayment(RetailIntent):
    """Pay a pending order with another payment method."""

    name = "change_order_payment"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PENDING and len(o.payment_history) == 1)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        paid = order.payment_history[0]
        others = [
            m
            for m in who.customer.payment_methods
            if m.id != paid.payment_method_id and can_pay(m, paid.amount)
        ]
        if not others:
            return None
        method = rng.choice(others)
        oid = order.order_id
        at = locate(db, order, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to pay my pending {at.ref} with {method_text(method)} instead of the "
            f"payment method I used. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, can I change how I pay for my {at.ref}?",
                "Hello, I'd like to use a different payment method for an order.",
                f"I want to switch the card on my {at.ref}, please.",
            ),
            known={**at.known, "payment_method": method_text(method)},
            actions=[
                *who.actions,
                *at.reads,
                Action(
                    "modify_pending_order_payment",
                    {"order_id": oid, "payment_method_id": method.id},
                ),
            ],
            summary=f"pay pending order {oid} with {method.source}",
        )


class UpdateDefaultAddress(RetailIntent):
    """Change the user's default address."""

    name = "update_default_address"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: True)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        address = random_address(rng)
        write = Action(
            "modify_user_address", {"user_id": who.customer.user_id, **address_args(address)}
        )
        known = {"new_address": address_text(address)}
        actions = [*who.actions, write]
        orders = "My existing orders do not need to change."
        if order.status in (PENDING, PROCESSED) and rng.random() < 0.5:
            # the condition decides: only a pending order can still be redirected
            oid = order.order_id
            known["order_id"] = oid
            orders = (
                f"If my order {oid} has not shipped yet, it should go to the new address too; "
                "if it has, leave it as it is."
            )
            actions = [*gold_reads(who, oid), write]
            if order.status == PENDING:
                actions.append(
                    Action(
                        "modify_pending_order_address", {"order_id": oid, **address_args(address)}
                    )
                )
        return self.task(
            domain,
            who,
            goal=f"I just moved and want my account's default address updated. {orders} {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I moved recently and need to update the address on my account.",
                "Hello, please change the default address on my profile.",
                "I have a new home address, can you put it on my account?",
            ),
            known=known,
            actions=actions,
            summary=f"update default address of {who.customer.user_id}",
        )


class OrderStatusInquiry(RetailIntent):
    """Ask where an order is: its status and, once shipped, its tracking number."""

    name = "order_status_inquiry"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status in (PENDING, PROCESSED, DELIVERED))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        at = locate(db, order, rng)
        tracked = [order]
        known = dict(at.known)
        reads = list(at.reads)
        also = ""
        others = [
            o
            for o in orders_of(db, order.user_id)
            if o.status in (PENDING, PROCESSED, DELIVERED) and o.order_id != oid
        ]
        if others and rng.random() < 0.4:  # a second order asked about by its number
            second = rng.choice(others)
            tracked.append(second)
            known["order_id_2"] = second.order_id
            read = Action("get_order_details", {"order_id": second.order_id})
            reads += [] if read in reads else [read]
            also = f" I also want the same for my order {second.order_id}."
        outputs = [
            *dict.fromkeys(o.status for o in tracked),
            *(t for o in tracked for f in o.fulfillments for t in f.tracking_ids),
        ]
        return self.task(
            domain,
            who,
            goal=f"I want to know the status of my {at.ref} and, if it has shipped, its "
            f"tracking number.{also} I do not want to change anything.",
            opening=one_of(
                rng,
                f"Hi, where is my {at.ref}?",
                "Hello, could you check on one of my orders for me?",
                f"Has my {at.ref} shipped yet? I'd like the tracking number if so.",
            ),
            known=known,
            actions=[*who.actions, *reads],
            outputs=outputs,
            summary=f"status of {' and '.join(o.order_id for o in tracked)}",
        )


class CancelShippedOrderTransfer(RetailIntent):
    """Insist on cancelling an order that has already shipped: outside the policy, so transfer."""

    name = "out_of_policy_transfer"
    forbidden = True
    rules = ("no-cancel-after-processing",)
    # no violations: the tools cancel only pending orders, so none can give in to this user

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status in (PROCESSED, DELIVERED))
        if order is None:
            return None
        who = self.owner(db, order, rng)
        oid = order.order_id
        uid = who.customer.user_id
        at = locate(db, order, rng)
        summary = f"User {uid} wants to cancel order {oid}, which is {order.status}."
        return self.task(
            domain,
            who,
            goal=f"I want my {at.ref} cancelled and my money back, not a return or an exchange. "
            "If the agent says it cannot cancel it, I ask to speak to a human agent.",
            demand=f"my {at.ref} cancelled with my money back",
            opening=one_of(
                rng,
                f"I need to cancel my {at.ref} right now.",
                "Hi, I want to cancel an order I placed, I don't want it anymore.",
                f"Cancel my {at.ref} please, I changed my mind about it.",
            ),
            known=at.known,
            actions=[
                *who.actions,
                *at.reads,
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"cancel {order.status} order {oid}: not allowed, transfer",
        )


OTHER_REASONS = (
    "I found it cheaper somewhere else",
    "the delivery estimate is too slow for me",
    "I want to pay less with a coupon I just got",
)
"""Reasons for cancelling that the policy does not accept."""


class CancelForOtherReason(Refuses, RetailIntent):
    """Cancel a pending order for a reason the policy does not accept: refused."""

    name = "cancel_for_other_reason"
    forbidden = True
    rules = ("cancel-reasons",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        order = pick_order(db, rng, lambda o: o.status == PENDING)
        if order is None:
            return None
        who = self.owner(db, order, rng)
        because = rng.choice(OTHER_REASONS)
        oid = order.order_id
        at = locate(db, order, rng)
        opening = one_of(
            rng,
            f"Hi, please cancel my {at.ref}, {because}.",
            f"Hello, I want to cancel my {at.ref}.",
            f"Cancel my {at.ref} for me please, {because}.",
        )
        task = self.task(
            domain,
            who,
            goal=f"I want my pending {at.ref} cancelled because {because}. That is my only "
            "reason: I still need the item and did not order it by mistake.",
            demand=f"my {at.ref} cancelled",
            opening=opening,
            known={**at.known, "cancel_reason": because},
            actions=[*who.actions, *at.reads],
            outputs=["no longer needed"],
            summary=f"cancel {oid} because {because}: not an accepted reason, refuse",
        )
        # the order cancelled under an accepted reason the user never gave
        cancel = Action("cancel_pending_order", {"order_id": oid, "reason": "no longer needed"})
        return refusing(task, cancel)
