"""Reconstruction: one clock, who is who, fused events, and the response measured.

Reads events; writes only derived tables (clock_estimates, entities, entity_mentions,
aligned_events, fused_events, findings). Rebuilding is always possible.
"""
