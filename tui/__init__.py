"""The live terminal UI of tau-sim (``tau-sim tui``): dashboard, conversations, attach."""
