"""The case store: raw records exactly as handed over, their hash chain, and events."""
