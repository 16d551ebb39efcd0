"""The world a conversation runs in: tools, databases, domains, tasks, slots, user steps, grades.

- ``tools``: ``Tool``, the ``tool`` decorator, ``ToolKind``, ``ToolError``, ``Toolkit``.
- ``database``: ``Base`` (a domain's shared read-only tables and indexes), ``Database`` (a
  conversation's copy-on-write copy), ``Index``.
- ``domain``: ``Domain``, ``Task``, ``Action``, ``UserScenario``, ``Intent``, ``Generation`` and
  the task files (``load_tasks``, ``dump_tasks``, ``check_gold``, ``encode_task``).
- ``slots``: ``SlotHint``, ``InfoSlot``, ``user_slots`` (what the user holds and how it is asked).
- ``usersteps``: ``StepHint``, ``UserStep``, ``user_steps``, ``step_request`` (dual control).
- ``evaluation``: the reward (``Evaluator``, ``GoldState``, ``evaluate``, ``final_state`` ...).
- ``splits``: task splits and which users can play free-text scenarios; ``views``: what the
  agent and the user see, and the answer key only calibration agents get.

Code outside ``simulator.world`` imports these names from here (domain authors included).
"""

from __future__ import annotations

from tau_sim.simulator.world.database import (
    Base,
    Database,
    Index,
)
from tau_sim.simulator.world.domain import (
    Action,
    Domain,
    Generation,
    Intent,
    Task,
    UserScenario,
    check_gold,
    dump_tasks,
    encode_task,
    load_tasks,
)
from tau_sim.simulator.world.evaluation import (
    EVIDENCE,
    Evaluator,
    GoldState,
    MissingStateError,
    agent_texts,
    evaluate,
    final_reward,
    final_state,
    make_evaluator,
    normalize_text,
    record_value,
    state_event,
)
from tau_sim.simulator.world.slots import (
    InfoSlot,
    SlotHint,
    user_slots,
)
from tau_sim.simulator.world.splits import (
    check_users,
    reads_free_text,
    split_pool,
)
from tau_sim.simulator.world.tools import (
    Tool,
    ToolError,
    ToolKind,
    Toolkit,
    ToolOutcome,
    render_result,
    tool,
)
from tau_sim.simulator.world.usersteps import (
    StepHint,
    UserStep,
    step_request,
    user_steps,
)
from tau_sim.simulator.world.views import (
    AgentView,
    AnswerKey,
    ConversationContext,
    UserView,
    agent_view,
    answer_key,
    ending_tools,
    user_view,
)

__all__ = [
    "EVIDENCE",
    "Action",
    "AgentView",
    "AnswerKey",
    "Base",
    "ConversationContext",
    "Database",
    "Domain",
    "Evaluator",
    "Generation",
    "GoldState",
    "Index",
    "InfoSlot",
    "Intent",
    "MissingStateError",
    "SlotHint",
    "StepHint",
    "Task",
    "Tool",
    "ToolError",
    "ToolKind",
    "ToolOutcome",
    "Toolkit",
    "UserScenario",
    "UserStep",
    "UserView",
    "agent_texts",
    "agent_view",
    "answer_key",
    "check_gold",
    "check_users",
    "dump_tasks",
    "encode_task",
    "ending_tools",
    "evaluate",
    "final_reward",
    "final_state",
    "load_tasks",
    "make_evaluator",
    "normalize_text",
    "reads_free_text",
    "record_value",
    "render_result",
    "split_pool",
    "state_event",
    "step_request",
    "tool",
    "user_slots",
    "user_steps",
    "user_view",
]
