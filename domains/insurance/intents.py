"""Insurance task intents: templates that sample the base database and produce grounded tasks."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

import msgspec

from tau_sim.domains.insurance.access import (
    cancellation_quote,
    coverage_for,
    days_left,
    driver_charge,
    item_charge,
)
from tau_sim.domains.insurance.data import (
    ACTIVE,
    AUTO,
    HOME,
    TODAY,
    Claim,
    Driver,
    Policy,
    User,
    claim_id,
    license_number,
    parse_date,
)
from tau_sim.domains.insurance.rules import (
    FILING_WINDOW_DAYS,
    HUMAN_CLAIM_THRESHOLD,
    ITEM_CATEGORIES,
    LOSS_COVERAGE,
    MIN_DRIVER_AGE,
    NON_HOUSEHOLD,
    RELATIONSHIPS,
)
from tau_sim.domains.insurance.scenario import (
    LOSS_TEXT,
    REASON_TEXT,
    UNKNOWN_IDS,
    driver_text,
    gold_reads,
)
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text, money, money_text
from tau_sim.domains.kit.people import Ids
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent, swap_last
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task

_CONFIRM = "When the agent lists the details and asks for confirmation, say yes."


class InsuranceIntent(CustomerIntent):
    """A policyholder: email (50%), name + zip (30%) or account number + PIN; never knows ids."""

    factors = ((EMAIL, 0.5), (NAME_ZIP, 0.3), (ACCOUNT_PIN, 0.2))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the mailing address; the last write left out."""
        return [
            self.stray_write(task, "update_mailing_address", **ELSEWHERE),
            *self.last_write_left_out(domain, task),
        ]


pick_policy = picker("policies", Policy)


def _active(kind: str) -> Callable[[Policy], bool]:
    return lambda p: p.status == ACTIVE and p.kind == kind


def _losses(policy: Policy, *, excluded: bool) -> list[str]:
    """The loss types the tools accept on ``policy`` that are (not) excluded by it."""
    out = []
    for (kind, loss), coverage in LOSS_COVERAGE.items():
        if kind != policy.kind or (loss in policy.exclusions) != excluded:
            continue
        if policy.coverage(loss) is not None or policy.coverage(coverage) is not None:
            out.append(loss)
    return out


def _loss_day(policy: Policy, rng: random.Random, low: int, high: int) -> str | None:
    """A loss date ``low`` to ``high`` days before today inside the policy's term, or None."""
    earliest = parse_date(policy.start_date)
    choices = [d for d in range(low, high + 1) if TODAY - datetime.timedelta(days=d) >= earliest]
    if not choices:
        return None
    return (TODAY - datetime.timedelta(days=rng.choice(choices))).isoformat()


def _claim_args(
    policy: Policy, loss: str, loss_date: str, amount: float, injury: bool
) -> dict[str, object]:
    return {
        "policy_id": policy.policy_id,
        "loss_type": loss,
        "loss_date": loss_date,
        "estimated_amount": amount,
        "injury": injury,
    }


def _claim_known(loss: str, loss_date: str, amount: float, injury: bool) -> dict[str, str]:
    return {
        "loss_type": loss,
        "loss_date": loss_date,
        "estimated_amount": money_text(amount),
        "injury": "yes, someone was hurt" if injury else "no, nobody was hurt",
    }


def _deductible(policy: Policy, loss: str) -> float:
    coverage = policy.coverage(coverage_for(policy, loss))
    assert coverage is not None
    return coverage.deductible


def _claim_reads(policy: Policy, loss: str, loss_date: str) -> list[Action]:
    return [
        Action("check_coverage", {"policy_id": policy.policy_id, "loss_type": loss}),
        Action("days_between", {"start_date": loss_date, "end_date": TODAY.isoformat()}),
    ]


class _ClaimIntent(InsuranceIntent):
    """A claim on an active policy: the loss, its date, the estimate (shared sampling)."""

    def covered_claim(
        self, db: Database, rng: random.Random, kind: str | None = None
    ) -> tuple[Policy, str, str, float] | None:
        """A policy, a covered loss type, a date inside the filing window and an estimate."""
        policy = pick_policy(
            db, rng, lambda p: p.status == ACTIVE and (kind is None or p.kind == kind)
        )
        if policy is None:
            return None
        losses = _losses(policy, excluded=False)
        day = _loss_day(policy, rng, 1, FILING_WINDOW_DAYS - 15)
        if not losses or day is None:
            return None
        return policy, rng.choice(losses), day, float(rng.randint(6, 120) * 100)


