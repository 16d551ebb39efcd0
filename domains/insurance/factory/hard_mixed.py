"""Hard insurance intents that mix allowed and refused requests, over several losses or drivers.

Each user asks for several things at once: the gold path makes the writes the policy allows
(claims inside the filing window and covered, household drivers, the payment) and refuses the
other (the excluded flood, the loss reported too late, the friend), saying why and that it
"cannot be filed" or "cannot be added"; the storm's user raises a new need mid-conversation.
"""

from __future__ import annotations

import random

import msgspec

from tau_sim.domains.insurance.access import days_left, driver_charge
from tau_sim.domains.insurance.data import (
    ACTIVE,
    AUTO,
    HOME,
    TODAY,
    Driver,
    Policy,
    User,
    claim_id,
    parse_date,
)
from tau_sim.domains.insurance.factory.common import (
    InsuranceIntent,
    claim_args,
    claim_reads,
    deductible,
    driver_args,
    loss_day,
    loss_types,
    new_driver,
    payer,
    pick_policy,
)
from tau_sim.domains.insurance.rules import FILING_WINDOW_DAYS, NON_HOUSEHOLD, RELATIONSHIPS
from tau_sim.domains.insurance.scenario import driver_text, loss_text
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.factory.chains import Chain, changed, last_write, links, more
from tau_sim.domains.kit.factory.mixed import (
    Mixed,
)
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, replay_actions, sum_action, swapped
from tau_sim.domains.kit.vocab import LAST_NAMES
from tau_sim.simulator.world import Action, Database, Domain, Task


def _clashes(db: Database, policy: Policy, losses: list[tuple[str, str]]) -> bool:
    """Whether a claim on file already covers one of ``losses`` ((loss type, day) pairs)."""
    filed = {(c.loss_type, c.loss_date) for c in (record(db, "claims", i) for i in policy.claims)}
    return any(loss in filed for loss in losses)


def _storm_text(what: str, amount: float) -> str:
    return f"{what}, about {money_text(amount)}"


def _hail_on_home(domain: Domain, task: Task) -> list[Action]:
    """The hail claim filed on the home policy (the wind claim's)."""
    filed = {a.arguments["loss_type"]: a for a in links(task, "file_claim")}
    wind, hail = filed["wind"], filed["hail"]
    return swapped(task, hail, replaced(hail, policy_id=wind.arguments["policy_id"]))


