"""Insurance intents about claims: coverage, filing, status, withdrawal, refusals."""

from __future__ import annotations

import random

from tau_sim.domains.insurance.access import coverage_for
from tau_sim.domains.insurance.data import (
    ACTIVE,
    AUTO,
    HOME,
    TODAY,
    Claim,
    Policy,
    claim_id,
    parse_date,
)
from tau_sim.domains.insurance.factory.common import (
    ClaimIntent,
    InsuranceIntent,
    PolicyRef,
    claim_args,
    claim_known,
    claim_reads,
    deductible,
    loss_types,
    pick_policy,
)
from tau_sim.domains.insurance.rules import FILING_WINDOW_DAYS, HUMAN_CLAIM_THRESHOLD
from tau_sim.domains.insurance.scenario import LOSS_TEXT, gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.chains import Chain, last_write, more
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


class CoverageQuestion(InsuranceIntent):
    """Ask whether one or two kinds of loss are covered, with the deductibles and the limits."""

    name = "coverage_question"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE)
        losses = [] if policy is None else loss_types(policy, excluded=False)
        if policy is None or not losses:
            return None
        loss = rng.choice(losses)
        checked = [loss]
        others = [x for x in losses if x != loss and x not in loss and loss not in x]
        if others and rng.random() < 0.5:
            checked.append(rng.choice(others))
        asked = " and ".join(checked)
        outputs = []
        for x in checked:
            coverage = policy.coverage(coverage_for(policy, x))
            assert coverage is not None
            outputs += [money_text(coverage.deductible), money_text(coverage.limit)]
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        ref = PolicyRef(db, policy, rng)
        opening = one_of(
            rng,
            f"Hi, does my {policy.kind} insurance cover {loss}?",
            f"Quick question: am I covered for {loss} on my {policy.kind} policy?",
            f"Hello, what would my {policy.kind} policy pay if {LOSS_TEXT[loss]}?",
        )
        return self.task(
            domain,
            who,
            goal=f"I want to know whether my {ref.text} covers {asked} (for "
            f"example if {LOSS_TEXT[loss]}), what my deductible would be and up to what limit. "
            "I do not want to file a claim or change anything.",
            opening=opening + ref.say,
            known={**ref.known, "loss_type": asked},
            actions=[
                *gold_reads(who, *ref.reads),
                *(Action("check_coverage", {"policy_id": pid, "loss_type": x}) for x in checked),
            ],
            outputs=list(dict.fromkeys(outputs)),
            summary=f"{asked} on {pid}: covered, deductibles and limits {', '.join(outputs)}",
        )


class FileClaim(Chain, ClaimIntent):
    """File a covered claim within the filing window; learn the claim number and deductible."""

    name = "file_claim"
    slips = (last_write(more("estimated_amount", 500)),)  # another estimate

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = self.drawn_claim(db, rng)
        if picked is None:
            return None
        policy, loss, day, amount = picked
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        new_id = claim_id(pid, len(policy.claims) + 1)
        owed = deductible(policy, loss)
        ref = PolicyRef(db, policy, rng)
        return self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want to file a claim on my {ref.text}. The "
            f"damage is estimated at {money_text(amount)} and nobody was hurt. I want the claim "
            f"number and my deductible. {CONFIRM}",
            opening=f"Hi, I need to file a claim: {LOSS_TEXT[loss]}.{ref.say}",
            known={**ref.known, **claim_known(loss, day, amount, False)},
            actions=[
                *gold_reads(who, *ref.reads),
                *claim_reads(policy, loss, day),
                Action("file_claim", claim_args(policy, loss, day, amount, False)),
            ],
            outputs=[new_id, money_text(owed)],
            summary=f"file a {loss} claim on {pid} ({money_text(amount)})",
        )


class ClaimStatus(InsuranceIntent):
    """Ask for the status of a claim, or of two on one policy (and what was paid on them)."""

    name = "claim_status"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        claim: Claim | None = pick(db, rng, "claims", lambda c: True)
        if claim is None:
            return None
        policy: Policy = record(db, "policies", claim.policy_id)
        who = self.owner(db, policy, rng)
        asked = [claim]
        others = [record(db, "claims", c) for c in policy.claims if c != claim.claim_id]
        if others and rng.random() < 0.6:
            asked.append(others[0])
        outputs = []
        for c in asked:
            outputs.append(c.status)
            if c.paid_amount is not None:
                outputs.append(money_text(c.paid_amount))
        cid = claim.claim_id
        ids = " and ".join(c.claim_id for c in asked)
        subject = f"claims {ids}" if len(asked) > 1 else f"claim {cid}"
        also = ""
        if len(asked) > 1:
            also = f" I also want the same for my other claim {asked[1].claim_id}."
        return self.task(
            domain,
            who,
            goal=f"I filed claim {cid} for {claim.loss_type} on {claim.loss_date} and want to know "
            f"its status and, if it was paid, how much.{also} I do not want to change anything.",
            # the opening names every claim asked about: the user holds them all
            opening=one_of(
                rng,
                f"Hi, what is happening with my {subject}?",
                f"Hello, could you check where {subject} stands?",
                f"I'm still waiting to hear about {subject}. Any news?",
            ),
            known={"claim_id": ids},
            actions=[
                *who.actions,
                *(Action("get_claim_details", {"claim_id": c.claim_id}) for c in asked),
            ],
            outputs=list(dict.fromkeys(outputs)),
            summary=f"status of claim {ids} ({', '.join(c.status for c in asked)})",
        )


