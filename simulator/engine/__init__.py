"""One conversation: the bus, the three actors, the referee, the judge and the failure reasons.

``run_conversation`` (``conversation``) is what the runner calls for one grid cell; the rest is the
machinery it wires together.

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.engine.actors import (
        AgentActor,
        EnvActor,
        UserActor,
    )
    from tau_sim.simulator.engine.bus import (
        AGENT,
        ENV,
        INBOX_SIZE,
        ROLES,
        USER,
        Bus,
        Channel,
        Inbox,
        LiveFeed,
        Outbox,
        Subscriber,
        route,
    )
    from tau_sim.simulator.engine.conversation import (
        log,
        run_conversation,
    )
    from tau_sim.simulator.engine.failures import (
        DETAIL_CHARS,
        FAILURE_EVIDENCE,
        FAILURE_KINDS,
        Failure,
        diagnose,
        diagnose_task,
        state_diff,
    )
    from tau_sim.simulator.engine.judging import (
        JUDGE_ROLE,
        SYSTEM,
        UNREADABLE,
        AssertionJudge,
        JudgeFailed,
        check_judge_name,
        decode_verdicts,
        judge_prompt,
        transcript_lines,
    )
    from tau_sim.simulator.engine.referee import (
        Referee,
    )
    from tau_sim.simulator.engine.usage import (
        usage_event,
    )

MODULE_OF = {
    "AGENT": "bus",
    "AgentActor": "actors",
    "AssertionJudge": "judging",
    "Bus": "bus",
    "Channel": "bus",
    "DETAIL_CHARS": "failures",
    "ENV": "bus",
    "EnvActor": "actors",
    "FAILURE_EVIDENCE": "failures",
    "FAILURE_KINDS": "failures",
    "Failure": "failures",
    "INBOX_SIZE": "bus",
    "Inbox": "bus",
    "JUDGE_ROLE": "judging",
    "JudgeFailed": "judging",
    "LiveFeed": "bus",
    "Outbox": "bus",
    "ROLES": "bus",
    "Referee": "referee",
    "SYSTEM": "judging",
    "Subscriber": "bus",
    "UNREADABLE": "judging",
    "USER": "bus",
    "UserActor": "actors",
    "check_judge_name": "judging",
    "decode_verdicts": "judging",
    "diagnose": "failures",
    "diagnose_task": "failures",
    "judge_prompt": "judging",
    "log": "conversation",
    "route": "bus",
    "run_conversation": "conversation",
    "state_diff": "failures",
    "transcript_lines": "judging",
    "usage_event": "usage",
}
"""The module of this package that defines each public name."""

__all__ = [
    "AGENT",
    "DETAIL_CHARS",
    "ENV",
    "FAILURE_EVIDENCE",
    "FAILURE_KINDS",
    "INBOX_SIZE",
    "JUDGE_ROLE",
    "ROLES",
    "SYSTEM",
    "UNREADABLE",
    "USER",
    "AgentActor",
    "AssertionJudge",
    "Bus",
    "Channel",
    "EnvActor",
    "Failure",
    "Inbox",
    "JudgeFailed",
    "LiveFeed",
    "Outbox",
    "Referee",
    "Subscriber",
    "UserActor",
    "check_judge_name",
    "decode_verdicts",
    "diagnose",
    "diagnose_task",
    "judge_prompt",
    "log",
    "route",
    "run_conversation",
    "state_diff",
    "transcript_lines",
    "usage_event",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
