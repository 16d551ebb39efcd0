"""Tools every customer-service world offers: arithmetic and the transfer to a human agent."""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from domains.kit.calc import evaluate_expression
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


@tool(ToolKind.READ, ends=TerminationReason.TRANSFER)
def transfer_to_human_agents(db: Database, summary: str) -> str:
    """Transfer the user to a human agent, with a summary of the issue.

    Only when the user asks for a human or the request cannot be handled within the policy and
    the tools.

    Args:
        summary: A short summary of the user's issue for the human agent.
    """
    return "Transfer successful"
