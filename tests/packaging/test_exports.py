"""Each sub-package's public names resolve, lazily, to what their modules define."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAZY = ("world", "engine", "grid", "store", "run", "results", "cli")


def _typed_imports(package: str) -> dict[str, str]:
    """The names the package's ``__init__`` imports for the type checker, with their module."""
    tree = ast.parse((ROOT / "simulator" / package / "__init__.py").read_text())
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            prefix = f"tau_sim.simulator.{package}."
            if node.module.startswith(prefix):
                for alias in node.names:
                    found[alias.asname or alias.name] = node.module.removeprefix(prefix)
    return found


@pytest.mark.parametrize("package", LAZY)
def test_every_public_name_resolves_to_its_modules_object(package: str) -> None:
    module = importlib.import_module(f"tau_sim.simulator.{package}")
    table = getattr(module, "MODULE_OF", None) or module._MODULE_OF
    assert sorted(table) == sorted(module.__all__)
    assert _typed_imports(package) == dict(table)  # what mypy sees is what runs
    for name in module.__all__:
        home = importlib.import_module(f"tau_sim.simulator.{package}.{table[name]}")
        assert getattr(module, name) is getattr(home, name)
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        _ = module.not_a_name


def test_models_names_the_option_and_tool_argument_helpers_of_core() -> None:
    models = importlib.import_module("tau_sim.simulator.models")
    core = "tau_sim.simulator.core"
    homes = [importlib.import_module(f"{core}.{module}") for module in ("options", "toolargs")]
    assert models.__all__
    for name in models.__all__:
        assert any(getattr(models, name) is getattr(home, name, None) for home in homes), name


def test_importing_one_module_of_results_does_not_import_the_report() -> None:
    probe = (
        "import sys; import tau_sim.simulator.results.stats; "
        "print('tau_sim.simulator.results.report' in sys.modules, 'rich.table' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "False"]
