"""The one configuration path: defaults, run file and command line, the most specific winning."""

from itertools import combinations
from pathlib import Path

import pytest

from tau_sim.agents.scripted import ScriptedAgentOptions
from tau_sim.simulator.cli import configure_run, parsers
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.errors import OptionError
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.models.options import convert_options, merge

LAYERS = ("run_table", "role", "model", "cli")
"""Least specific first: ``[run]``, ``[agent]``/``[user]``, ``[models."x"]``, the command line."""


def configured(tmp_path: Path, layers: tuple[str, ...]) -> RunConfig:
    """The RunConfig of ``tau-sim run`` with each layer in ``layers`` setting the same keys."""
    toml: list[str] = []
    if "run_table" in layers:
        toml += ["[run]", "trials = 2", "max-steps = 12"]
    if "role" in layers:
        toml += ["[agent]", "latency = 0.01", "error_rate = 0.1", "[user]", "latency = 0.5"]
    if "model" in layers:
        toml += ['[models."scripted/gold"]', "latency = 0.02"]
    argv = ["run", "--tasks", "1"]
    if toml:
        path = tmp_path / "run.toml"
        path.write_text("\n".join(toml) + "\n")
        argv += ["--config", str(path)]
    if "cli" in layers:
        argv += ["--trials", "3", "--agent-arg", "latency=0.03"]
    parser, run = parsers()
    _settings, config = configure_run(parser.parse_args(argv), run)
    assert isinstance(config, RunConfig)
    return config


@pytest.mark.parametrize(
    "layers", [c for n in range(len(LAYERS) + 1) for c in combinations(LAYERS, n)], ids=str
)
def test_the_most_specific_layer_wins(tmp_path: Path, layers: tuple[str, ...]) -> None:
    config = configured(tmp_path, layers)
    defaults = RunConfig()
    trials = 3 if "cli" in layers else 2 if "run_table" in layers else defaults.trials
    assert config.trials == trials
    max_steps = 12 if "run_table" in layers else Limits().max_steps
    assert config.limits == Limits(max_steps=max_steps)
    latency = {"cli": 0.03, "model": 0.02, "role": 0.01}
    top = next((layer for layer in ("cli", "model", "role") if layer in layers), None)
    agent = config.agent_options["scripted/gold"]
    assert agent.get("latency") == (latency[top] if top else None)
    # a layer that leaves a key out keeps the lower layer's value
    assert agent.get("error_rate") == (0.1 if "role" in layers else None)
    # [user] reaches users only, [agent] agents only
    assert config.user_options == {"scripted": {"latency": 0.5} if "role" in layers else {}}


def test_nothing_given_is_exactly_run_configs_defaults(tmp_path: Path) -> None:
    config = configured(tmp_path, ())
    first = config.tasks[0]
    assert config == RunConfig(
        tasks=[first],
        agent_options={"scripted/gold": {}},
        user_options={"scripted": {}},
    )


def test_merge_later_layers_win_and_gaps_change_nothing() -> None:
    assert merge({"a": 1, "b": 1}, None, {"b": 2}, {}, {"c": 3}) == {"a": 1, "b": 2, "c": 3}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"temprature": 0.5}, "x: unknown option 'temprature' (known: error_rate, latency)"),
        ({"latency": "-1"}, "x: invalid option latency='-1': Expected `float` >= 0.0"),
        ({"error_rate": 1.5}, "x: invalid option error_rate=1.5: Expected `float` <= 1.0"),
        ({"latency": "soon"}, "x: invalid option latency='soon': Expected `float`"),
    ],
)
def test_typed_options_refuse_unknown_keys_and_bad_values(args: dict, message: str) -> None:
    with pytest.raises(OptionError) as info:
        convert_options(args, ScriptedAgentOptions, "x")
    assert str(info.value).startswith(message), info.value
    with pytest.raises(OptionError, match=r"^--agent-arg latency='soon': Expected `float`"):
        convert_options({"latency": "soon"}, ScriptedAgentOptions, "--agent-arg")
    assert convert_options({"latency": "0.25"}, ScriptedAgentOptions, "x").latency == 0.25
