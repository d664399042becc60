"""Printing a score report for people (the --json form is the report itself)."""

from __future__ import annotations


def print_scores(report: dict) -> None:
    from rich.table import Table

    from onrecord.views.console import data_console

    console = data_console()
    if not report["built"]:
        console.print(f"{report['note']} — every score is 0", style="yellow")
    table = Table(title=f"scenario seed {report['seed']}: accuracy against truth")
    table.add_column("measure")
    table.add_column("score", justify="right")
    table.add_column("detail")
    off, met = report["clock_offsets"], report["metrics"]
    table.add_row("clock offsets", f"{off['within_tolerance']:.3f}",
                  f"{off['estimated']} of {len(off['per_source'])} sources estimated; "
                  f"within {off['tolerance_s']} s; mean error {off['mean_abs_error_s']}")
    table.add_row("clock offsets, relative", f"{off['within_tolerance_relative']:.3f}",
                  f"after the shared shift of {off['common_shift_s']} s")
    for key, label in (("event_fusion", "event fusion F1"), ("entity_resolution", "entity resolution F1"),
                       ("linkage", "prior-contact linkage F1")):
        s = report[key]
        table.add_row(label, f"{s['f1']:.3f}", f"P {s['precision']:.3f} R {s['recall']:.3f} "
                      f"({s['correct_pairs']}/{s['true_pairs']} true pairs)")
    table.add_row("response measures", f"{met['within_tolerance']:.3f}", f"share within {met['tolerance_s']} s")
    det, cnt = report["unit_and_call_metrics"], report["counts"]
    table.add_row("per unit / per call", f"{det['within_tolerance']:.3f}",
                  f"{len(det['per_metric'])} measures, share within {det['tolerance_s']} s")
    ranges = report.get("count_ranges") or {}
    table.add_row("units on scene / entered", f"{cnt['within_tolerance']:.3f}",
                  "share exactly right (a range by its middle)" + (
                      f"; ranges hold the truth {ranges['hold_truth']:.2f}, mean width {ranges['mean_width'] or 0:.1f}"
                      if ranges else ""))
    con = report.get("conflicts")
    if con:
        table.add_row("contradictions found", f"{con['recall']:.3f}",
                      f"{con['found']} of {con['injected']} injected; {con['right_findings']} of {con['findings']} "
                      f"discrepancy findings quote one (precision {con['precision']:.3f})")
    console.print(table)
    for name, m in met["per_metric"].items():
        err = "not found" if m["error_s"] is None else f"{m['error_s']:.1f} s off"
        console.print(f"  {name}: {err}")