class CoverageQuestion(InsuranceIntent):
    """Ask whether a kind of loss is covered, with the deductible and the limit."""

    name = "coverage_question"
    description = "The user asks whether a loss is covered and what the deductible and limit are."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE)
        losses = [] if policy is None else _losses(policy, excluded=False)
        if policy is None or not losses:
            return None
        loss = rng.choice(losses)
        coverage = policy.coverage(coverage_for(policy, loss))
        assert coverage is not None
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        return self.task(
            domain,
            who,
            goal=f"I want to know whether my {policy.kind} policy {pid} covers {loss} (for "
            f"example if {LOSS_TEXT[loss]}), what my deductible would be and up to what limit. "
            "I do not want to file a claim or change anything.",
            opening=f"Hi, does my {policy.kind} insurance cover {loss}?",
            known={"policy_id": pid, "loss_type": loss},
            actions=[
                *gold_reads(who, pid),
                Action("check_coverage", {"policy_id": pid, "loss_type": loss}),
            ],
            outputs=[money_text(coverage.deductible), money_text(coverage.limit)],
            summary=f"{loss} on {pid}: covered, deductible {money_text(coverage.deductible)}",
        )


class FileClaim(_ClaimIntent):
    """File a covered claim within the filing window; learn the claim number and deductible."""

    name = "file_claim"
    description = "The user files a covered claim and learns the claim number and deductible."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = self.covered_claim(db, rng)
        if picked is None:
            return None
        policy, loss, day, amount = picked
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        new_id = claim_id(pid, len(policy.claims) + 1)
        deductible = _deductible(policy, loss)
        return self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want to file a claim on my {policy.kind} "
            f"policy {pid}. The damage is estimated at {money_text(amount)} and nobody was hurt. "
            f"I want the claim number and my deductible. {_CONFIRM}",
            opening=f"Hi, I need to file a claim: {LOSS_TEXT[loss]}.",
            known={"policy_id": pid, **_claim_known(loss, day, amount, False)},
            actions=[
                *gold_reads(who, pid),
                *_claim_reads(policy, loss, day),
                Action("file_claim", _claim_args(policy, loss, day, amount, False)),
            ],
            outputs=[new_id, money_text(deductible)],
            summary=f"file a {loss} claim on {pid} ({money_text(amount)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the claim filed with another estimate."""
        amount = float(task.actions[-1].arguments["estimated_amount"]) + 500
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, estimated_amount=amount),
        ]


class ClaimStatus(InsuranceIntent):
    """Ask for the status of a claim (and what was paid on it)."""

    name = "claim_status"
    description = "The user asks for the status of a claim and any amount paid (information only)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        claim: Claim | None = pick(db, rng, "claims", lambda c: True)
        if claim is None:
            return None
        policy: Policy = record(db, "policies", claim.policy_id)
        who = self.owner(db, policy, rng)
        outputs = [claim.status]
        if claim.paid_amount is not None:
            outputs.append(money_text(claim.paid_amount))
        cid = claim.claim_id
        return self.task(
            domain,
            who,
            goal=f"I filed claim {cid} for {claim.loss_type} on {claim.loss_date} and want to know "
            "its status and, if it was paid, how much. I do not want to change anything.",
            opening=f"Hi, what is happening with my claim {cid}?",
            known={"claim_id": cid},
            actions=[*who.actions, Action("get_claim_details", {"claim_id": cid})],
            outputs=outputs,
            summary=f"status of claim {cid} ({claim.status})",
        )


class WithdrawClaim(InsuranceIntent):
    """Withdraw an open claim (the user settled the damage themselves)."""

    name = "withdraw_claim"
    description = "The user withdraws a claim that is still submitted or under review."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        claim: Claim | None = pick(
            db, rng, "claims", lambda c: c.status in ("submitted", "under review")
        )
        if claim is None:
            return None
        policy: Policy = record(db, "policies", claim.policy_id)
        who = self.owner(db, policy, rng)
        cid = claim.claim_id
        return self.task(
            domain,
            who,
            goal=f"I filed claim {cid} for {claim.loss_type} on {claim.loss_date}, but I paid for "
            "the repair myself and want the claim withdrawn. I want to hear that it is "
            f"withdrawn. {_CONFIRM}",
            opening="Hi, I'd like to withdraw a claim I filed.",
            known={"claim_id": cid},
            actions=[
                *who.actions,
                Action("get_claim_details", {"claim_id": cid}),
                Action("withdraw_claim", {"claim_id": cid}),
            ],
            outputs=["withdrawn"],
            summary=f"withdraw claim {cid} ({claim.status})",
        )