class StormClaims(Chain, Mixed, InsuranceIntent):
    """A storm: file the covered home and car claims, refuse the excluded flood; later a switch."""

    name = "storm_claims"
    rules = ("excluded-loss",)
    challenges = frozenset({"search", "mixed", "long", "later"})
    slips = (_hail_on_home,)
    """After the flood filed and the generic ones (the later need left out)."""

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        home = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.kind == HOME)
        if home is None or "flood" not in home.exclusions:
            return None
        user: User = record(db, "users", home.user_id)
        if len(user.policies) != 2:
            return None
        auto: Policy = record(db, "policies", next(p for p in user.policies if p != home.policy_id))
        day = loss_day(home, rng, 3, FILING_WINDOW_DAYS - 20)
        if auto.kind != AUTO or auto.status != ACTIVE or auto.coverage("comprehensive") is None:
            return None
        if day is None or parse_date(day) < parse_date(auto.start_date):
            return None
        others = [m for m in user.payment_methods if m.id != auto.payment_method_id]
        if not others or _clashes(db, home, [("wind", day), ("flood", day)]):
            return None
        method = rng.choice(others)
        spans = ((20, 150), (8, 60), (30, 200), (3, 15))
        roof, hail, flood, glass = (float(rng.randint(lo, hi) * 100) for lo, hi in spans)
        windshield = rng.random() < 0.5
        car = (
            f"{auto.vehicle.year} {auto.vehicle.make} {auto.vehicle.model}"
            if auto.vehicle
            else "car"
        )
        address = home.property_address.address1 if home.property_address else "my address"
        damage = [
            _storm_text(f"wind tore up the roof of my home at {address}", roof),
            _storm_text(f"hail dented my {car}", hail),
            *([_storm_text("the windshield glass cracked", glass)] if windshield else []),
            _storm_text("flood water filled the basement", flood),
        ]
        known = {
            "storm_damage": "; ".join(damage),
            "storm_date": day,
            "injury": "no, nobody was hurt",
            "payment_method": method_text(method),
        }
        who = self.identity(db, user.user_id, rng)
        h, a = home.policy_id, auto.policy_id
        car_losses = ["hail", *(["glass"] if windshield else [])]
        car_amounts = {"hail": hail, "glass": glass}
        owed = [deductible(home, "wind"), *(deductible(auto, x) for x in car_losses)]
        total = money(sum(owed))
        wind = Action("file_claim", claim_args(home, "wind", day, roof, False))
        actions = [
            *who.actions,
            *(Action("get_policy_details", {"policy_id": p}) for p in user.policies),
            Action("check_coverage", {"policy_id": h, "loss_type": "wind"}),
            Action("check_coverage", {"policy_id": h, "loss_type": "flood"}),
            *(Action("check_coverage", {"policy_id": a, "loss_type": x}) for x in car_losses),
            Action("days_between", {"start_date": day, "end_date": TODAY.isoformat()}),
            *sum_action(owed),
            wind,
            *(
                Action("file_claim", claim_args(auto, x, day, car_amounts[x], False))
                for x in car_losses
            ),
            Action(
                "update_policy_payment_method", {"policy_id": a, "payment_method_id": method.id}
            ),
        ]
        opening = rng.choice(
            (
                "Hi, a storm damaged my house and my car, and my basement flooded. I need to "
                "file claims.",
                "Hello, I need to report storm damage: the roof, the car and a flooded basement.",
                "That storm wrecked my roof, dented my car and flooded the basement. Where do I "
                "start?",
            )
        )
        task = self.task(
            domain,
            who,
            goal=f"On {day} a storm hit: {'; '.join(damage)}. I want a claim filed for each of "
            "them. Nobody was hurt. I want the claim numbers and what my deductibles add up to. "
            f"If the agent says the flood is excluded, I accept that in the end. {CONFIRM}",
            demand="a claim filed for the flooded basement too",
            opening=opening,
            known=known,
            actions=actions,
            outputs=[
                claim_id(h, len(home.claims) + 1),
                *(claim_id(a, len(auto.claims) + n) for n in range(1, len(car_losses) + 1)),
                "excluded",
                "cannot be filed",
                money_text(total),
            ],
            summary=f"storm: wind on {h}, hail on {a}, flood refused; then switch {a}'s payment",
            later=f"Oh, and while I have you, could you also make {method_text(method)} the "
            "payment method on file for my car policy?",
            later_at=len(actions) - 1,
        )
        # the excluded flood filed on the home policy as the user asks
        return refusing(task, replaced(wind, loss_type="flood", estimated_amount=flood))


def _other_relationship(add: Action) -> Action:
    """The driver added with another relationship."""
    other = next(r for r in RELATIONSHIPS if r != add.arguments["relationship"])
    return replaced(add, relationship=other)


class DriversAndFriend(Chain, Mixed, InsuranceIntent):
    """Add two household drivers and pay the new balance; refuse the friend also asked for."""

    name = "drivers_and_friend"
    rules = ("household-only",)
    challenges = frozenset({"mixed", "long"})
    slips = (changed("add_driver", _other_relationship),)
    """After the friend added and the generic ones (the payment left out)."""

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.kind == AUTO)
        if policy is None or len(policy.drivers) > 2 or days_left(policy) < 10:
            return None
        user: User = record(db, "users", policy.user_id)
        kin = rng.sample(RELATIONSHIPS, 2)
        first, second = (new_driver(db, rng, user, r) for r in kin)
        friend = new_driver(db, rng, user, rng.choice(NON_HOUSEHOLD))
        friend = Driver(
            friend.first_name,
            rng.choice(LAST_NAMES),
            friend.birth_date,
            friend.license_number,
            friend.relationship,
        )
        licenses = {d.license_number for d in (first, second, friend)}
        if len(licenses) < 3 or friend.last_name == user.name.last_name:
            return None
        pid = policy.policy_id
        adds = [Action("add_driver", driver_args(policy, d)) for d in (first, second)]
        results = replay_actions(domain, db, adds)
        if results is None:
            return None
        balance = money(results[-1]["balance_due"])
        method = payer(user, balance, rng)
        if method is None or balance <= 0:
            return None
        charges = [driver_charge(policy, age_on(d.birth_date, TODAY))[1] for d in (first, second)]
        who = self.owner(db, policy, rng)
        pay = {"policy_id": pid, "payment_method_id": method.id, "amount": balance}
        switch = method.id != policy.payment_method_id and rng.random() < 0.5
        keep = " and keep it as the policy's payment method from now on" if switch else ""
        on_file = [
            Action(
                "update_policy_payment_method", {"policy_id": pid, "payment_method_id": method.id}
            )
        ]
        opening = rng.choice(
            (
                "Hi, I need to add some drivers to my car insurance and pay what I owe.",
                f"Hello, my {first.relationship}, my {second.relationship} and a friend will be "
                "driving my car. Can you add them?",
                "I want three more people on my auto policy, then I'll pay the balance.",
            )
        )
        task = self.task(
            domain,
            who,
            goal=f"I want to add two drivers to my auto policy {pid}: {driver_text(first)}; and "
            f"{driver_text(second)}. I also want {driver_text(friend)} added; "
            f"{friend.first_name} does not live with us. Then I want to pay the whole balance due "
            f"right away with {method_text(method)}{keep}. I want to know how much my premium "
            "goes up in total and how much I paid. If the agent says only household members can be "
            f"added, I accept that for {friend.first_name} in the end. {CONFIRM}",
            demand=f"{friend.first_name} {friend.last_name} added as a driver too",
            opening=opening,
            known={
                "policy_id": pid,
                "drivers": f"{driver_text(first)}; {driver_text(second)}",
                "friend_driver": driver_text(friend),
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                Action("get_policy_details", {"policy_id": pid}),
                *(
                    Action("quote_driver", {"policy_id": pid, "birth_date": d.birth_date})
                    for d in (first, second)
                ),
                *sum_action(charges),
                *adds,
                *(on_file if switch else []),
                Action("make_payment", pay),
            ],
            outputs=[
                money_text(money(sum(charges))),
                money_text(balance),
                "household",
                "cannot be added",
            ],
            summary=f"add {kin[0]} and {kin[1]} to {pid}, pay {money_text(balance)}; refuse friend",
        )
        # the friend added as the user asks
        return refusing(task, replaced(adds[0], **msgspec.structs.asdict(friend)))


