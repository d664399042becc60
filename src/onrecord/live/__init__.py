"""Live: feeds of a running incident, the stream between ingest and rules, the rules
(TOML data, `rules/`), the alert engine, and the replay of a built case through the same
rules. Every frame a feed receives is on the case's evidence chain before it is read
(`ingest.py`); alerts are `model.Finding`s of kind `alert` (`engine.py`). docs/live.md.
"""
