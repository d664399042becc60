"""Reconstruction: one clock, who is who, fused events.

Reads events (through the case's reader); its results go to findings/ and, with the
findings, into the derived tables (clock_estimates, entities, entity_mentions,
aligned_events, fused_events). It never edits what an import wrote; rebuilding is
always possible.
"""
