"""Hard utilities intents with long horizons: four or five writes, and a need raised later.

Moving service (final readings, the old account closed, a new one opened, the balance moved
over, autopay asked for once the move is under way), and a billing round (readings checked
against the history, a bill, a payment capped by the customer, autopay).
"""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.chains import Chain, changed, left_out, less
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import PaymentMethod, method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, replay_actions
from tau_sim.domains.utilities.data import ELECTRICITY, TODAY, Premise, Tariff, User
from tau_sim.domains.utilities.factory.common import (
    Supply,
    UtilitiesIntent,
    misread_first,
    new_value,
    pick_supply,
)
from tau_sim.domains.utilities.scenario import (
    account_text,
    gold_reads,
    place_text,
    reading_text,
    units_text,
)
from tau_sim.simulator.world import Action, Database, Domain, Task


def autopay_methods(user: User) -> list[PaymentMethod]:
    """The customer's methods autopay can use (not gift cards)."""
    return [m for m in user.payment_methods if m.source != "gift_card"]


def _other_tariff(opening: Action) -> Action:
    """The account opened on another tariff."""
    return replaced(
        opening, tariff_id="T-GV" if opening.arguments["tariff_id"] != "T-GV" else "T-SV"
    )


class MoveService(Chain, UtilitiesIntent):
    """Move service: final readings, close, open, the balance moved, autopay; one of them later.

    One meter: the balance is moved as asked, autopay comes up later; two meters (five writes
    already): the balance transfer is the need raised later.
    """

    name = "move_service"
    tier = "hard"
    challenges = frozenset({"long", "later"})
    slips = (changed("open_account", _other_tariff), left_out("transfer_balance"))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(s: Supply) -> bool:
            return (
                s.tariff.available
                and s.account.billed_to < TODAY.isoformat()
                and bool(autopay_methods(s.user))
            )

        supply = pick_supply(db, rng, fits)
        if supply is None:
            return None
        vacant: Premise | None = pick(db, rng, "premises", lambda p: not p.account_id)
        if vacant is None:
            return None
        reads = [
            supply.read(),
            Action(
                "find_premise_by_address",
                {"address1": vacant.address.address1, "zip": vacant.address.zip},
            ),
        ]
        tariff = supply.tariff
        if rng.random() < 0.5:
            tariffs: list[Tariff] = [record(db, "tariffs", t) for t in db.keys("tariffs")]
            tariff = rng.choice([t for t in tariffs if t.available and t != supply.tariff])
            reads.append(Action("list_tariffs", {}))
        writes, said = [], []
        for meter in supply.meters:
            value = new_value(rng, meter, supply.last[meter.meter_id])
            writes.append(
                Action("record_final_reading", {"meter_id": meter.meter_id, "value": value})
            )
            said.append((meter, value))
        old_id = supply.account.account_id
        writes.append(Action("close_account", {"account_id": old_id}))
        opened = {"user_id": supply.user.user_id, "premise_id": vacant.premise_id}
        writes.append(Action("open_account", {**opened, "tariff_id": tariff.tariff_id}))
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        new_id = results[-1]["account_id"]
        if results[-2]["balance"] <= 0:
            return None
        writes.append(
            Action("transfer_balance", {"from_account_id": old_id, "to_account_id": new_id})
        )
        method = rng.choice(autopay_methods(supply.user))
        dual = len(supply.meters) > 1
        if not dual:  # five writes at most: a second meter leaves no room for autopay
            autopay = {"account_id": new_id, "payment_method_id": method.id}
            writes.append(Action("set_autopay", autopay))
        tail = replay_actions(domain, db, writes[len(results) :])
        if tail is None:
            return None
        owed = money_text(tail[0]["balance"])
        known = {
            **supply.known,
            "new_address": place_text(vacant.address),
            "tariff": tariff.name,
        }
        if not dual:
            known["payment_method"] = method_text(method)
        for meter, value in said:
            known["reading" if meter.fuel == ELECTRICITY else "gas_reading"] = str(value)
        moving = (
            "I want the old account's final balance moved onto the new account, so I pay it "
            "there, and I want to know what the new account then owes."
        )
        later = (
            "Oh, and while I have you, could you also move the old account's final balance onto "
            "the new account? I'd like to pay it all there. What will the new account owe then?"
            if dual
            else "Oh, and while I have you, could you also set up autopay on the new account, "
            f"paid from {method_text(method)}?"
        )
        same = "the same tariff I have now" if tariff == supply.tariff else "a new tariff"
        who = self.identity(db, supply.user.user_id, rng)
        actions = [*gold_reads(who, *reads), *writes]
        return self.task(
            domain,
            who,
            goal=f"I am moving today from {place_text(supply.premise.address)} to "
            f"{place_text(vacant.address)}. My final readings at the old place: "
            f"{' and '.join(reading_text(m, v) for m, v in said)}. I want "
            f"{account_text(supply.premise.address)} closed and a new account opened at the "
            f"new address on {same}, the {tariff.name} tariff."
            + ("" if dual else f" {moving}")
            + f" I want the new account number. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I'm moving house today and need my energy moved with me.",
                "Hello, I'm leaving my home today and moving to a place you supply.",
                "Hi, can you stop my supply here and start it at my new address?",
                "Hello, I need to close my account and open one at my new home.",
                "Good morning, it's moving day: I need my energy account sorted.",
                "Hi there, I'm relocating and want to keep you as my supplier.",
            ),
            known=known,
            actions=actions,
            outputs=[new_id, owed],
            summary=f"move {old_id} to {vacant.premise_id} on {tariff.tariff_id}, then "
            + ("the balance moved (later)" if dual else "the balance moved, autopay (later)"),
            later=later,
            later_at=len(actions) - 1,
        )


