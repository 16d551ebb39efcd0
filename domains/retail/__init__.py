"""The retail domain: an online shop's customers, products and orders."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from domains.retail import tools
from domains.retail.data import build_indexes, generate
from domains.retail.intents import INTENTS
from simulator.domain import Domain
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["RetailDomain"]


@DOMAINS.register("retail")
class RetailDomain(Domain):
    """Customers of an online shop cancel, modify, return and exchange their orders."""

    name = "retail"
    title = "Retail (online shop orders)"
    folder = Path(__file__).parent
    toolkit = Toolkit.from_module(tools)
    intents = INTENTS
    seed = 20250101

    def build_base(self) -> tuple[Mapping[str, Mapping[str, Any]], Mapping[str, Mapping[str, Any]]]:
        """Generate the products, users and orders from ``seed``, and their lookup indexes."""
        tables = generate(self.seed)
        return tables, build_indexes(tables)
