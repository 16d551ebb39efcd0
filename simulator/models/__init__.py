"""simulator/models package."""
