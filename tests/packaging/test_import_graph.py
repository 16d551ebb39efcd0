"""The import rules of scripts/import_graph.py hold on the checkout, and the script can fail."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "import_graph.py"


def _graph() -> dict[str, Any]:
    return runpy.run_path(str(SCRIPT))


def test_the_checkout_has_no_circle_no_upward_or_private_import_and_no_long_module() -> None:
    figures = _graph()["figures"](ROOT)
    assert figures["circles"] == []
    assert figures["upward"] == []
    assert figures["private"] == []
    assert figures["long"] == []
    assert figures["modules"] > 150
    graph = _graph()
    assert figures["floors"] <= graph["MAX_FLOORS"]
    assert figures["local_imports"] <= graph["MAX_LOCAL_IMPORTS"]


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_circle_through_a_function_local_import_is_found(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "simulator/__init__.py": "",
            "simulator/core/__init__.py": "",
            "simulator/core/a.py": "from tau_sim.simulator.core import b\n",
            "simulator/core/b.py": "def f():\n    from tau_sim.simulator.core.a import x\n",
            "simulator/core/c.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from tau_sim.simulator.core.a import x\n"
            ),
        },
    )
    figures = _graph()["figures"](root)
    assert figures["circles"] == [["simulator.core.a", "simulator.core.b"]]


def test_upward_private_and_long_modules_are_named_and_fail_the_check(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "simulator/__init__.py": "",
            "simulator/core/__init__.py": "from tau_sim.simulator.core.low import X\n",
            "simulator/core/low.py": "from tau_sim.simulator.store.high import Y\nX = 1\n",
            "simulator/store/__init__.py": "",
            "simulator/store/high.py": "from tau_sim.tui.app import Z\nY = 2\n" + "#\n" * 600,
            "tui/__init__.py": "",
            "tui/app.py": (
                "from tau_sim.simulator.core.low import X\nfrom tau_sim.simulator.core import X\n"
            ),
        },
    )
    figures = _graph()["figures"](root)
    assert figures["upward"] == [
        "simulator.core.low -> simulator.store.high",
        "simulator.store.high -> tui.app",
    ]
    assert figures["private"] == ["tui.app -> simulator.core.low"]
    assert figures["long"] == ["simulator.store.high (602 lines)"]
    check = subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 1
    assert "simulator.store.high -> tui.app" in check.stdout


def test_floors_and_local_imports_over_their_limits_fail_the_check(tmp_path: Path) -> None:
    graph = _graph()
    tall = graph["MAX_FLOORS"] + 1
    files = {"simulator/__init__.py": "", "simulator/core/__init__.py": ""}
    for level in range(tall):
        below = f"from tau_sim.simulator.core import m{level + 1}\n" if level + 1 < tall else ""
        files[f"simulator/core/m{level}.py"] = below
    nested = "def outer():\n    def inner():\n        from tau_sim.simulator.core import m0\n"
    locals_ = graph["MAX_LOCAL_IMPORTS"] + 1
    files["simulator/core/late.py"] = nested + "".join(
        f"def f{i}():\n    from tau_sim.simulator.core import m0\n" for i in range(locals_ - 1)
    )
    root = _tree(tmp_path, files)
    figures = graph["figures"](root)
    assert figures["floors"] == tall + 1  # late sits on top of the chain
    assert figures["local_imports"] == locals_  # the nested function's import counts once
    check = subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 1
    assert f"floors: {tall + 1}, over the limit" in check.stdout
    assert f"local_imports: {locals_}, over the limit" in check.stdout
