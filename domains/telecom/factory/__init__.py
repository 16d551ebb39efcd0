"""Telecom task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the line helpers the themes share; ``lines`` changes
plans, add-ons and a line's status, ``phone`` fixes the phone with the user,
``billing`` pays and disputes bills.

The hard tier: ``hard_phone`` troubleshoots phones with two to four faults at once
(``faults``; the manual's steps in ``troubleshoot``), ``hard_account`` holds a mixed dispute,
a disproven payment and a line found by its description.

Most of them need the user's hands on the phone (dual control): the gold path holds user
steps (calls of the phone's tools, ``domains.telecom.device``) that the agent must ask for,
and the grader compares the phone's state as well as the account's.
"""

from __future__ import annotations

from tau_sim.domains.telecom.factory.billing import (
    DisputeCharge,
    DisputeOverCap,
    PayAndResume,
    ResumeWithoutPayment,
)
from tau_sim.domains.telecom.factory.hard_account import (
    ClaimedPaidResume,
    DisputeWithPlanCharge,
    SuspendDescribedLine,
)
from tau_sim.domains.telecom.factory.hard_phone import (
    TroubleshootFour,
    TroubleshootIfUsedUp,
    TroubleshootLater,
    TroubleshootThree,
    TroubleshootTwo,
    TroubleshootWithCredit,
)
from tau_sim.domains.telecom.factory.lines import (
    AddDataAddon,
    ChangePlan,
    ResumeLine,
    SuspendLostPhone,
)
from tau_sim.domains.telecom.factory.phone import FixMobileData, FixNoService, RoamingAbroad

__all__ = ["INTENTS"]

INTENTS = (
    ChangePlan(),
    AddDataAddon(),
    RoamingAbroad(),
    FixNoService(),
    FixMobileData(),
    PayAndResume(),
    ResumeWithoutPayment(),
    DisputeCharge(),
    DisputeOverCap(),
    SuspendLostPhone(),
    ResumeLine(),
    TroubleshootTwo(),
    TroubleshootThree(),
    TroubleshootFour(),
    TroubleshootLater(),
    TroubleshootWithCredit(),
    TroubleshootIfUsedUp(),
    DisputeWithPlanCharge(),
    ClaimedPaidResume(),
    SuspendDescribedLine(),
)