def _new_driver(db: Database, rng: random.Random, user: User, relationship: str) -> Driver:
    """A household member to add, with a fresh license number (drawn from ``rng``)."""
    ids = Ids(rng)
    for _, policy in db.items("policies"):
        if policy.user_id == user.user_id:
            ids.used.update(d.license_number[1:] for d in policy.drivers)
    low = MIN_DRIVER_AGE if relationship == "child" else 18
    high = 30 if relationship == "child" else 80
    born = TODAY.year - rng.randint(low, high)
    birth = datetime.date(born, rng.randint(1, 12), rng.randint(1, 28))
    if birth > TODAY.replace(year=born):  # not yet had this year's birthday: a year younger
        birth = birth.replace(year=born - 1)
    return Driver(
        rng.choice(FIRST_NAMES),
        user.name.last_name,
        birth.isoformat(),
        license_number(rng, ids),
        relationship,
    )


def _driver_args(policy: Policy, driver: Driver) -> dict[str, object]:
    return {
        "policy_id": policy.policy_id,
        "first_name": driver.first_name,
        "last_name": driver.last_name,
        "birth_date": driver.birth_date,
        "license_number": driver.license_number,
        "relationship": driver.relationship,
    }


class _DriverIntent(InsuranceIntent):
    """A household member added to an active auto policy (shared sampling)."""

    def drawn(
        self, db: Database, rng: random.Random, relationships: tuple[str, ...]
    ) -> tuple[Policy, User, Driver, float] | None:
        """An auto policy with room for a driver, its holder, the driver and the charge."""
        policy = pick_policy(db, rng, lambda p: _active(AUTO)(p) and len(p.drivers) < 4)
        if policy is None or days_left(policy) < 10:
            return None
        user: User = record(db, "users", policy.user_id)
        driver = _new_driver(db, rng, user, rng.choice(relationships))
        _, charge = driver_charge(policy, age_on(driver.birth_date, TODAY))
        return policy, user, driver, charge

    def quote(self, policy: Policy, driver: Driver) -> Action:
        """The gold quote of adding ``driver``."""
        return Action(
            "quote_driver", {"policy_id": policy.policy_id, "birth_date": driver.birth_date}
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the driver added with another relationship."""
        paths = super().mistakes(domain, task)
        index = next((i for i, a in enumerate(task.actions) if a.name == "add_driver"), None)
        if index is None:
            return paths
        add = task.actions[index]
        other = next(r for r in RELATIONSHIPS if r != add.arguments["relationship"])
        wrong = Action(add.name, {**add.arguments, "relationship": other})
        return [*paths, [*task.actions[:index], wrong, *task.actions[index + 1 :]]]


class AddDriver(_DriverIntent):
    """Add a household member as a driver; learn the premium change."""

    name = "add_driver"
    description = "The user adds a household member to an auto policy and learns the new premium."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = self.drawn(db, rng, RELATIONSHIPS)
        if drawn is None:
            return None
        policy, _, driver, charge = drawn
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        new_premium = money(policy.premium + charge)
        return self.task(
            domain,
            who,
            goal=f"I want to add {driver_text(driver)} as a driver on my auto policy {pid}. I want "
            f"to know how much my premium goes up and what the new premium is. {_CONFIRM}",
            opening=f"Hi, I'd like to add my {driver.relationship} as a driver on my car "
            "insurance.",
            known={"policy_id": pid, "new_driver": driver_text(driver)},
            actions=[
                *gold_reads(who, pid),
                self.quote(policy, driver),
                Action("add_driver", _driver_args(policy, driver)),
            ],
            outputs=[money_text(charge), money_text(new_premium)],
            summary=f"add {driver.relationship} to {pid}: +{money_text(charge)}",
        )


def _payer(user: User, amount: float, rng: random.Random) -> PaymentMethod | None:
    candidates = [m for m in user.payment_methods if can_pay(m, amount)]
    return rng.choice(candidates) if candidates else None


class AddDriverAndPay(_DriverIntent):
    """Add a driver and pay the whole new balance due at once (two writes)."""

    name = "add_driver_and_pay"
    description = "The user adds a driver, then pays the policy's whole balance due right away."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = self.drawn(db, rng, RELATIONSHIPS)
        if drawn is None:
            return None
        policy, user, driver, charge = drawn
        balance = money(policy.balance_due + charge)
        method = _payer(user, balance, rng)
        if method is None or charge <= 0:
            return None
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        pay = {"policy_id": pid, "payment_method_id": method.id, "amount": balance}
        return self.task(
            domain,
            who,
            goal=f"I want to add {driver_text(driver)} as a driver on my auto policy {pid}, and "
            f"then pay the whole balance due on the policy right away with {method_text(method)}. "
            f"I want to know the premium increase and how much I paid. {_CONFIRM}",
            opening="Hi, I need to add a driver to my policy and pay what I owe.",
            known={
                "policy_id": pid,
                "new_driver": driver_text(driver),
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, pid),
                self.quote(policy, driver),
                Action("add_driver", _driver_args(policy, driver)),
                Action("make_payment", pay),
            ],
            outputs=list(dict.fromkeys([money_text(charge), money_text(balance)])),
            summary=f"add a driver to {pid} and pay {money_text(balance)}",
        )


def _item_text(category: str, value: float) -> str:
    return f"a {category} item appraised at {money_text(value)}"


def _home_policy(db: Database, rng: random.Random) -> Policy | None:
    """An active home policy with at least 10 days left in its term."""
    policy = pick_policy(db, rng, _active(HOME))
    return None if policy is None or days_left(policy) < 10 else policy


class _Scheduling(msgspec.Struct, frozen=True):
    """An item to schedule on a home policy: category, appraised value, the term's charge."""

    policy_id: str
    category: str
    value: float
    charge: float

    @property
    def args(self) -> dict[str, Any]:
        """The arguments of the quote and of the write."""
        return {"policy_id": self.policy_id, "category": self.category, "value": self.value}

    @property
    def text(self) -> str:
        """The item as the user names it."""
        return _item_text(self.category, self.value)


def _scheduling(rng: random.Random, policy: Policy) -> _Scheduling:
    """A random valuable item to schedule on ``policy`` and its charge for the rest of the term."""
    category = rng.choice(sorted(ITEM_CATEGORIES))
    value = float(rng.randint(10, 400) * 100)
    _, charge = item_charge(policy, category, value)
    return _Scheduling(policy.policy_id, category, value, charge)


class AddScheduledItem(InsuranceIntent):
    """Schedule a valuable item on a home policy; learn the premium change."""

    name = "add_scheduled_item"
    description = "The user schedules a valuable item on a home policy and learns the new premium."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = _home_policy(db, rng)
        if policy is None:
            return None
        item = _scheduling(rng, policy)
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        return self.task(
            domain,
            who,
            goal=f"I want to schedule {item.text} on my home policy {pid}. I "
            f"want to know how much the premium goes up and the new premium. {_CONFIRM}",
            opening=f"Hi, I want to add my {item.category} to my home insurance.",
            known={"policy_id": pid, "item": item.text},
            actions=[
                *gold_reads(who, pid),
                Action("quote_scheduled_item", item.args),
                Action("add_scheduled_item", item.args),
            ],
            outputs=[money_text(item.charge), money_text(money(policy.premium + item.charge))],
            summary=f"schedule {item.category} on {pid}: +{money_text(item.charge)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the item scheduled under another category."""
        chosen = task.actions[-1].arguments["category"]
        other = next(c for c in sorted(ITEM_CATEGORIES) if c != chosen)
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, category=other),
        ]


