"""The run file (``--config``): its tables merged with the flags, its errors naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_sim.simulator.cli.run_file import load_config, model_options
from tau_sim.simulator.core.errors import UsageError


def test_run_file_merges_model_role_and_cli(tmp_path: Path) -> None:
    path = tmp_path / "run.toml"
    path.write_text(
        """
[agent]
temperature = 0.0
max_tokens = 300

[user]
temperature = 1.0

[models."openai/gpt-4.1"]
max_connections = 16
temperature = 0.5

[run]
concurrency = 64
"""
    )
    config = load_config(path)
    assert config.run == {"concurrency": 64}
    # the model's own table wins over the role's table, the command line over both
    assert model_options(config, "agent", "openai/gpt-4.1", {"max_tokens": 100}) == {
        "max_connections": 16,
        "temperature": 0.5,
        "max_tokens": 100,
    }
    assert model_options(config, "user", "anthropic/claude-x") == {"temperature": 1.0}
    assert model_options(None, "user", "x/y", {"a": 1}) == {"a": 1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[agnet]\nx = 1\n", r"unknown table \[agnet\]"),
        ("[agent\n", "invalid TOML"),
        ('[models]\n"gpt" = {a = 1}\n', 'models."gpt" is not a provider/model name'),
        ("agent = 3\n", "agent must be a table"),
    ],
)
def test_run_file_errors_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UsageError, match=message) as info:
        load_config(path)
    assert str(path) in str(info.value)
    with pytest.raises(UsageError, match="cannot read"):
        load_config(tmp_path / "missing.toml")
