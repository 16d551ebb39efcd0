"""The world a conversation runs in: tools, databases, domains, tasks, slots, user steps, grades.

- ``tools``: ``Tool``, the ``tool`` decorator, ``ToolKind``, ``ToolError``, ``Toolkit``.
- ``database``: ``Base`` (a domain's shared read-only tables and indexes), ``Database`` (a
  conversation's copy-on-write copy), ``Index``.
- ``domain``: ``Domain``, ``Task`` (``Tier``, ``TIERS``, ``DEFAULT_TIER``), ``Action``,
  ``UserScenario`` (``PERSONAS``, ``persona_for``), ``Intent`` (``Challenge``,
  ``CHALLENGES``), ``Generation`` and the task files (``load_tasks``, ``dump_tasks``,
  ``check_gold``); ``taskformat``: a task line's format (``TASK_FORMAT``, ``encode_task``,
  ``dump_tasks``).
- ``contractions``: ``CONTRACTIONS``, ``written_out`` (one table for matching and rewording).
- ``policyrules``: ``policy_rules`` (the refusal rules a policy marks ``[rule ID]``).
- ``slots``: ``SlotHint``, ``InfoSlot``, ``user_slots`` (what the user holds and how it is asked).
- ``usersteps``: ``StepHint``, ``UserStep``, ``user_steps``, ``step_request`` (dual control).
- ``evaluation``: the reward (``Evaluator``, ``GoldState``, ``evaluate``, ``final_state`` ...).
- ``told``: ``untold`` (tool-call arguments nobody said earlier: facts are told, not known);
  ``picks``: ``untold_picks`` (records picked among several that nobody singled out).
- ``taskstats``: ``task_stats``, ``TaskStats`` (how hard a task set is: ``domains stats``).
- ``pool``: the tasks a run plays (``run_domains``, ``task_pool``, ``select_tasks``,
  ``domains_named``).
- ``splits``: tiers and task splits (``check_tier``, ``tier_pool``, ``split_pool``) and which
  users can play free-text scenarios; ``views``: what the agent and the user see, and the
  answer key only calibration agents get.

Code outside ``simulator.world`` imports these names from here (domain authors included).

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.world.contractions import written_out
    from tau_sim.simulator.world.database import Base, Database, Index
    from tau_sim.simulator.world.domain import (
        CHALLENGES,
        LATER_AFTER,
        PERSONAS,
        Action,
        Challenge,
        Domain,
        Generation,
        Intent,
        Task,
        Tier,
        UserScenario,
        check_gold,
        load_tasks,
        persona_for,
    )
    from tau_sim.simulator.world.evaluation import (
        Evaluator,
        GoldState,
        agent_texts,
        final_state,
        make_evaluator,
        record_value,
        state_event,
    )
    from tau_sim.simulator.world.picks import (
        Fact,
        described,
        facts,
        id_arguments,
        listings,
        policy_today,
        singled_out,
        untold_picks,
    )
    from tau_sim.simulator.world.policyrules import policy_rules
    from tau_sim.simulator.world.pool import run_domains, task_pool
    from tau_sim.simulator.world.slots import InfoSlot, SlotHint, user_slots
    from tau_sim.simulator.world.splits import split_pool, tier_pool
    from tau_sim.simulator.world.statehash import exact_hash
    from tau_sim.simulator.world.taskformat import encode_task
    from tau_sim.simulator.world.taskstats import TaskStats, task_stats
    from tau_sim.simulator.world.told import (
        Heard,
        Untold,
        is_expression,
        number_arguments,
        number_forms,
        string_arguments,
        untold,
    )
    from tau_sim.simulator.world.tools import Tool, ToolError, ToolKind, Toolkit, ToolOutcome, tool
    from tau_sim.simulator.world.usersteps import StepHint, UserStep, user_steps
    from tau_sim.simulator.world.views import (
        AgentView,
        AnswerKey,
        ConversationContext,
        UserView,
        agent_view,
        answer_key,
        user_view,
    )

MODULE_OF = {
    "written_out": "contractions",
    "CHALLENGES": "domain",
    "LATER_AFTER": "domain",
    "Challenge": "domain",
    "PERSONAS": "domain",
    "persona_for": "domain",
    "policy_rules": "policyrules",
    "tier_pool": "splits",
    "task_stats": "taskstats",
    "TaskStats": "taskstats",
    "Action": "domain",
    "AgentView": "views",
    "AnswerKey": "views",
    "Base": "database",
    "ConversationContext": "views",
    "Database": "database",
    "Domain": "domain",
    "Evaluator": "evaluation",
    "Generation": "domain",
    "GoldState": "evaluation",
    "Heard": "told",
    "Index": "database",
    "InfoSlot": "slots",
    "Intent": "domain",
    "SlotHint": "slots",
    "StepHint": "usersteps",
    "Task": "domain",
    "Tier": "domain",
    "Tool": "tools",
    "ToolError": "tools",
    "ToolKind": "tools",
    "ToolOutcome": "tools",
    "Toolkit": "tools",
    "Untold": "told",
    "Fact": "picks",
    "described": "picks",
    "facts": "picks",
    "id_arguments": "picks",
    "listings": "picks",
    "policy_today": "picks",
    "singled_out": "picks",
    "UserScenario": "domain",
    "UserStep": "usersteps",
    "UserView": "views",
    "agent_texts": "evaluation",
    "agent_view": "views",
    "answer_key": "views",
    "check_gold": "domain",
    "encode_task": "taskformat",
    "final_state": "evaluation",
    "is_expression": "told",
    "load_tasks": "domain",
    "make_evaluator": "evaluation",
    "record_value": "evaluation",
    "exact_hash": "statehash",
    "split_pool": "splits",
    "run_domains": "pool",
    "task_pool": "pool",
    "state_event": "evaluation",
    "number_arguments": "told",
    "number_forms": "told",
    "string_arguments": "told",
    "tool": "tools",
    "untold": "told",
    "untold_picks": "picks",
    "user_slots": "slots",
    "user_steps": "usersteps",
    "user_view": "views",
}
"""The module of this package that defines each public name."""

__all__ = [
    "CHALLENGES",
    "LATER_AFTER",
    "PERSONAS",
    "Action",
    "AgentView",
    "AnswerKey",
    "Base",
    "Challenge",
    "ConversationContext",
    "Database",
    "Domain",
    "Evaluator",
    "Fact",
    "Generation",
    "GoldState",
    "Heard",
    "Index",
    "InfoSlot",
    "Intent",
    "SlotHint",
    "StepHint",
    "Task",
    "TaskStats",
    "Tier",
    "Tool",
    "ToolError",
    "ToolKind",
    "ToolOutcome",
    "Toolkit",
    "Untold",
    "UserScenario",
    "UserStep",
    "UserView",
    "agent_texts",
    "agent_view",
    "answer_key",
    "check_gold",
    "described",
    "encode_task",
    "exact_hash",
    "facts",
    "final_state",
    "id_arguments",
    "is_expression",
    "listings",
    "load_tasks",
    "make_evaluator",
    "number_arguments",
    "number_forms",
    "persona_for",
    "policy_rules",
    "policy_today",
    "record_value",
    "run_domains",
    "singled_out",
    "split_pool",
    "state_event",
    "string_arguments",
    "task_pool",
    "task_stats",
    "tier_pool",
    "tool",
    "untold",
    "untold_picks",
    "user_slots",
    "user_steps",
    "user_view",
    "written_out",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
