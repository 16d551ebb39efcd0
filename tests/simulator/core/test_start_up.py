"""What a ``tau-sim`` process imports at start-up (``tau_sim.simulator.core.lean_imports``)."""

import importlib.util
import subprocess
import sys

CHECK = """
import sys
import tau_sim.simulator.cli.main
assert "pandas" not in sys.modules and "numpy" not in sys.modules, "sqlite-utils imported them"
import sqlite_utils
if {installed}:
    import pandas  # hidden only while sqlite-utils loaded
    assert pandas.DataFrame
print("ok")
"""


def test_the_cli_loads_without_pandas_and_numpy_which_still_import_afterwards() -> None:
    installed = importlib.util.find_spec("pandas") is not None  # the tau2 extra brings it
    code = CHECK.format(installed=installed)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr
