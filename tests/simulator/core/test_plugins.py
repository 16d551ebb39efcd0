"""Plugin loading: a run imports only the built-in domains it plays, and finds the rest."""

import json
import subprocess
import sys

import pytest

from tests.domains.tau2.needs import REASON, tau2_missing

PROBE = """
import json, sys
from tau_sim.simulator.core.registry import DOMAINS, load_plugins
from tau_sim.simulator.run import validate
from tau_sim.simulator.grid import RunConfig

def plugins():
    return sorted(m for m in sys.modules if m.startswith("tau_sim.domains.") and m.count(".") == 2)

validate(RunConfig(domains=sys.argv[1].split(","), tasks=["retail-000"]))
before = plugins()
found = DOMAINS.get("insurance").__name__
after = plugins()
print(json.dumps({"before": before, "found": found, "names": DOMAINS.names(), "after": after}))
"""


def probe(domains: str) -> dict:
    """What a process that validated a run over ``domains`` had imported, before and after a
    lookup of ``insurance``."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, domains],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    seen: dict = json.loads(out.stdout)
    return seen


def test_a_run_imports_only_its_domains_and_a_lookup_imports_the_rest() -> None:
    seen = probe("retail")
    assert "tau_sim.domains.retail" in seen["before"]
    assert (
        "tau_sim.domains.insurance" not in seen["before"]
        and "tau_sim.domains.airline" not in seen["before"]
        and "tau_sim.domains.tau2" not in seen["before"]
    )
    assert seen["found"] == "insurance"
    assert (
        "tau_sim.domains.insurance" in seen["after"] and "tau_sim.domains.airline" in seen["after"]
    )
    assert {"retail", "insurance", "telecom", "airline"} <= set(seen["names"])


@pytest.mark.skipif(tau2_missing(), reason=REASON)
def test_a_run_of_an_imported_domain_imports_its_plugin_only() -> None:
    seen = probe("retail,tau2/mock")  # validating tau2/mock needs τ²-bench's package
    assert "tau_sim.domains.retail" in seen["before"] and "tau_sim.domains.tau2" in seen["before"]
    assert (
        "tau_sim.domains.insurance" not in seen["before"]
        and "tau_sim.domains.airline" not in seen["before"]
    )
    assert seen["found"] == "insurance"
    assert (
        "tau_sim.domains.insurance" in seen["after"] and "tau_sim.domains.airline" in seen["after"]
    )
