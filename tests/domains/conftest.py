from __future__ import annotations

import pytest

from domains.retail import retail as make_retail
from simulator.domain import Domain


@pytest.fixture(scope="session")
def retail() -> Domain:
    return make_retail()
