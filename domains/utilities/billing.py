"""How a bill is computed from readings and a tariff (the kit's ``calc`` counts the days).

A bill line charges the units between a meter's last billed reading and its newest one at the
tariff's unit rate, plus the standing charge for every day of the period; the bill's total is
the sum of its lines. Amounts are rounded to cents per charge.
"""

from __future__ import annotations

from collections.abc import Sequence

from tau_sim.domains.kit.calc import days_from
from tau_sim.domains.kit.payments import money
from tau_sim.domains.utilities.records import (
    ELECTRICITY,
    ESTIMATED,
    BillLine,
    Meter,
    Reading,
    Tariff,
)


def reading_id(meter_id: str, n: int) -> str:
    """The id of the ``n``-th reading of a meter."""
    return f"{meter_id}-{n:03d}"


def bill_lines(
    tariff: Tariff,
    meters: Sequence[tuple[Meter, Reading, int]],
    start: str,
    end: str,
) -> list[BillLine]:
    """The lines of a bill from ``start`` to ``end``; ``meters``: (meter, newest reading, from).

    ``from`` is the value of the meter's last billed reading.
    """
    days = days_from(start, end)
    lines = []
    for meter, to, from_value in meters:
        rate = tariff.electricity if meter.fuel == ELECTRICITY else tariff.gas
        units = to.value - from_value
        lines.append(
            BillLine(
                meter.meter_id,
                meter.fuel,
                from_value,
                to.value,
                units,
                rate.unit_rate,
                money(units * rate.unit_rate),
                days,
                money(days * rate.standing_charge),
                to.kind == ESTIMATED,
            )
        )
    return lines


def bill_total(lines: Sequence[BillLine]) -> float:
    """The total of a bill: every line's energy and standing charge."""
    return money(sum(ln.energy_charge + ln.standing_charge for ln in lines))
