"""Prior warnings about one person across agencies: person linkage and indicators."""