class SwitchPaymentAndAddItem(InsuranceIntent):
    """Change the payment method on file, then schedule an item (two writes)."""

    name = "switch_payment_and_add_item"
    description = "The user changes a home policy's payment method and schedules a valuable item."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = _home_policy(db, rng)
        if policy is None:
            return None
        user: User = record(db, "users", policy.user_id)
        others = [m for m in user.payment_methods if m.id != policy.payment_method_id]
        if not others:
            return None
        method = rng.choice(others)
        item = _scheduling(rng, policy)
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        return self.task(
            domain,
            who,
            goal=f"Two things on my home policy {pid}: I want {method_text(method)} to be the "
            f"payment method on file from now on, and I want to schedule "
            f"{item.text}. I want to know the premium increase. {_CONFIRM}",
            opening="Hi, I want to change how I pay for my home insurance and add an item to it.",
            known={"policy_id": pid, "payment_method": method_text(method), "item": item.text},
            actions=[
                *gold_reads(who, pid),
                Action("quote_scheduled_item", item.args),
                Action(
                    "update_policy_payment_method",
                    {"policy_id": pid, "payment_method_id": method.id},
                ),
                Action("add_scheduled_item", item.args),
            ],
            outputs=[money_text(item.charge)],
            summary=f"switch payment of {pid} and schedule {item.category}",
        )


