from __future__ import annotations

import pytest

from domains.retail import RetailDomain


@pytest.fixture(scope="session")
def retail() -> RetailDomain:
    return RetailDomain()