class RecentAndLateClaims(Chain, Mixed, InsuranceIntent):
    """Two losses on one policy: file the recent one, refuse the one past the filing window.

    Mistakes: the late claim filed; the generic ones; the recent one filed with another estimate.
    """

    name = "recent_and_late_claims"
    rules = ("filing-window",)
    challenges = frozenset({"mixed", "conditional"})
    slips = (last_write(more("estimated_amount", 500)),)  # another estimate

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE)
        if policy is None:
            return None
        losses = loss_types(policy, excluded=False)
        recent_day = loss_day(policy, rng, 2, FILING_WINDOW_DAYS - 15)
        old_day = loss_day(policy, rng, FILING_WINDOW_DAYS + 8, 220)
        if len(losses) < 2 or recent_day is None or old_day is None:
            return None
        recent, old = rng.sample(losses, 2)
        if _clashes(db, policy, [(recent, recent_day), (old, old_day)]):
            return None
        amounts = [float(rng.randint(6, 150) * 100) for _ in range(2)]
        late = (TODAY - parse_date(old_day)).days
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        known = {
            "policy_id": pid,
            "losses": f"{loss_text(recent, recent_day, money_text(amounts[0]))}; and "
            f"{loss_text(old, old_day, money_text(amounts[1]))}",
            "injury": "no, nobody was hurt",
        }
        opening = rng.choice(
            (
                f"Hi, I have two claims to file on my {policy.kind} policy.",
                f"Hello, two things happened that my {policy.kind} insurance should pay for.",
                "I need to report two losses, one recent and one from a while back.",
            )
        )
        filed = Action("file_claim", claim_args(policy, recent, recent_day, amounts[0], False))
        task = self.task(
            domain,
            who,
            goal=f"I want two claims filed on my {policy.kind} policy {pid}: "
            f"{known['losses']} (that one I never reported). Nobody "
            "was hurt either time. I want the claim numbers and the deductible. If the agent "
            f"says the older one is too late to claim, I accept that in the end. {CONFIRM}",
            demand=f"the {old} claim of {old_day} filed too",
            opening=opening,
            known=known,
            actions=[
                *who.actions,
                Action("get_policy_details", {"policy_id": pid}),
                *claim_reads(policy, recent, recent_day),
                *claim_reads(policy, old, old_day),
                filed,
            ],
            outputs=[
                claim_id(pid, len(policy.claims) + 1),
                money_text(deductible(policy, recent)),
                f"{late} days",
                "cannot be filed",
            ],
            summary=f"file {recent} on {pid}; refuse {old} {late} days after the loss",
        )
        # the late claim filed as the user asks
        asked = {"loss_type": old, "loss_date": old_day, "estimated_amount": amounts[1]}
        return refusing(task, replaced(filed, **asked))
