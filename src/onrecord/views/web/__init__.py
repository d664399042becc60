"""The web view: `onrecord serve` (FastAPI + Jinja2 pages, a JSON API under /api/)."""
