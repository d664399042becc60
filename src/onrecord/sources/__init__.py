"""Sources: bytes in, raw records and events out. Knows formats, nothing else."""
