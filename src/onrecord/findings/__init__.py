"""Findings as data: the response measured (metrics, lags, clock offsets), claims checked
against the records, and where accounts disagree. Each is a `model.Finding` whose payload
holds values, times (UTC ms) and evidence ids, never a finished sentence: render.py words
it when it is read. compute.py runs every registered metric and the claim checks over a
build (reconstruct/) and hands the findings to the build's write.
"""
