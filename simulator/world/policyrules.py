"""The refusal rules a policy marks with ids, so tasks can say which rule they test.

A rule that makes the agent refuse, deny or transfer something ends its sentence or bullet in
``policy.md`` with ``[rule ID]`` (lowercase letters, digits and hyphens, unique within the
policy): "A basic economy reservation cannot be changed. [rule basic-no-change]". An intent
lists the ids its tasks test (``Intent.rules``); the domain suite fails on a rule no task tests
and on an id no rule has.
"""

from __future__ import annotations

import re

from tau_sim.simulator.core.errors import UsageError

RULE = re.compile(r"\[rule ([^\]]*)\]")
"""A rule mark: ``[rule ID]``."""
RULE_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""What an id is: lowercase words of letters and digits joined by hyphens."""


def policy_rules(policy: str) -> dict[str, str]:
    """Rule id -> the line that states it, in the order the policy gives them.

    A malformed or repeated id is a ``UsageError`` naming its line.
    """
    rules: dict[str, str] = {}
    for number, line in enumerate(policy.splitlines(), 1):
        for match in RULE.finditer(line):
            rule = match.group(1)
            if not RULE_ID.fullmatch(rule):
                raise UsageError(
                    f"policy line {number}: [rule {rule}]: an id is lowercase words of letters "
                    "and digits joined by hyphens"
                )
            if rule in rules:
                raise UsageError(f"policy line {number}: [rule {rule}] is given twice")
            rules[rule] = RULE.sub("", line).strip(" -*")
    return rules
