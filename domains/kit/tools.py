"""Tools customer-service worlds share: arithmetic, day counts and the transfer to a human agent.

A domain registers one by naming it in its tools module (``calculate = kit_tools.calculate``);
``calculate`` and ``transfer_to_human_agents`` every world has, ``days_between`` the worlds whose
policy counts days (claim windows, notice periods).
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from domains.kit.calc import days_from, evaluate_expression
from domains.kit.payments import money
from simulator.database import Database
from simulator.referee import TerminationReason
from simulator.tools import ToolError, ToolKind, tool


@tool(ToolKind.READ)
def calculate(db: Database, expression: str) -> str:
    """Calculate an arithmetic expression; the result is rounded to 2 decimal places.

    Args:
        expression: Numbers, + - * / and parentheses only, e.g. "(54.99 + 23.1) * 2".
    """
    try:
        value = evaluate_expression(expression)
    except ValueError as exc:
        raise ToolError(str(exc)) from None
    return f"{money(value):.2f}"


@tool(ToolKind.READ)
def days_between(db: Database, start_date: str, end_date: str) -> int:
    """Count the days from one date to another (negative when the end comes first).

    Args:
        start_date: The first date, as YYYY-MM-DD, e.g. "2025-04-02".
        end_date: The second date, as YYYY-MM-DD, e.g. "2025-06-15".
    """
    try:
        return days_from(start_date, end_date)
    except ValueError as exc:
        raise ToolError(str(exc)) from None


@tool(ToolKind.READ, ends=TerminationReason.TRANSFER)
def transfer_to_human_agents(db: Database, summary: str) -> str:
    """Transfer the user to a human agent, with a summary of the issue.

    Only when the user asks for a human or the request cannot be handled within the policy and
    the tools.

    Args:
        summary: A short summary of the user's issue for the human agent.
    """
    return "Transfer successful"
