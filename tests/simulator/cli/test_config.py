"""The one configuration path: defaults, run file and command line, the most specific winning."""

import sqlite3
from contextlib import closing
from itertools import combinations
from pathlib import Path

import pytest

from tau_sim.agents.scripted import ScriptedAgentOptions
from tau_sim.simulator.cli import configure_run, parsers
from tau_sim.simulator.cli.run_file import merge
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.errors import OptionError, UsageError
from tau_sim.simulator.core.options import convert_options
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import check_numbers
from tests.helpers.cli import one_line_error, run_error, tau_sim

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


# (the run file, the error after ``--config PATH: ``). TOML values keep their types.
BAD_RUN_FILES: list[tuple[str, str]] = [
    ("[run]\ntrials = 2.9", "[run] trials: expected an integer, got 2.9"),
    ("[run]\ntrials = 2.0", "[run] trials: expected an integer, got 2.0"),
    ('[run]\ntrials = "2"', '[run] trials: expected an integer, got "2"'),
    ("[run]\nconcurrency = 1.9", "[run] concurrency: expected an integer, got 1.9"),
    ("[run]\nseed = 1.5", "[run] seed: expected an integer, got 1.5"),
    ("[run]\nmax_steps = true", "[run] max_steps: expected an integer, got true"),
    ("[run]\nworkers = true", '[run] workers: expected an integer or "auto", got true'),
    ("[run]\ntimeout = true", "[run] timeout: expected a number, got true"),
    ("[run]\nquiet = 1", "[run] quiet: expected true or false, got 1"),
    (
        "[run]\nintensities = [0.5, nan, true]",
        "[run] intensities: expected a non-empty list of levels or numbers, got [0.5, nan, true]",
    ),
    (
        '[run]\nemotions = ["anger"]\nintensities = []',
        "[run] intensities: expected a non-empty list of levels or numbers, got []",
    ),
    ('[run]\nagent = ""', '[run] agent: expected a non-empty list of names, got ""'),
    ("[run]\nagent = 3", "[run] agent: expected a non-empty list of names, got 3"),
    ("[run]\ntasks = []", "[run] tasks: expected a task count or a non-empty list of task ids"),
    ('[run]\njudge = ""', '[run] judge: expected a non-empty string, got ""'),
]
# (arguments of `run`, the run file, the one error line after ``tau-sim: error: ``, where
# FILE stands for the run file's path). Per-model options are converted strictly by each
# provider's typed struct; an error names the run file, the table and the key that set them.
BAD_OPTIONS: list[tuple[list[str], str, str]] = [
    (
        ["--agent", "openai/m"],
        '[models."openai/m"]\nmax_retries = 2.9',
        '--config FILE: [models."openai/m"] max_retries = 2.9: Expected `int`, got `float`',
    ),
    (
        ["--agent", "openai/m"],
        '[models."openai/m"]\nmax_retries = 2.0',
        '--config FILE: [models."openai/m"] max_retries = 2.0: Expected `int`, got `float`',
    ),
    (
        ["--agent", "openai/m"],
        "[agent]\njson_mode = 1",
        "--config FILE: [agent] json_mode = 1: Expected `bool`, got `int`",
    ),
    (
        [],
        "[agent]\nlatency = true",
        "--config FILE: [agent] latency = true: Expected `float`, got `bool`",
    ),
    (
        [],
        '[agent]\nlatency = 0.1\n[models."scripted/gold"]\nlatency = "soon"',
        '--config FILE: [models."scripted/gold"] latency = "soon": Expected `float`, got `str`',
    ),
    (
        [],
        '[models."scripted/gold"]\nlatncy = 1',
        "--config FILE: [models.\"scripted/gold\"] has unknown option 'latncy' "
        "(known: error_rate, latency)",
    ),
    (
        [],
        "[user]\nthreshold_scale = [2]",
        "--config FILE: [user] threshold_scale = [2]: Expected `float`, got `array`",
    ),
    (
        ["--judge", "openai/j"],
        '[models."openai/j"]\nprice_in = "cheap"',
        '--config FILE: [models."openai/j"] price_in = "cheap": Expected `float | null`, got `str`',
    ),
    # the command line's value is the one in force: the error names the flag
    (
        ["--agent-arg", "latency=soon"],
        "[agent]\nlatency = true",
        "--agent-arg latency='soon': Expected `float`, got `str`",
    ),
]
# (arguments of `run`, the error): an empty comma list is refused, naming its flag.
EMPTY_LISTS: list[tuple[list[str], str]] = [
    (["--emotions", "anger", "--intensities", ""], "--intensities: '' lists nothing"),
    (["--emotions", "neutral", "--intensities", ","], "--intensities: ',' lists nothing"),
    (["--agent", ","], "--agent: ',' lists nothing"),
    (["--user", ""], "--user: '' lists nothing"),
    (["--emotions", ""], "--emotions: '' lists nothing"),
    (["--tasks", ","], "--tasks: ',' lists nothing"),
]