def _refund_method(user: User, policy: Policy, rng: random.Random) -> PaymentMethod | None:
    gift = [m for m in user.payment_methods if m.source == "gift_card"]
    if gift and rng.random() < 0.3:
        return rng.choice(gift)
    return user.payment_method(policy.payment_method_id)


class CancelPolicy(InsuranceIntent):
    """Cancel an active policy; learn the pro-rated refund and the fee."""

    name = "cancel_policy"
    description = "The user cancels a policy and learns the pro-rated refund less any fee."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.balance_due == 0)
        if policy is None:
            return None
        user: User = record(db, "users", policy.user_id)
        method = _refund_method(user, policy, rng)
        quote = cancellation_quote(policy)
        if method is None or quote.refund <= 0:
            return None
        who = self.owner(db, policy, rng)
        reason = rng.choice(sorted(REASON_TEXT))
        pid = policy.policy_id
        outputs = [money_text(quote.refund)]
        if quote.cancellation_fee:
            outputs.append(money_text(quote.cancellation_fee))
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my {policy.kind} policy {pid} today because "
            f"{REASON_TEXT[reason]}. The refund should go to {method_text(method)}. I want to "
            f"know how much I get back and whether there is a fee. {_CONFIRM}",
            opening=f"Hi, I want to cancel my {policy.kind} insurance.",
            known={
                "policy_id": pid,
                "cancel_reason": reason,
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, pid),
                Action("quote_cancellation", {"policy_id": pid}),
                Action(
                    "cancel_policy",
                    {"policy_id": pid, "reason": reason, "refund_payment_method_id": method.id},
                ),
            ],
            outputs=outputs,
            summary=f"cancel {pid}: refund {money_text(quote.refund)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the policy cancelled for another reason."""
        other = next(r for r in sorted(REASON_TEXT) if r != task.actions[-1].arguments["reason"])
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, reason=other),
        ]


