"""Hard banking intents with long horizons: three to five writes over cards and accounts.

A stolen wallet (freeze, replace, perhaps a new address, then a later transfer) and a month's
clean-up of an overdrawn account (cover it, reverse its overdraft fee, dispute charges, then a
later freeze of a card left behind).
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.access import replacement_id, replacement_last_four
from tau_sim.domains.banking.data import (
    ACTIVE,
    EXPEDITED_FEE,
    Card,
    Transaction,
    User,
    dispute_id,
)
from tau_sim.domains.banking.factory.cards import cards_of
from tau_sim.domains.banking.factory.common import (
    CLAIMS,
    BankingIntent,
    account_read,
    checking,
    describable,
    describe,
    may_reverse,
    open_fees,
    pick_user,
    room_now,
    round_amount,
    savings,
    transactions_read,
    transfer_action,
)
from tau_sim.domains.banking.scenario import card_text, fee_text, gold_reads
from tau_sim.domains.kit.factory.base import listing, one_of
from tau_sim.domains.kit.factory.chains import Chain, left_out
from tau_sim.domains.kit.payments import balance_text, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


def _card_read(card: Card) -> Action:
    return Action("get_card_details", {"card_id": card.card_id})


class StolenWallet(Chain, BankingIntent):
    """A stolen or lost card: freeze, replace (maybe to a new address); later, a transfer."""

    name = "stolen_wallet"
    tier = "hard"
    challenges = frozenset({"long", "later"})
    slips = (left_out("freeze_card"), left_out("transfer_between_accounts"))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(u: User) -> bool:
            sav = savings(db, u)
            chk = checking(db, u)
            active = [c for c in cards_of(db, u) if c.status == ACTIVE]
            return bool(active) and sav is not None and room_now(sav) >= 50 and chk.available >= 30

        user = pick_user(db, rng, fits)
        if user is None:
            return None
        card = rng.choice([c for c in cards_of(db, user) if c.status == ACTIVE])
        chk, sav = checking(db, user), savings(db, user)
        assert sav is not None
        problem = rng.choice(("lost", "stolen"))
        shipping = rng.choice(("standard", "expedited"))
        moved = rng.random() < 0.5
        amount = round_amount(rng, room_now(sav), 20)
        who = self.identity(db, user.user_id, rng)
        known = {
            "card": card_text(card),
            "card_problem": problem,
            "shipping": shipping,
            "amount": money_text(amount),
            "from_account": "my savings account",
            "to_account": "my checking account",
        }
        writes: list[Action] = []
        if moved:
            address = random_address(rng)
            known["new_address"] = address_text(address)
            writes.append(
                Action("update_mailing_address", {"user_id": user.user_id, **address_args(address)})
            )
        writes += [
            Action("freeze_card", {"card_id": card.card_id}),
            Action(
                "replace_card", {"card_id": card.card_id, "reason": problem, "shipping": shipping}
            ),
        ]
        fee = EXPEDITED_FEE if shipping == "expedited" else 0.0
        first = [*gold_reads(who, _card_read(card)), *writes]
        after = money(chk.balance - fee + amount)
        outputs = [replacement_last_four(replacement_id(card)), balance_text(after)]
        outputs += [money_text(EXPEDITED_FEE)] if fee else []
        happened = "my wallet was stolen" if problem == "stolen" else "I lost my wallet"
        return self.task(
            domain,
            who,
            goal=f"{happened[0].upper()}{happened[1:]} with {card_text(card)} in it. I want the "
            f"card blocked and a new one sent ({shipping} shipping). I have seen no charge I do "
            "not recognise. I want the last four digits of the new card"
            + (" and what the shipping costs" if fee else "")
            + "."
            + (" I moved recently: the new card must go to my new address." if moved else "")
            + f" {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, {happened} and my debit card was in it.",
                "Hello, I need to block my card right away and get a new one.",
                f"Help, {happened}! Can you stop my card?",
                "Hi, my debit card is gone and I need a replacement.",
            ),
            known=known,
            actions=[
                *first,
                account_read(sav),
                transfer_action(sav, chk, amount),
                *(
                    [
                        Action(
                            "calculate",
                            {"expression": f"{chk.balance:.2f} - {fee:.2f} + {amount:.2f}"},
                        )
                    ]
                    if fee
                    else []
                ),
            ],
            outputs=outputs,
            summary=f"{problem} card {card.card_id}: freeze, replace ({shipping})"
            + (", new address" if moved else "")
            + f"; later {money_text(amount)} from savings",
            later=one_of(
                rng,
                f"Oh, and while I have you, could you also move {money_text(amount)} from my "
                "savings account to my checking account? I'll need cash until the card comes.",
                f"One more thing: please transfer {money_text(amount)} from savings into my "
                "checking account.",
            ),
            later_at=len(first),
        )


class MonthCleanup(Chain, BankingIntent):
    """An overdrawn checking account set right, then a card frozen.

    Cover it from savings, reverse the overdraft fee, dispute two purchases; later,
    freeze a card the customer left somewhere.
    """

    name = "month_cleanup"
    tier = "hard"
    challenges = frozenset({"long", "later", "search"})
    slips = (left_out("reverse_fee"), left_out("freeze_card"))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        count = 2

        def charges(u: User) -> list[Transaction]:
            return describable(db, u, True)

        def fits(u: User) -> bool:
            sav = savings(db, u)
            chk = checking(db, u)
            fees = open_fees(db, u, lambda t: t.description == "Overdraft fee")
            return (
                chk.balance < 0
                and may_reverse(u)
                and sav is not None
                and len(fees) == 1
                and len(charges(u)) >= count
                and any(c.status == ACTIVE for c in cards_of(db, u))
                and room_now(sav) >= 100 * (int(-chk.balance // 100) + 1)
            )

        user = pick_user(db, rng, fits)
        if user is None:
            return None
        chk, sav = checking(db, user), savings(db, user)
        assert sav is not None
        fee = open_fees(db, user, lambda t: t.description == "Overdraft fee")[0]
        amount = float(100 * (int(-chk.balance // 100) + 1))
        disputed = rng.sample(charges(user), count)
        reason = rng.choice(CLAIMS)
        card = rng.choice([c for c in cards_of(db, user) if c.status == ACTIVE])
        after = money(chk.balance + amount - fee.amount)
        who = self.identity(db, user.user_id, rng)
        named = listing([describe(t) for t in disputed])
        first = [
            *gold_reads(
                who,
                account_read(sav),
                transactions_read(chk),
                *(
                    Action("get_transaction_details", {"transaction_id": t.transaction_id})
                    for t in disputed
                ),
            ),
            transfer_action(sav, chk, amount),
            Action("reverse_fee", {"transaction_id": fee.transaction_id}),
            *(
                Action("file_dispute", {"transaction_id": t.transaction_id, "reason": reason})
                for t in disputed
            ),
            Action(
                "calculate",
                {"expression": f"{chk.balance:.2f} + {amount:.2f} + {-fee.amount:.2f}"},
            ),
        ]
        return self.task(
            domain,
            who,
            goal=f"My checking account is overdrawn. I want {money_text(amount)} moved from my "
            f"savings account into it, {fee_text(fee)} refunded, and {named} disputed ({reason}; "
            "I made the purchases myself). I want the dispute numbers and my checking balance "
            f"after all of it. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, my checking account went negative and I need to sort out a few things.",
                "Hello, I'm overdrawn, I got a fee, and some charges are wrong.",
                "Hi, I need to clean up my checking account: overdraft, a fee and some charges.",
                "Hey, can you help me fix my account? It's overdrawn and there are bad charges.",
            ),
            known={
                "amount": money_text(amount),
                "from_account": "my savings account",
                "to_account": "my checking account",
                "fee": fee_text(fee),
                "transaction": named,
                "dispute_reason": reason,
                "card": card_text(card),
            },
            actions=[*first, _card_read(card), Action("freeze_card", {"card_id": card.card_id})],
            outputs=[balance_text(after), *(dispute_id(t.transaction_id) for t in disputed)],
            summary=f"cover {chk.account_id} with {money_text(amount)}, reverse "
            f"{fee.transaction_id}, dispute {count}; later freeze {card.card_id}",
            later=one_of(
                rng,
                f"Oh, and while I have you, could you also freeze {card_text(card)}? I think I "
                "left it at a restaurant.",
                f"One more thing: I can't find {card_text(card)}, can you freeze it for now?",
            ),
            later_at=len(first),
        )
