"""The banking intents' base class and the account, card and transaction helpers they share."""

from __future__ import annotations

from tau_sim.domains.banking.data import CHECKING, Account, Transaction, User, transaction_id
from tau_sim.domains.banking.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.identity import ACCOUNT_PIN
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task


class BankingIntent(CustomerIntent):
    """A bank customer who proves their identity with account number and PIN."""

    factors = ((ACCOUNT_PIN, 1.0),)
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the mailing address; the last write left out."""
        extra = Action("update_mailing_address", {"user_id": self.profile_user(task), **ELSEWHERE})
        reads = [a for a in task.actions if a.name not in domain.toolkit.endings]
        return [[*reads, extra], *self.last_write_left_out(domain, task)]


# ---- sampling helpers -------------------------------------------------------------------------


pick_user = picker("users", User)


def accounts_of(db: Database, user: User) -> list[Account]:
    """The customer's accounts, checking first."""
    return [record(db, "accounts", a) for a in user.accounts]


def history(db: Database, account: Account) -> list[Transaction]:
    """The account's transactions, newest first."""
    return [
        record(db, "transactions", transaction_id(account.account_id, n))
        for n in range(account.transaction_count, 0, -1)
    ]


def checking(db: Database, user: User) -> Account:
    """The customer's checking account."""
    return next(a for a in accounts_of(db, user) if a.kind == CHECKING)


def nameable(txns: list[Transaction], txn: Transaction) -> bool:
    """Whether ``txn`` is the only one of ``txns`` with its merchant and date."""
    same = [t for t in txns if t.description == txn.description and t.date == txn.date]
    return len(same) == 1


def holder(db: Database, account_id: str) -> User:
    """The customer who holds account ``account_id``."""
    account: Account = record(db, "accounts", account_id)
    user: User = record(db, "users", account.user_id)
    return user


def transactions_read(account: Account) -> Action:
    """The read of ``account``'s transactions."""
    return Action("get_account_transactions", {"account_id": account.account_id})
