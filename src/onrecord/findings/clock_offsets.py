"""Each source's clock as a finding: how far it runs from the common clock, ± how much,
drifting or not, and the shared moments it rests on; or why it cannot be told."""

from __future__ import annotations

from onrecord.model import Finding
from onrecord.reconstruct import clocks as clk

# A clock's note says why its offset is unknown; the finding keeps the reason as a code.
UNKNOWN_REASONS = {clk.NO_SHARED_MOMENT: "no_shared_moment", clk.NO_TRUSTED_CLOCK: "no_trusted_clock",
                   clk.DOORS_DISAGREE: "doors_disagree"}


def clock_offsets(r, found: list[Finding]) -> list[Finding]:
    out = []
    names = dict(zip(r.sources["id"], r.sources["file_name"]))
    for s in r.sources.itertuples():
        c = r.clocks.get(int(s.id))
        if c is None or s.kind in ("roster",):
            continue
        if c.contradicted:
            out.append(_contradicted(s.file_name, c, names))
        if c.offset_s is None:
            out.append(Finding("clock_offset", "not_established", kind="metric", subject=s.file_name, unit="s",
                               payload={"status": c.status, "anchors": c.anchors,
                                        "reason": UNKNOWN_REASONS.get(c.note, "clock_unknown"),
                                        "needs": c.needs}, evidence=[]))
            continue
        out.append(Finding("clock_offset", "established", subject=s.file_name,
                           value_lo=c.offset_s - (c.uncertainty_s or 0), value_hi=c.offset_s + (c.uncertainty_s or 0),
                           unit="s", payload={"status": c.status, "offset_s": c.offset_s,
                                              "uncertainty_s": c.uncertainty_s, "anchors": c.anchors,
                                              "drift_ppm": c.drift_ppm, "drift_sd_ppm": c.drift_sd_ppm,
                                              "drift_ref_ms": c.drift_ref_ms},
                           evidence=sorted({a["event"] for e in c.evidence for a in e["anchors"]})))
    return out


def _contradicted(name: str, c, names: dict) -> Finding:
    """A clock declared reference that two others, tied to true time without it, put further
    off than its declaration allows: it was estimated instead, and the reader is told."""
    said = c.contradicted
    return Finding("clock_reference_contradicted", "established", subject=name,
                   value_lo=said["offset_s"] - said["sigma_s"], value_hi=said["offset_s"] + said["sigma_s"], unit="s",
                   payload={"declared_uncertainty_s": said["declared_s"], "offset_s": said["offset_s"],
                            "sigma_s": said["sigma_s"], "contradicted_by": [names.get(b, str(b)) for b in said["by"]]},
                   evidence=sorted({a["event"] for e in c.evidence for a in e["anchors"]}))