class MakePayment(InsuranceIntent):
    """Pay the whole balance due on a policy with a chosen payment method."""

    name = "make_payment"
    description = "The user pays the balance due of a policy with one of their payment methods."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.balance_due > 0)
        if policy is None:
            return None
        user: User = record(db, "users", policy.user_id)
        balance = policy.balance_due
        method = _payer(user, balance, rng)
        if method is None:
            return None
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        return self.task(
            domain,
            who,
            goal=f"I want to pay off the whole balance due on my {policy.kind} policy {pid} with "
            f"{method_text(method)}. I want to know how much I paid. {_CONFIRM}",
            opening=f"Hi, I'd like to pay what I owe on my {policy.kind} policy.",
            known={"policy_id": pid, "payment_method": method_text(method)},
            actions=[
                *gold_reads(who, pid),
                Action(
                    "make_payment",
                    {"policy_id": pid, "payment_method_id": method.id, "amount": balance},
                ),
            ],
            outputs=[money_text(balance)],
            summary=f"pay {money_text(balance)} on {pid}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and half the balance paid."""
        half = money(float(task.actions[-1].arguments["amount"]) / 2)
        return [*super().mistakes(domain, task), self.last_write_changed(domain, task, amount=half)]


class CancelHomeAndFileAutoClaim(_ClaimIntent):
    """Cancel a home policy (the house was sold) and file a claim on the auto policy."""

    name = "cancel_home_and_file_auto_claim"
    description = "The user cancels a home policy and files a covered claim on an auto policy."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = self.covered_claim(db, rng, AUTO)
        if picked is None:
            return None
        auto, loss, day, amount = picked
        user: User = record(db, "users", auto.user_id)
        homes = [
            h
            for h in (record(db, "policies", p) for p in user.policies)
            if h.kind == HOME and h.status == ACTIVE and h.balance_due == 0
        ]
        if not homes:
            return None
        home: Policy = homes[0]
        quote = cancellation_quote(home)
        method = user.payment_method(home.payment_method_id)
        if method is None or quote.refund <= 0:
            return None
        who = self.owner(db, auto, rng)
        a, h = auto.policy_id, home.policy_id
        cancel = {
            "policy_id": h,
            "reason": "sold the insured property",
            "refund_payment_method_id": method.id,
        }
        return self.task(
            domain,
            who,
            goal=f"Two things: I sold my house, so I want my home policy {h} cancelled today with "
            f"the refund to {method_text(method)}; and on {day} {LOSS_TEXT[loss]}, so I want to "
            f"file a claim on my auto policy {a} (estimate {money_text(amount)}, nobody was "
            f"hurt). I want the refund amount and the claim number. {_CONFIRM}",
            opening="Hi, I sold my house and need to cancel its insurance, and I also need to "
            "file a car claim.",
            known={
                "policy_id_1": h,
                "cancel_reason": "sold the insured property",
                "payment_method": method_text(method),
                "policy_id_2": a,
                **_claim_known(loss, day, amount, False),
            },
            actions=[
                *gold_reads(who, h),
                Action("quote_cancellation", {"policy_id": h}),
                Action("cancel_policy", cancel),
                Action("get_policy_details", {"policy_id": a}),
                *_claim_reads(auto, loss, day),
                Action("file_claim", _claim_args(auto, loss, day, amount, False)),
            ],
            outputs=[money_text(quote.refund), claim_id(a, len(auto.claims) + 1)],
            summary=f"cancel {h} and file a {loss} claim on {a}",
        )


class ExcludedClaimRefusal(_ClaimIntent):
    """Ask to file a claim for a loss the policy excludes: refuse, saying it is excluded."""

    name = "excluded_claim_refusal"
    description = "The user wants a claim for an excluded loss (flood, mold…); the agent refuses."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE)
        losses = [] if policy is None else _losses(policy, excluded=True)
        day = None if policy is None else _loss_day(policy, rng, 1, FILING_WINDOW_DAYS - 15)
        if policy is None or not losses or day is None:
            return None
        loss = rng.choice(losses)
        amount = float(rng.randint(6, 120) * 100)
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        return self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want to file a claim on my {policy.kind} "
            f"policy {pid} for {money_text(amount)}. Nobody was hurt. If the agent says it is "
            "excluded, I accept that and do not ask for anything else.",
            opening=f"Hi, I need to file a claim, {LOSS_TEXT[loss]}.",
            known={"policy_id": pid, **_claim_known(loss, day, amount, False)},
            actions=[
                *gold_reads(who, pid),
                Action("check_coverage", {"policy_id": pid, "loss_type": loss}),
            ],
            outputs=["excluded"],
            summary=f"{loss} claim on {pid}: excluded, refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The excluded claim filed anyway."""
        return [[*task.actions, _filed(task)]]


def _filed(task: Task, injury: bool = False) -> Action:
    """The claim the user asked for, filed although the policy forbids it."""
    known = task.scenario.known_info
    amount = float(known["estimated_amount"].lstrip("$").replace(",", ""))
    pid = known.get("policy_id") or known["policy_id_2"]
    args = {
        "policy_id": pid,
        "loss_type": known["loss_type"],
        "loss_date": known["loss_date"],
        "estimated_amount": amount,
        "injury": injury,
    }
    return Action("file_claim", args)


