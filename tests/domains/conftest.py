from __future__ import annotations

import pytest

from tau_sim.domains.retail import retail as make_retail
from tau_sim.simulator.world.domain import Domain


@pytest.fixture(scope="session")
def retail() -> Domain:
    return make_retail()
