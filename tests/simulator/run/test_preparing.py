"""A new run is checked and prepared once, before its store exists (``prepare_run``)."""

from pathlib import Path

import anyio
import pytest

from tau_sim.simulator.run import Player, Runner, prepare_run
from tau_sim.simulator.store import Store, get_run
from tests.helpers.cli import tau_sim
from tests.simulator.toy import install
from tests.simulator.toy import toy_config as config


def test_a_prepared_player_is_played_without_preparing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install()
    prepared: list[str] = []
    original = Player.prepare

    def counted(self: Player) -> None:
        prepared.append(self.run_id)
        original(self)

    monkeypatch.setattr(Player, "prepare", counted)
    player = prepare_run(config(), "run-1")
    store = Store(tmp_path / "t.db")
    runner = Runner(store, config(), "run-1", create=True, player=player)
    anyio.run(runner.run)
    assert prepared == ["run-1"]  # the runner took the player as it was
    assert runner.config is player.config
    assert get_run(store.db, "run-1")["status"] == "completed"
    Runner(store, config(), "run-2", create=True)  # without one, the runner prepares its own
    assert prepared == ["run-1", "run-2"]


def test_the_tui_refuses_workers_that_cannot_share_servers_before_a_store_exists(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    out = tau_sim(
        *("tui", "--agent", "vllm/Qwen/Qwen3-8B", "--agent-arg", "gpus=0"),
        *("--workers", "2", "--db", str(db)),
        check=False,
    )
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        "tau-sim: error: --workers 2: vllm/Qwen/Qwen3-8B starts its own servers; start them "
        "once and pass base_url=..., or use --workers 1"
    ]
    assert not db.exists()
