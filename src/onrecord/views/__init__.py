"""Views only read: CLI tables, the web timeline, the report."""
