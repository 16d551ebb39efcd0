"""How a bill is computed from readings and a tariff, and the date arithmetic of terms.

A bill line charges the units between a meter's last billed reading and its newest one at the
tariff's unit rate, plus the standing charge for every day of the period; the bill's total is
the sum of its lines. Amounts are rounded to cents per charge.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Sequence

from domains.kit.payments import money
from domains.utilities.records import ELECTRICITY, ESTIMATED, BillLine, Meter, Reading, Tariff


def reading_id(meter_id: str, n: int) -> str:
    """The id of the ``n``-th reading of a meter."""
    return f"{meter_id}-{n:03d}"


def add_months(date: dt.date, months: int) -> dt.date:
    """``date`` moved ``months`` calendar months on (the day clipped to the month's length)."""
    month0 = date.month - 1 + months
    year, month = date.year + month0 // 12, month0 % 12 + 1
    return dt.date(year, month, min(date.day, calendar.monthrange(year, month)[1]))


def days_between(start: str, end: str) -> int:
    """Days from ISO date ``start`` to ISO date ``end``."""
    return (dt.date.fromisoformat(end) - dt.date.fromisoformat(start)).days


def bill_lines(
    tariff: Tariff,
    meters: Sequence[tuple[Meter, Reading, int]],
    start: str,
    end: str,
) -> list[BillLine]:
    """The lines of a bill from ``start`` to ``end``; ``meters``: (meter, newest reading, from).

    ``from`` is the value of the meter's last billed reading.
    """
    days = days_between(start, end)
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
