"""onrecord: every agency's account of a public-safety incident on one record."""

__version__ = "0.1.0"