class LateClaimRefusal(_ClaimIntent):
    """Ask to file a claim reported after the filing window: refuse, saying how late it is."""

    name = "late_claim_refusal"
    description = "The user reports a loss more than 60 days old; the agent refuses the claim."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE)
        losses = [] if policy is None else _losses(policy, excluded=False)
        day = None if policy is None else _loss_day(policy, rng, FILING_WINDOW_DAYS + 5, 200)
        if policy is None or not losses or day is None:
            return None
        loss = rng.choice(losses)
        amount = float(rng.randint(6, 120) * 100)
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        late = (TODAY - parse_date(day)).days
        return self.task(
            domain,
            who,
            goal=f"Back on {day} {LOSS_TEXT[loss]}; I never reported it and now I want to file a "
            f"claim on my {policy.kind} policy {pid} for {money_text(amount)}. Nobody was hurt. "
            "If the agent says it is too late, I accept that and do not ask for anything else.",
            opening=f"Hi, I'd like to file a claim for something that happened a while ago: "
            f"{LOSS_TEXT[loss]}.",
            known={"policy_id": pid, **_claim_known(loss, day, amount, False)},
            actions=[*gold_reads(who, pid), *_claim_reads(policy, loss, day)],
            outputs=[f"{late} days"],
            summary=f"{loss} claim on {pid} {late} days after the loss: refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The late claim filed anyway."""
        return [[*task.actions, _filed(task)]]


class ClaimToHuman(_ClaimIntent):
    """A claim with an injury or above the large-claim threshold: transfer to a human."""

    name = "claim_to_human"
    description = "An injury claim or one above $25,000: the agent transfers, files nothing."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        injury = rng.random() < 0.5
        picked = self.covered_claim(db, rng, AUTO if injury else HOME)
        if picked is None:
            return None
        policy, loss, day, amount = picked
        if injury:
            loss = "collision"
            if policy.coverage("collision") is None:
                return None
        else:
            amount = float(rng.randint(30, 90) * 1000)
            assert amount > HUMAN_CLAIM_THRESHOLD
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        why = "someone was injured" if injury else f"the damage is about {money_text(amount)}"
        summary = f"User {policy.user_id} wants to file a {loss} claim on {pid}: {why}."
        hurt = "My passenger was hurt and went to the hospital." if injury else "Nobody was hurt."
        return self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want to file a claim on my {policy.kind} "
            f"policy {pid} for {money_text(amount)}. {hurt} If the agent says a specialist must "
            "handle it, I agree to be transferred.",
            opening=f"Hi, I need to file a claim right away, {LOSS_TEXT[loss]}.",
            known={"policy_id": pid, **_claim_known(loss, day, amount, injury)},
            actions=[
                *gold_reads(who, pid),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"{loss} claim on {pid} ({why}): transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The claim filed by the agent instead of a human adjuster."""
        injury = task.scenario.known_info["injury"].startswith("yes")
        return [swap_last(task, _filed(task, injury))]


class NonHouseholdDriverRefusal(_DriverIntent):
    """Ask to add a friend or coworker as a driver: only household members may be added."""

    name = "non_household_driver_refusal"
    description = "The user wants a friend or coworker on the auto policy; the agent refuses."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = self.drawn(db, rng, NON_HOUSEHOLD)
        if drawn is None:
            return None
        policy, _, driver, _ = drawn
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        return self.task(
            domain,
            who,
            goal=f"I want to add {driver_text(driver)} as a driver on my auto policy {pid}; they "
            "do not live with me. If the agent says only household members can be added, I "
            "accept that and do not ask for anything else.",
            opening=f"Hi, can I add my {driver.relationship} as a driver on my car insurance?",
            known={"policy_id": pid, "new_driver": driver_text(driver)},
            actions=gold_reads(who, pid),
            outputs=["household"],
            summary=f"add {driver.relationship} to {pid}: not a household member, refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The non-household driver added anyway."""
        known = task.scenario.known_info["new_driver"]
        words = known.replace(",", "").split()
        # "my friend Ava Lee born 1990-01-02 license number D1234567"
        args = {
            "policy_id": task.scenario.known_info["policy_id"],
            "first_name": words[2],
            "last_name": words[3],
            "birth_date": words[5],
            "license_number": words[-1],
            "relationship": words[1],
        }
        return [[*task.actions, Action("add_driver", args)]]


INTENTS: list[Intent] = [
    CoverageQuestion(),
    FileClaim(),
    ClaimStatus(),
    WithdrawClaim(),
    AddDriver(),
    AddDriverAndPay(),
    AddScheduledItem(),
    SwitchPaymentAndAddItem(),
    CancelPolicy(),
    MakePayment(),
    CancelHomeAndFileAutoClaim(),
    ExcludedClaimRefusal(),
    LateClaimRefusal(),
    ClaimToHuman(),
    NonHouseholdDriverRefusal(),
]
