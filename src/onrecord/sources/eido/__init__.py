"""NENA EIDO (NENA-STA-021) in: documents, NDJSON streams, folders and NENA-STA-024 notify
messages, validated against the NENA schema, diffed snapshot by snapshot into events."""
