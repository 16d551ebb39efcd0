"""Utilities intents about an account: tariff switches, exit fees, moving out and home."""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import can_pay, method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, replay_actions
from tau_sim.domains.utilities.data import FIXED, TODAY, Premise, Tariff
from tau_sim.domains.utilities.factory.common import (
    Supply,
    UtilitiesIntent,
    account_of,
    misread_first,
    pick_supply,
    readings,
)
from tau_sim.domains.utilities.scenario import account_text, gold_reads, place_text
from tau_sim.simulator.world import Action, Database, Domain, Task

# ---- tariffs ----------------------------------------------------------------------------------


def _targets(db: Database, supply: Supply) -> list[Tariff]:
    tariffs: list[Tariff] = [record(db, "tariffs", t) for t in db.keys("tariffs")]
    return [
        t
        for t in tariffs
        if t.available and t.kind == FIXED and t.tariff_id != supply.tariff.tariff_id
    ]


def _switch(supply: Supply, target: Tariff) -> Action:
    """The switch of ``supply``'s account to ``target``."""
    return Action(
        "change_tariff", {"account_id": supply.account.account_id, "tariff_id": target.tariff_id}
    )


class SwitchTariff(UtilitiesIntent):
    """Switch to a fixed tariff; an early exit from a fixed term costs its exit fee."""

    name = "switch_tariff"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: True)
        if supply is None:
            return None
        target = rng.choice(_targets(db, supply))
        change = _switch(supply, target)
        results = replay_actions(domain, db, [change])
        if results is None:
            return None
        fee = results[0]["exit_fee_charged"]
        until = results[0]["account"]["fixed_until"]
        fee_note = (
            "I know leaving my current fixed deal early may cost an exit fee; I accept it, "
            "but I want to know how much it is. "
            if fee
            else ""
        )
        look = [Action("list_tariffs", {})]
        rates = ""
        if rng.random() < 0.5:
            look.append(Action("get_tariff_details", {"tariff_id": target.tariff_id}))
            rates = "I want to know its electricity unit rate. "
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to switch {account_text(supply.premise.address)} to the {target.name} "
            f"tariff. {fee_note}{rates}I want to know until when the new price is fixed. "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to move to your {target.name} tariff.",
                "Hello, I want to lock in a fixed energy price.",
                "Hi, I'd like to change my tariff to a fixed one.",
                f"Hello, is {target.name} still open? I'd like to switch to it.",
                "Good afternoon, I want a fixed deal instead of my current tariff.",
            ),
            known={**supply.known, "tariff": target.name, "current_tariff": supply.tariff.name},
            actions=[*gold_reads(who, supply.read(), *look), change],
            outputs=([money_text(fee)] if fee else [])
            + [until]
            + ([f"{target.electricity.unit_rate}"] if rates else []),
            summary=f"switch {supply.account.account_id} to {target.tariff_id}"
            + (f" (exit fee {money_text(fee)})" if fee else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another fixed tariff than the one asked for."""
        change = task.actions[-1]
        db = domain.new_database()
        account = account_of(domain, task)
        assert account is not None
        others = [
            t
            for t in _targets(db, Supply(db, account))
            if t.tariff_id != change.arguments["tariff_id"]
        ]
        wrong = self.last_write_changed(domain, task, tariff_id=others[0].tariff_id)
        return [*super().mistakes(domain, task), wrong]


class WaiveExitFee(Refuses, UtilitiesIntent):
    """Forbidden: switch only if the exit fee is waived; refuse, saying the fee."""

    name = "waive_exit_fee"
    forbidden = True
    rules = ("exit-fee-never-waived",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.exit_fee > 0)
        if supply is None:
            return None
        target = rng.choice([t for t in _targets(db, supply)])
        reads = [supply.read()]
        if rng.random() < 0.5:
            reads.append(Action("get_tariff_details", {"tariff_id": supply.tariff.tariff_id}))
        if rng.random() < 0.5:
            reads.append(Action("list_tariffs", {}))
        who = self.identity(db, supply.user.user_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"I want to switch {account_text(supply.premise.address)} to the {target.name} "
            "tariff, but only if you waive the exit fee of my current fixed deal: I won't pay "
            "it. If the agent refuses to waive it, I want to know how much the fee is and when "
            "my current fixed term ends, and I keep my current tariff.",
            demand="the exit fee of my current fixed deal waived",
            opening=one_of(
                rng,
                f"Hi, I want to move to {target.name}, but I'm not paying any exit fee.",
                "Hello, can you waive the exit fee if I switch tariffs?",
                "Hi, I'd switch tariff today if you drop the exit fee.",
                "Hello, I want out of my fixed deal, fee-free.",
                f"Good morning, I'm after {target.name}; what about the exit fee, can it go?",
            ),
            known={**supply.known, "tariff": target.name, "current_tariff": supply.tariff.name},
            actions=gold_reads(who, *reads),
            outputs=[money_text(supply.exit_fee), supply.account.fixed_until],
            summary=f"waive exit fee on {supply.account.account_id}: refuse",
        )
        return refusing(task, _switch(supply, target))  # made anyway, the fee charged


# ---- moving -----------------------------------------------------------------------------------


class MoveOut(UtilitiesIntent):
    """Move out: final readings, then close the account (two or three writes)."""

    name = "move_out"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: True)
        if supply is None or supply.account.billed_to >= TODAY.isoformat():
            return None
        writes, known, said = readings(rng, supply, "record_final_reading")
        writes.append(Action("close_account", {"account_id": supply.account.account_id}))
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        owed = results[-1]["balance"]
        outputs = [money_text(owed)]
        settle = "I want to know the final balance I will owe."
        methods = [m for m in supply.user.payment_methods if can_pay(m, owed)]
        if owed > 0 and methods and rng.random() < 0.5:
            method = rng.choice(methods)
            pay = {"account_id": supply.account.account_id, "amount": owed}
            writes.append(Action("make_payment", {**pay, "payment_method_id": method.id}))
            known["payment_method"] = method_text(method)
            settle = (
                f"I want to know the final balance and pay all of it now with "
                f"{method_text(method)}."
            )
            if replay_actions(domain, db, writes[-1:]) is None:
                return None
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I am moving out of {place_text(supply.premise.address)} today and want "
            f"{account_text(supply.premise.address)} closed. My final meter readings: "
            f"{' and '.join(said)}. {settle} I am not moving to an address you supply. "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I'm moving out and need to close my energy account.",
                "Hello, I'm leaving my flat today, what do I need to do about my energy?",
                "Hi, I'm moving abroad and want to close my account.",
                "Hello, I'd like to end my energy supply, I'm moving out today.",
                "Good morning, please close my account, I've sold the house.",
                "Hi, how do I give final readings? I'm moving out.",
            ),
            known={**supply.known, **known},
            actions=[*gold_reads(who, supply.read()), *writes],
            outputs=outputs,
            summary=f"move out of {supply.premise.premise_id}, close {supply.account.account_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a final reading misread by a hundred units (no payment)."""
        misread = [a for a in misread_first(domain, task) if a.name != "make_payment"]
        return [*super().mistakes(domain, task), misread]


class MoveHome(UtilitiesIntent):
    """Move home: final readings, close the old account, open one at the new premise."""

    name = "move_home"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.tariff.available)
        if supply is None or supply.account.billed_to >= TODAY.isoformat():
            return None
        vacant: Premise | None = pick(db, rng, "premises", lambda p: not p.account_id)
        if vacant is None:
            return None
        tariff = supply.tariff
        extra: list[Action] = []
        if rng.random() < 0.5:
            tariffs: list[Tariff] = [record(db, "tariffs", t) for t in db.keys("tariffs")]
            tariff = rng.choice([t for t in tariffs if t.available and t != supply.tariff])
            extra.append(Action("list_tariffs", {}))
        writes, known, said = readings(rng, supply, "record_final_reading")
        writes.append(Action("close_account", {"account_id": supply.account.account_id}))
        writes.append(
            Action(
                "open_account",
                {
                    "user_id": supply.user.user_id,
                    "premise_id": vacant.premise_id,
                    "tariff_id": tariff.tariff_id,
                },
            )
        )
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        find = Action(
            "find_premise_by_address",
            {"address1": vacant.address.address1, "zip": vacant.address.zip},
        )
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I am moving today from {place_text(supply.premise.address)} to "
            f"{place_text(vacant.address)}. My final readings at the old place: "
            f"{' and '.join(said)}. I want "
            "the old account closed and a new account opened at the new address on "
            + (
                f"the same tariff I have now ({supply.tariff.name})."
                if tariff == supply.tariff
                else f"the {tariff.name} tariff."
            )
            + " I want to know the final balance of the old account and the new account "
            f"number. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I'm moving house and want to take my energy supply with me.",
                "Hello, I'm moving today and need my account moved to my new home.",
                "Hi, new house, same supplier: can you move my account?",
                "Hello, I'm changing address today; you supply the new place too.",
                "Good morning, I'd like to transfer my energy to my new home.",
            ),
            known={
                **supply.known,
                **known,
                "new_address": place_text(vacant.address),
                "current_tariff": supply.tariff.name,
                "tariff": tariff.name,
            },
            actions=[*gold_reads(who, supply.read(), find, *extra), *writes],
            outputs=[money_text(results[-2]["balance"]), results[-1]["account_id"]],
            summary=f"move {supply.account.account_id} to {vacant.premise_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the new account on another tariff, and the old one left open."""
        writes = domain.write_actions(task)
        reads = [a for a in task.actions if a not in writes]
        *finals, close, open_ = writes
        other = "T-GV" if open_.arguments["tariff_id"] != "T-GV" else "T-SV"
        elsewhere = replaced(open_, tariff_id=other)
        return [
            *super().mistakes(domain, task),
            [*reads, *finals, close, elsewhere],
            [*reads, open_],
        ]
