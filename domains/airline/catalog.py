"""The airports the airline serves and the routes it flies between them."""

from __future__ import annotations

AIRPORTS: dict[str, str] = {
    "ATL": "Atlanta",
    "BOS": "Boston",
    "DEN": "Denver",
    "DFW": "Dallas/Fort Worth",
    "JFK": "New York",
    "LAS": "Las Vegas",
    "LAX": "Los Angeles",
    "MIA": "Miami",
    "ORD": "Chicago",
    "PHX": "Phoenix",
    "SEA": "Seattle",
    "SFO": "San Francisco",
}
"""IATA code -> city."""

# (airport, airport, flight time in minutes, economy base fare in dollars); flown both ways
ROUTES: tuple[tuple[str, str, int, float], ...] = (
    ("JFK", "LAX", 360, 289.0),
    ("JFK", "SFO", 370, 299.0),
    ("JFK", "MIA", 185, 169.0),
    ("JFK", "ORD", 155, 149.0),
    ("BOS", "ORD", 165, 159.0),
    ("BOS", "ATL", 160, 159.0),
    ("ATL", "MIA", 110, 119.0),
    ("ATL", "DFW", 150, 139.0),
    ("ORD", "DEN", 165, 149.0),
    ("DFW", "PHX", 160, 139.0),
    ("DEN", "SEA", 170, 159.0),
    ("SEA", "SFO", 125, 129.0),
    ("SFO", "LAX", 85, 99.0),
    ("LAX", "LAS", 70, 89.0),
    ("PHX", "LAS", 75, 89.0),
    ("DEN", "LAX", 150, 149.0),
)

CABINS: tuple[str, ...] = ("basic_economy", "economy", "business")
"""Cabin (fare class) names, cheapest first."""

CABIN_FACTOR: dict[str, float] = {"basic_economy": 0.7, "economy": 1.0, "business": 2.6}
"""Cabin fare as a multiple of the economy fare."""
