"""The after-action report: one HTML document (Jinja2), printed to PDF by WeasyPrint."""