@pytest.fixture(scope="module")
def one_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding one finished run of one conversation."""
    db = tmp_path_factory.mktemp("store") / "one.db"
    tau_sim("run", "--tasks", "1", "--db", str(db), "--quiet")
    return db


def runs_in(db: Path) -> tuple[int, int]:
    """(runs, conversations) stored in ``db``."""
    with closing(sqlite3.connect(db)) as conn:
        runs = conn.execute("select count(*) from runs").fetchone()[0]
        conversations = conn.execute("select count(*) from conversations").fetchone()[0]
    return runs, conversations


def refused(one_run: Path, tmp_path: Path, args: list[str], toml: str | None) -> str:
    """The one error line of ``tau-sim run ARGS [--config run.toml]``, after checking that it
    exits 2 and stores nothing: no run is added to ``one_run``, a new ``--db`` is not made."""
    if toml is not None:
        (tmp_path / "run.toml").write_text(toml + "\n")
        args = [*args, "--config", str(tmp_path / "run.toml")]
    before = runs_in(one_run)
    line = one_line_error(run_error("run", *args, "--db", str(one_run)))
    assert runs_in(one_run) == before
    run_error("run", *args, "--db", str(tmp_path / "new.db"))
    assert not (tmp_path / "new.db").exists()
    return line.removeprefix("tau-sim: error: ")


@pytest.mark.parametrize(
    ("toml", "message"), BAD_RUN_FILES, ids=[c[0].replace("\n", " ") for c in BAD_RUN_FILES]
)
def test_run_file_values_keep_their_types(
    one_run: Path, tmp_path: Path, toml: str, message: str
) -> None:
    line = refused(one_run, tmp_path, [], toml)
    assert line.startswith(f"--config {tmp_path / 'run.toml'}: {message}"), line


@pytest.mark.parametrize(
    ("args", "toml", "message"), BAD_OPTIONS, ids=[c[1].replace("\n", " ") for c in BAD_OPTIONS]
)
def test_model_options_are_converted_strictly(
    one_run: Path, tmp_path: Path, args: list[str], toml: str, message: str
) -> None:
    line = refused(one_run, tmp_path, args, toml)
    assert line == message.replace("FILE", str(tmp_path / "run.toml")), line


@pytest.mark.parametrize(
    ("args", "message"), EMPTY_LISTS, ids=[" ".join(a) for a, _ in EMPTY_LISTS]
)
def test_an_empty_list_on_the_command_line_names_its_flag(
    one_run: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    line = refused(one_run, tmp_path, args, None)
    assert line == f"{message}; give at least one entry", line


def test_typed_run_file_values_are_taken_as_given(tmp_path: Path) -> None:
    path = tmp_path / "run.toml"
    path.write_text(
        "[run]\ntasks = 2\ntrials = 3\ntimeout = 5\nmax_error_share = 1\nworkers = 'auto'\n"
        'emotions = ["anger"]\nintensities = [0.25, "high"]\nquiet = true\n'
    )
    parser, run = parsers()
    settings, config = configure_run(parser.parse_args(["run", "--config", str(path)]), run)
    assert (config.trials, len(config.tasks), config.limits.timeout_s) == (3, 2, 5.0)
    assert config.intensities == [0.25, 0.9] and config.max_error_share == 1.0
    assert config.workers >= 1 and settings["quiet"] is True


def test_a_grid_of_no_conversations_is_refused_before_anything_is_stored() -> None:
    config = RunConfig(tasks=["retail-001"], emotions=["anger"], intensities=[])
    with pytest.raises(UsageError, match=r"^the grid holds no conversations: --intensities "):
        check_numbers(config)
