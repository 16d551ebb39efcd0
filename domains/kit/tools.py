"""Tools customer-service worlds share: arithmetic, day counts and the transfer to a human agent.

A domain registers one by naming it in its tools module (``calculate = kit_tools.calculate``);
``calculate`` and ``transfer_to_human_agents`` every world has, ``days_between`` the worlds whose
policy counts days (claim windows, notice periods). ``address_tool`` makes a world's tool that
changes a customer's (or an order's) address, ``profile_tool`` the one that shows a customer's
profile, each under the world's own name and description; ``declared`` builds such a tool, of
string parameters named at run time.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from tau_sim.domains.kit.calc import days_from, evaluate_expression
from tau_sim.domains.kit.lookup import load
from tau_sim.domains.kit.payments import money
from tau_sim.domains.kit.people import new_address
from tau_sim.simulator.core import TerminationReason
from tau_sim.simulator.world import Database, Tool, ToolError, ToolKind, tool

Arg = tuple[str, str]
"""A tool parameter and the description the agent reads."""


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


@tool(ToolKind.READ, ends=TerminationReason.TRANSFER, composed=("summary",))
def transfer_to_human_agents(db: Database, summary: str) -> str:
    """Transfer the user to a human agent, with a summary of the issue.

    Only when the user asks for a human or the request cannot be handled within the policy and
    the tools.

    Args:
        summary: A short summary of the user's issue for the human agent.
    """
    return "Transfer successful"


_USER_ID = 'The user id, e.g. "ava_smith_1234".'

ADDRESS_ARGS: tuple[tuple[str, str], ...] = (
    ("address1", 'First address line, e.g. "123 Main Street".'),
    ("address2", 'Second address line, e.g. "Apt 1"; an empty string when there is none.'),
    ("city", 'City, e.g. "Austin".'),
    ("state", 'State code, e.g. "TX".'),
    ("country", 'Country, e.g. "USA".'),
    ("zip", 'Zip code, e.g. "78701".'),
)
"""The six parameters of a complete address, as every address tool names and describes them."""


def declared(
    fn: Callable[..., Any], name: str, kind: ToolKind, description: str, args: Sequence[Arg]
) -> Tool:
    """The tool ``name`` that runs ``fn(db, **arguments)`` with the string parameters ``args``.

    ``args`` are (parameter, description) pairs in the order the agent sees them: the tool's
    schema is that of a function with those parameters, all strings, and the docstring
    ``description`` followed by their descriptions.
    """
    db = inspect.Parameter("db", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = [inspect.Parameter(a, inspect.Parameter.KEYWORD_ONLY) for a, _ in args]
    fn.__signature__ = inspect.Signature([db, *params])  # type: ignore[attr-defined]
    fn.__annotations__ = {a: str for a, _ in args}
    lines = "".join(f"        {a}: {doc}\n" for a, doc in args)
    fn.__doc__ = f"{description}\n\n    Args:\n{lines}"
    return Tool(fn, kind, name)


def _same(customer: Any) -> Any:
    return customer


def address_tool(
    name: str,
    description: str,
    *,
    view: Callable[[Any], Any] = _same,
    table: str = "users",
    key: Arg = ("user_id", _USER_ID),
    find: Callable[[Database, str], Any] | None = None,
) -> Tool:
    """A WRITE tool ``name`` that replaces the address of a record with a complete new one.

    The record is ``find(db, <key>)`` (by default the customer ``user_id`` of ``table``, a kit
    ``Customer``); ``find`` raises ``ToolError`` where the record is unknown or its address may
    no longer change. ``key`` is the parameter that names it and its description, the field of
    the record that keys it in ``table``; ``description`` is the first line the agent reads
    (which address it is, what keeps its own); the tool returns ``view`` of the updated record
    (the record itself by default).
    """
    field = key[0]

    def by_key(db: Database, text: str) -> Any:
        return load(db, table, text, "user")

    get = find or by_key

    def change_address(db: Database, **arguments: str) -> Any:
        found = get(db, arguments[field])
        address = new_address(*(arguments[a] for a, _ in ADDRESS_ARGS))
        updated = msgspec.structs.replace(found, address=address)
        db.put(table, getattr(found, field), updated)
        return view(updated)

    return declared(change_address, name, ToolKind.WRITE, description, (key, *ADDRESS_ARGS))


def profile_tool(
    name: str,
    description: str,
    get: Callable[[Database, str], Any],
    *,
    user_id_doc: str = _USER_ID,
) -> Tool:
    """A READ tool ``name`` that shows a customer's profile: what ``get(db, user_id)`` returns.

    ``get`` raises ``ToolError`` for an unknown id (a kit ``loader``, maybe wrapped in a view);
    ``description`` says what the profile holds, ``user_id_doc`` how the argument is described.
    """

    def show_profile(db: Database, user_id: str) -> Any:
        return get(db, user_id)

    show_profile.__doc__ = f"{description}\n\n    Args:\n        user_id: {user_id_doc}\n"
    return Tool(show_profile, ToolKind.READ, name)