class WithdrawClaim(InsuranceIntent):
    """Withdraw an open claim (the user settled the damage themselves)."""

    name = "withdraw_claim"

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
            f"withdrawn. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to withdraw my claim {cid}.",
                f"Hello, please cancel claim {cid}, I paid for the repair myself.",
                f"I don't need claim {cid} anymore. Can you close it?",
            ),
            known={"claim_id": cid},
            actions=[
                *who.actions,
                Action("get_claim_details", {"claim_id": cid}),
                Action("withdraw_claim", {"claim_id": cid}),
            ],
            outputs=["withdrawn"],
            summary=f"withdraw claim {cid} ({claim.status})",
        )


class ExcludedClaimRefusal(Refuses, ClaimIntent):
    """Ask to file a claim for a loss the policy excludes: refuse, saying it is excluded."""

    name = "excluded_claim_refusal"
    forbidden = True
    rules = ("excluded-loss",)
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = self.drawn_claim(db, rng, excluded=True)
        if picked is None:
            return None
        policy, loss, day, amount = picked
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        ref = PolicyRef(db, policy, rng)
        opening = one_of(
            rng,
            f"Hi, I need to file a claim, {LOSS_TEXT[loss]}.",
            f"Hello, {LOSS_TEXT[loss]} and I want my {policy.kind} insurance to pay for it.",
            f"I'd like to open a claim on my {policy.kind} policy: {LOSS_TEXT[loss]}.",
        )
        task = self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want to file a claim on my {ref.text} for "
            f"{money_text(amount)}. Nobody was hurt. If the agent says it is "
            "excluded, I accept that in the end and do not ask for anything else.",
            demand=f"my claim on my {ref.text} filed for {money_text(amount)}",
            opening=opening + ref.say,
            known={**ref.known, **claim_known(loss, day, amount, False)},
            actions=[
                *gold_reads(who, *ref.reads),
                Action("check_coverage", {"policy_id": pid, "loss_type": loss}),
            ],
            outputs=["excluded"],
            summary=f"{loss} claim on {pid}: excluded, refuse",
        )
        # the excluded claim filed as the user asks
        return refusing(task, Action("file_claim", claim_args(policy, loss, day, amount, False)))


class LateClaimRefusal(Refuses, ClaimIntent):
    """Ask to file a claim reported after the filing window: refuse, saying how late it is."""

    name = "late_claim_refusal"
    forbidden = True
    rules = ("filing-window",)
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = self.drawn_claim(db, rng, days=(FILING_WINDOW_DAYS + 5, 200))
        if picked is None:
            return None
        policy, loss, day, amount = picked
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        late = (TODAY - parse_date(day)).days
        ref = PolicyRef(db, policy, rng)
        opening = one_of(
            rng,
            "Hi, I'd like to file a claim for something that happened a while ago: "
            f"{LOSS_TEXT[loss]}.",
            f"Hello, a few months back {LOSS_TEXT[loss]}. Can I still claim it?",
            f"I never got round to reporting it, but {LOSS_TEXT[loss]}. I want to claim now.",
        )
        task = self.task(
            domain,
            who,
            goal=f"Back on {day} {LOSS_TEXT[loss]}; I never reported it and now I want to file a "
            f"claim on my {ref.text} for {money_text(amount)}. Nobody was hurt. "
            "If the agent says it is too late, I accept that in the end and ask for nothing else.",
            demand=f"my claim on my {ref.text} filed for {money_text(amount)}",
            opening=opening + ref.say,
            known={**ref.known, **claim_known(loss, day, amount, False)},
            actions=[*gold_reads(who, *ref.reads), *claim_reads(policy, loss, day)],
            outputs=[f"{late} days"],
            summary=f"{loss} claim on {pid} {late} days after the loss: refuse",
        )
        # the late claim filed as the user asks
        return refusing(task, Action("file_claim", claim_args(policy, loss, day, amount, False)))


class ClaimToHuman(Refuses, ClaimIntent):
    """A claim with an injury or above the large-claim threshold: transfer to a human."""

    name = "claim_to_human"
    forbidden = True
    rules = ("injury-to-human", "large-claim-to-human")
    done_at = "instead"
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        injury = rng.random() < 0.5
        picked = self.drawn_claim(db, rng, AUTO if injury else HOME)
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
        task = self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want to file a claim on my {policy.kind} "
            f"policy {pid} for {money_text(amount)}. {hurt} If the agent says a specialist must "
            "handle it, I agree to be transferred in the end.",
            demand=f"my claim on policy {pid} filed for {money_text(amount)}",
            opening=one_of(
                rng,
                f"Hi, I need to file a claim right away, {LOSS_TEXT[loss]}.",
                f"Hello, {LOSS_TEXT[loss]} and I need help with a claim urgently.",
                f"This is urgent: {LOSS_TEXT[loss]}. I have to file a claim.",
            ),
            known={"policy_id": pid, **claim_known(loss, day, amount, injury)},
            actions=[
                *gold_reads(who, pid),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"{loss} claim on {pid} ({why}): transfer",
        )
        # the claim filed by the agent instead of a human adjuster
        return refusing(task, Action("file_claim", claim_args(policy, loss, day, amount, injury)))