class BillPayAutopay(Chain, UtilitiesIntent):
    """A billing round: readings checked, a bill, a payment capped by the user, then autopay."""

    name = "bill_pay_autopay"
    tier = "hard"
    challenges = frozenset({"long", "conditional"})
    slips = (misread_first, left_out("make_payment"), changed("make_payment", less(10.0)))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(s: Supply) -> bool:
            return s.account.billed_to < TODAY.isoformat() and bool(autopay_methods(s.user))

        supply = pick_supply(db, rng, fits)
        if supply is None:
            return None
        reads: list[Action] = [supply.read()]
        writes: list[Action] = []
        known = dict(supply.known)
        said, units = [], []
        for meter in supply.meters:
            last = supply.last[meter.meter_id]
            value = new_value(rng, meter, last)
            reads.append(Action("get_meter_readings", {"meter_id": meter.meter_id}))
            reads.append(Action("calculate", {"expression": f"{value} - {last.value}"}))
            writes.append(
                Action("submit_meter_reading", {"meter_id": meter.meter_id, "value": value})
            )
            known["reading" if meter.fuel == ELECTRICITY else "gas_reading"] = str(value)
            said.append(reading_text(meter, value))
            units.append(units_text(value - last.value, meter.unit))
        writes.append(Action("create_bill", {"account_id": supply.account.account_id}))
        billed = replay_actions(domain, db, writes)
        if billed is None:
            return None
        balance = billed[-1]["balance"]
        cap = float(rng.choice((100, 150, 200, 250, 300)))
        amount = min(cap, balance)
        method = rng.choice(autopay_methods(supply.user))
        account_id = supply.account.account_id
        paying = {"account_id": account_id, "amount": amount, "payment_method_id": method.id}
        tail = [
            Action("make_payment", paying),
            Action("set_autopay", {"account_id": account_id, "payment_method_id": method.id}),
        ]
        paid = replay_actions(domain, db, tail)
        if paid is None or amount <= 0:
            return None
        known["amount"] = f"at most {money_text(cap)}"
        known["payment_method"] = method_text(method)
        paperless = ""
        if len(supply.meters) == 1 and not supply.account.paperless and rng.random() < 0.5:
            tail.append(
                Action("set_paperless_billing", {"account_id": account_id, "enabled": True})
            )
            paperless = " I also want paperless billing on that account."
            if replay_actions(domain, db, tail[-1:]) is None:
                return None
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"For {account_text(supply.premise.address)} I read my meters today: "
            f"{' and '.join(said)}. Check them against the readings you have on file and tell "
            "me how much I used on each meter since the last reading. Record them and issue a "
            f"bill now. Then I pay from {method_text(method)}: if the new balance is more than "
            f"{money_text(cap)}, I pay {money_text(cap)}; if not, all of it. Then I want "
            f"autopay on that account from the same method, and to know what I still owe."
            f"{paperless} {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I'd like to sort out my energy account properly today.",
                "Hello, I have readings, I want a bill, and I want to pay it and set up autopay.",
                "Hi, I'm fed up with estimates. Readings, a bill, a payment, then autopay please.",
                "Hello, I want to get my bills in order and stop paying by hand.",
                "Good evening, a few things on my account: readings, a bill and payments.",
            ),
            known=known,
            actions=[*gold_reads(who, *reads), *writes, *tail],
            outputs=[
                *units,
                money_text(billed[-1]["bill"]["total"]),
                money_text(paid[0]["balance"]),
            ],
            summary=f"readings, bill, {money_text(amount)} paid, autopay on {account_id}",
        )
