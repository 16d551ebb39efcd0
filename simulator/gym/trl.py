"""``TauSimToolEnv``: one domain's conversations in the shape of TRL's ``environment_factory``.

TRL's ``GRPOTrainer(environment_factory=...)`` makes one environment per rollout (and reuses
them), calls ``reset(**row)`` and appends the string it returns to the rollout's prompt, offers
every public method other than ``reset`` and ``get_reward`` to the model as a tool (its name,
signature, type hints and Google-style docstring make the schema), and calls ``get_reward()``
once the rollout is over. Here the tools are the domain's agent tools (``simulator.gym.
toolmethods``) and ``send_message_to_user``, whose result is the simulated user's reply; the
conversation is the engine's, played through ``Rollouts`` with the tool calls as the agent's
turns, so the user, the referee and the evaluator are those of ``tau-sim run``. The answer key
stays with the evaluator.

A tool call with bad arguments gives the toolkit's error text as its result (the agent's tool
error, as in a run; ``max_tool_errors`` counts it) rather than raising. A rollout that ends
before the conversation does (a turn with no tool call) ends it at ``get_reward`` as a model
that stopped answering: ``model_error``, reward 0. Calls are synchronous: each instance runs its
own event loop (``simulator.gym.loop``), so instances may live on different threads, one
thread at a time each.

With ``store`` (a SQLite path) each instance stores its episodes as a run per user kind,
committed while the instance works and in full when it is closed (``close_tool_env``, or when
it is collected or the interpreter exits).
"""

from __future__ import annotations

import functools
import json
import random
import types
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.conditions import NEUTRAL, parse_intensity
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.gym.loop import LoopHost
from tau_sim.simulator.gym.options import check_option_names, named_as_options, rollout_config
from tau_sim.simulator.gym.rollouts import Episode, Rollouts, Turn
from tau_sim.simulator.gym.toolmethods import tool_method
from tau_sim.simulator.run.checks import normalize_emotions

RESET_KEYS = ("task", "seed", "emotion", "intensity", "user", "user_options")
"""What ``reset`` reads (``prompt``, the column TRL passes from a dataset row, is ignored)."""
RESERVED = frozenset({"reset", "get_reward", "send_message_to_user"})
"""Method names TRL or this class gives a meaning to: no domain tool may take one."""
CHANNEL_NOTE = (
    "You reach the customer only through the `send_message_to_user` tool: its result is the "
    "customer's reply. Use the other tools to look things up and act. A turn in which you call "
    "no tool ends the conversation."
)
STOPPED = "the policy ended its rollout before the conversation ended"


def prompt_text(messages: list[ChatMessage]) -> str:
    """The rollout's prompt: the agent's system prompt, how to talk, the user's first words."""
    parts = [m.content or "" for m in messages if m.role == "system"]
    parts.append(CHANNEL_NOTE)
    said = [m.content for m in messages if m.role != "system" and m.content]
    if said:
        parts.append("The customer's first message:\n" + "\n".join(said))
    else:
        parts.append("The customer has not written yet: greet them with send_message_to_user.")
    return "\n\n".join(parts)


def ended_text(turn: Turn) -> str:
    """What a tool call gives once the conversation is over (never the reward)."""
    reason = str(turn.info.get("reason", "ended"))
    if reason == "user_stop":
        return "The customer has ended the conversation."
    if reason == "transfer":
        return "The conversation was transferred to a human agent and has ended."
    return f"The conversation has ended ({reason})."


def new_text(messages: list[ChatMessage], seen: int) -> str:
    """The contents of the messages after the agent's turn at ``seen`` (tool results, replies)."""
    return "\n".join(m.content or "" for m in messages[seen + 1 :])


def _close_hosts(hosts: dict[str, LoopHost]) -> None:
    for host in hosts.values():
        host.close()


