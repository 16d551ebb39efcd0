"""Terminal rendering of the catalogs: model providers, emotions, domains (rich, escaped)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from tau_sim.simulator.results.terminal import cell, stdout_console
from tau_sim.simulator.world.domain import TIERS, Domain


def render_models(catalog: dict[str, Any], console: Console | None = None) -> None:
    """Print the model providers, agent kinds and user kinds with their option keys."""
    console = console or stdout_console()
    for title, key, what in (
        ("model providers (--agent/--user PROVIDER/MODEL)", "model_providers", "serves"),
        ("agent kinds (--agent KIND/NAME; --agent-arg KEY=VALUE)", "agents", "what"),
        ("user kinds (--user; --user-arg KEY=VALUE)", "users", "what"),
    ):
        table = Table(title=title)
        for column in ("name", "what", "options (default)"):
            table.add_column(column)
        for name, entry in catalog[key].items():
            options = ", ".join(k if v is None else f"{k}={v}" for k, v in entry["options"].items())
            table.add_row(cell(name), cell(entry[what]), cell(options or "-"))
        console.print(table)


def render_emotions(catalog: dict[str, Any], console: Console | None = None) -> None:
    """Print the emotion families and leaves, the intensity levels and the dimensions."""
    console = console or stdout_console()
    table = Table(title="emotions (--emotions: a leaf, an alias, or a family = its default leaf)")
    for column in ("family", "leaf", "aliases", "politeness/urgency/trust"):
        table.add_column(column)
    for family, entry in catalog["families"].items():
        for name, leaf in entry["leaves"].items():
            default = " (default)" if name == entry["default_leaf"] else ""
            table.add_row(
                cell(family),
                cell(name + default),
                cell(", ".join(leaf["aliases"]) or "-"),
                f"{leaf['politeness']}/{leaf['urgency']}/{leaf['trust']}",
            )
    console.print(table)
    levels = ", ".join(f"{k}={v:g}" for k, v in catalog["intensities"].items())
    console.print(f"intensities (--intensities): {levels}, or any number in 0..1", markup=False)
    for dimension, names in catalog["dimensions"].items():
        console.print(
            f"--{dimension}: {', '.join(names)} or {catalog['dimension_default']} (the leaf's own)",
            markup=False,
        )


def render_domains(domains: list[Domain], console: Console | None = None) -> None:
    """Print the registered domains with their sizes."""
    console = console or stdout_console()
    table = Table(title="domains")
    for column in ("name", "title", "tools", "user tools", "intents", "tasks"):
        table.add_column(column)
    for d in domains:
        table.add_row(
            d.name,
            cell(d.title),
            str(len(d.toolkit.tools)),
            str(len(d.user_toolkit.tools)) if d.user_toolkit is not None else "-",
            str(len(d.intents)),
            str(len(d.tasks)),
        )
    console.print(table)


def render_domain(domain: Domain, console: Console | None = None) -> None:
    """Print a domain's tools (kind, arguments, description), intents and tasks per tier."""
    console = console or stdout_console()
    console.print(f"[bold]{cell(domain.name)}[/bold] — {cell(domain.title)}")
    tools = Table(title=f"{len(domain.toolkit.tools)} tools")
    for column in ("tool", "kind", "arguments", "description"):
        tools.add_column(column)
    for tool in domain.toolkit.tools.values():
        params = tool.spec.parameters
        required = set(params.get("required", []))
        args = ", ".join(
            name + ("" if name in required else "?") for name in params.get("properties", {})
        )
        tools.add_row(tool.name, tool.kind.value, cell(args), cell(tool.spec.description))
    console.print(tools)
    intents = Table(title=f"{len(domain.intents)} intents")
    intents.add_column("intent")
    intents.add_column("description")
    for intent in domain.intents:
        intents.add_row(intent.name, cell(intent.description))
    console.print(intents)
    where = f" in {domain.tasks_path}" if domain.tasks_path is not None else ""
    tiers = ", ".join(f"{sum(t.tier == tier for t in domain.tasks)} {tier}" for tier in TIERS)
    console.print(f"{len(domain.tasks)} benchmark tasks ({tiers}){where}", markup=False)
