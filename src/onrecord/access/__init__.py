"""Who may read a case: accounts and sign-in, roles and per-agency access, the audit of
every read, redaction of protected people (docs/access.md)."""