class TauSimToolEnv:
    """One domain's conversations for TRL's ``environment_factory`` (see the module docstring).

    ``options`` are ``rollout_config``'s (the tasks, the default user and condition, the
    run seed, the limits); ``reset`` may pick another task, user or condition per episode.
    Public attributes: ``domain``, ``info`` (the episode's task and condition) and ``ending``
    (the referee's ending and the evaluator's verdict, once over). The domain's tools are
    bound on the instance, one method each.
    """

    def __init__(
        self, domain: str = "retail", *, store: str | Path | None = None, **options: Any
    ) -> None:
        check_option_names(options)
        self.domain = domain
        self.info: dict[str, Any] = {}
        self.ending: dict[str, Any] = {}
        self._options = options
        self._store = store
        self._hosts: dict[str, LoopHost] = {}
        self._finalizer = weakref.finalize(self, _close_hosts, self._hosts)
        self._host_key = self._host_for(
            options.get("user", "scripted"), options.get("user_options")
        )
        self._episode: Episode | None = None
        self._rng = random.Random()
        rollouts = self._hosts[self._host_key].rollouts
        for spec in rollouts.player.domains[domain].toolkit.specs:
            if spec.name in RESERVED or spec.name.startswith("_") or hasattr(self, spec.name):
                raise UsageError(f"domain {domain!r}: its tool {spec.name!r} clashes with a method")
            setattr(self, spec.name, types.MethodType(tool_method(spec, _call_tool), self))

    def _host_for(self, user: str, user_options: dict[str, Any] | None) -> str:
        """The key of the loop holding the episodes of ``user`` (made on first use)."""
        key = json.dumps([user, user_options or {}], sort_keys=True, default=str)
        if key not in self._hosts:
            options = {**self._options, "user": user, "user_options": user_options}
            with named_as_options():
                config = rollout_config(self.domain, **options)
                rollouts = Rollouts(config, store=self._store)
            self._hosts[key] = LoopHost(rollouts)
        return key

    def reset(self, **kwargs: Any) -> str:
        """Start an episode (abandoning one still going); the prompt: policy and first message.

        Keywords (all optional, each a dataset column under TRL): ``task`` (an id), ``seed``
        (draws the task: one seed, one task), ``emotion`` and ``intensity`` (any of the run's
        emotions, ``low``/``medium``/``high`` or 0..1), ``user`` (``scripted`` or a model)
        with ``user_options``. Without ``task`` or ``seed`` the task is drawn at random.
        """
        unknown = [k for k in kwargs if k not in RESET_KEYS and k != "prompt"]
        if unknown:
            raise UsageError(f"{unknown[0]}: not a reset keyword (known: {', '.join(RESET_KEYS)})")
        self._abandon()
        default = self._options.get("user", "scripted")
        user = str(kwargs.get("user", default))
        own = self._options.get("user_options") if user == default else None
        self._host_key = self._host_for(user, kwargs.get("user_options", own))
        host = self._hosts[self._host_key]
        condition = self._condition(kwargs)
        task = kwargs.get("task")
        if task is None:
            draw = random.Random(kwargs["seed"]) if kwargs.get("seed") is not None else self._rng
            task = draw.choice(host.rollouts.tasks).id
        self._episode = host.run(host.rollouts.start(str(task), condition))
        self.info = dict(self._episode.first.info)
        self.ending = {}
        return prompt_text(self._episode.messages)

    def _condition(self, kwargs: dict[str, Any]) -> tuple[str, float] | None:
        """The episode's (emotion, intensity) when ``reset`` names either; None: the options'."""
        if kwargs.get("emotion") is None and kwargs.get("intensity") is None:
            return None
        emotion = str(kwargs.get("emotion", self._options.get("emotion", NEUTRAL)))
        try:
            emotions = normalize_emotions([emotion])
        except UsageError as exc:  # its text names the run's flag, ``emotions``
            raise UsageError(f"emotion: {str(exc).partition(': ')[2]}") from None
        intensity = parse_intensity(
            kwargs.get("intensity", self._options.get("intensity", 0.6)), "intensity"
        )
        if len(emotions) != 1:
            raise UsageError(f"emotion: {kwargs.get('emotion')!r} names more than one emotion")
        return emotions[0], intensity

    def _abandon(self) -> None:
        episode, self._episode = self._episode, None
        if episode is not None and not episode.done:
            self._hosts[self._host_key].run(episode.abandon())

    def send_message_to_user(self, text: str) -> str:
        """Send a message to the customer and wait for the customer's reply.

        Args:
            text: The message the customer reads.

        Returns:
            The customer's reply, or a note that the conversation has ended.
        """
        return self._act({"content": str(text)})

    def get_reward(self) -> float:
        """The episode's reward from the evaluator (a conversation still going is ended first)."""
        episode = self._episode
        if episode is None:
            return 0.0
        last = episode.last
        if last is None:
            last = self._hosts[self._host_key].run(episode.stop(STOPPED))
        self.ending = dict(last.info)
        return float(last.reward)

    def _act(self, action: dict[str, Any]) -> str:
        """Play ``action`` as the agent's turn; what came back to the agent, as text."""
        episode = self._episode
        if episode is None:
            raise RuntimeError("call reset() before using a tool")
        if episode.last is not None:
            return ended_text(episode.last)
        seen = len(episode.messages)
        turn = self._hosts[self._host_key].run(episode.step(action))
        if turn.done:
            self.ending = dict(turn.info)
            return ended_text(turn)
        return new_text(episode.messages, seen)


def _call_tool(env: TauSimToolEnv, name: str, arguments: dict[str, Any]) -> str:
    """A domain tool's call as the agent's turn: one assistant message with one tool call."""
    call = {"type": "function", "function": {"name": name, "arguments": arguments}}
    return env._act({"content": None, "tool_calls": [call]})


def tool_env_factory(domain: str = "retail", **options: Any) -> Callable[[], TauSimToolEnv]:
    """A zero-argument factory of ``TauSimToolEnv(domain, **options)`` (picklable): TRL's."""
    return functools.partial(TauSimToolEnv, domain, **options)


def close_tool_env(env: TauSimToolEnv) -> None:
    """Abandon the episode still going, flush the store and close the environment's loops."""
    env._abandon()
    env._finalizer()
