"""domains package."""
