"""Plugin loading: a run imports only the built-in domains it plays, and finds the rest."""

import json
import subprocess
import sys

PROBE = """
import json, sys
from tau_sim.simulator.core.registry import DOMAINS, load_plugins
from tau_sim.simulator.run import validate
from tau_sim.simulator.grid import RunConfig

validate(RunConfig(domains=["retail", "tau2/mock"], tasks=["retail-000"]))
before = sorted(m for m in sys.modules if m.startswith("tau_sim.domains.") and m.count(".") == 2)
found = DOMAINS.get("insurance").__name__
after = sorted(m for m in sys.modules if m.startswith("tau_sim.domains.") and m.count(".") == 2)
print(json.dumps({"before": before, "found": found, "names": DOMAINS.names(), "after": after}))
"""


def test_a_run_imports_only_its_domains_and_a_lookup_imports_the_rest() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(out.stdout)
    assert "tau_sim.domains.retail" in seen["before"] and "tau_sim.domains.tau2" in seen["before"]
    assert (
        "tau_sim.domains.insurance" not in seen["before"]
        and "tau_sim.domains.airline" not in seen["before"]
    )
    assert seen["found"] == "insurance"
    assert (
        "tau_sim.domains.insurance" in seen["after"] and "tau_sim.domains.airline" in seen["after"]
    )
    assert {"retail", "insurance", "telecom", "airline"} <= set(seen["names"])


PARSER_PROBE = """
import json, sys
from tau_sim.simulator.cli.parser import commands

names = [command.name for command in commands()]
domains = sorted(m for m in sys.modules if m.startswith("tau_sim.domains."))
print(json.dumps({"names": names, "domains": domains, "textual": "textual" in sys.modules}))
"""


def test_the_parser_imports_the_command_plugins_and_no_domain() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PARSER_PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(out.stdout)
    assert seen["names"] == [
        *("run", "tui", "human", "report", "compare", "rescore", "show", "export", "review"),
        *("tracer", "runs", "models", "emotions", "domains"),
    ]
    assert seen["domains"] == [] and not seen["textual"], seen
