"""What the insurance generator draws from: vehicles, claim statuses, cancellation reasons."""

from __future__ import annotations

CLAIM_STATUSES: tuple[str, ...] = ("submitted", "under review", "approved", "denied", "paid")
"""Statuses of the generated claims (a new claim is "submitted"; a withdrawn one "withdrawn")."""

CANCEL_REASONS: tuple[str, ...] = ("switching insurers", "sold the insured property", "other")
"""The reasons a cancellation may record."""

AUTO_MODELS: tuple[tuple[str, str], ...] = (
    ("Toyota", "Camry"),
    ("Toyota", "RAV4"),
    ("Honda", "Civic"),
    ("Honda", "CR-V"),
    ("Ford", "F-150"),
    ("Ford", "Escape"),
    ("Chevrolet", "Malibu"),
    ("Chevrolet", "Equinox"),
    ("Subaru", "Outback"),
    ("Subaru", "Forester"),
    ("Hyundai", "Elantra"),
    ("Kia", "Sportage"),
    ("Nissan", "Altima"),
    ("Mazda", "CX-5"),
    ("Tesla", "Model 3"),
    ("Volkswagen", "Jetta"),
    ("BMW", "3 Series"),
    ("Jeep", "Wrangler"),
)
"""Makes and models of insured vehicles."""
