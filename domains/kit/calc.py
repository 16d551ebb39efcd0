"""Arithmetic for the kit tools: safe expressions (``calculate``), day counts (``days_between``).

``evaluate_expression`` takes numbers, + - * / and parentheses, nothing else; ``parse_day``
(what a user typed), ``iso_day`` (a record's own date) and ``days_from`` read ISO dates
(YYYY-MM-DD), ``add_months`` moves a date by calendar months, ``minutes_from`` counts minutes
between ISO timestamps, ``age_on`` a person's age on a day.
"""

from __future__ import annotations

import ast
import calendar
import datetime
import operator
from collections.abc import Callable

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_MAX_LENGTH = 500


def evaluate_expression(expression: str) -> float:
    """Evaluate ``expression``; ``ValueError`` says why it is refused."""
    if len(expression) > _MAX_LENGTH:
        raise ValueError(f"expression longer than {_MAX_LENGTH} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError:
        raise ValueError(f"not an arithmetic expression: {expression!r}") from None
    return _eval(tree.body)


def _eval(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        if isinstance(node.value, bool):
            raise ValueError("only numbers, + - * / and parentheses are allowed")
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left), _eval(node.right)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ValueError("division by zero")
        return _BINARY[type(node.op)](left, right)
    raise ValueError("only numbers, + - * / and parentheses are allowed")


def parse_day(text: str, field: str) -> datetime.date:
    """The ISO date ``text`` (spaces forgiven); ``ValueError`` naming ``field`` if it is not."""
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{field} must be a date as YYYY-MM-DD, got {text!r}") from None


def iso_day(date: str) -> datetime.date:
    """The date of a record's ISO date (YYYY-MM-DD), known to be well formed."""
    return datetime.date.fromisoformat(date)


def age_on(birth_date: str, day: datetime.date) -> int:
    """A person's age in whole years on ``day`` (``birth_date`` an ISO date)."""
    born = iso_day(birth_date)
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def days_from(start_date: str, end_date: str) -> int:
    """Days from ``start_date`` to ``end_date`` (negative when the end comes first)."""
    return (parse_day(end_date, "end_date") - parse_day(start_date, "start_date")).days


def add_months(date: datetime.date, months: int) -> datetime.date:
    """``date`` moved ``months`` calendar months on (the day clipped to the month's length)."""
    month0 = date.month - 1 + months
    year, month = date.year + month0 // 12, month0 % 12 + 1
    return datetime.date(year, month, min(date.day, calendar.monthrange(year, month)[1]))


def minutes_from(start: str, end: str) -> int:
    """Whole minutes from ISO timestamp ``start`` to ``end`` (rounded down)."""
    delta = datetime.datetime.fromisoformat(end) - datetime.datetime.fromisoformat(start)
    return int(delta.total_seconds() // 60)
