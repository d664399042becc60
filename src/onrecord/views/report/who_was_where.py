"""Who was where over time, drawn as SVG: one lane per unit, its state between status
events (dispatched, en route, on scene, inside), shots detected as red ticks. Plain SVG
because the PDF has no browser to run Plotly in."""

from __future__ import annotations

from html import escape

from onrecord.timetext import clock_time

STATES = [("unit_dispatched", "dispatched", "#c9d3df"), ("unit_enroute", "en route", "#8fa9c7"),
          ("unit_arrived", "on scene, outside", "#e0a458"), ("entry", "inside", "#b23a48")]
LANE, LABEL_W, WIDTH, TOP = 15, 150, 1000, 34


def _ticks(lo: int, hi: int) -> list[int]:
    step = next(s for s in (60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 86_400_000)
                if (hi - lo) / s <= 12)
    first = (lo // step + 1) * step
    return list(range(first, hi, step))


def who_was_where(units: list[dict], shots: list[dict], window: tuple[int, int], zone, colours: dict) -> str:
    # From just before the first shot or status to a little after the last: the window's quiet
    # stretches (a camera's motion hours earlier) would squeeze the response into a sliver.
    marks = [u[k]["t_lo"] for u in units for k, _, _ in STATES if k in u] + [s["t_lo"] for s in shots]
    lo = max(window[0], min(marks, default=window[0]) - 2 * 60_000)
    hi = min(window[1], max(marks, default=window[1]) + 5 * 60_000)
    x = lambda t: LABEL_W + (WIDTH - LABEL_W - 10) * (t - lo) / max(1, hi - lo)
    height = TOP + LANE * len(units) + 44
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
           f'font-family="DejaVu Sans, sans-serif" font-size="10" role="img" aria-label="who was where over time">']
    for t in _ticks(lo, hi):
        out.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{TOP - 4}" y2="{height - 40}" stroke="#e3e6ea"/>'
                   f'<text x="{x(t):.1f}" y="{height - 28}" text-anchor="middle" fill="#444">'
                   f'{escape(clock_time(t, zone)[:5])}</text>')
    for s in shots:
        out.append(f'<line x1="{x(s["t_lo"]):.1f}" x2="{x(s["t_lo"]):.1f}" y1="{TOP - 12}" y2="{TOP - 3}" '
                   f'stroke="#d00" stroke-width="1.5"/>')
    for i, u in enumerate(units):
        y = TOP + i * LANE
        out.append(f'<text x="{LABEL_W - 6}" y="{y + 10}" text-anchor="end" fill="{colours.get(u["agency"], "#444")}"'
                   f' font-weight="bold">{escape((u["agency"] or "") + " " + u["unit"])}</text>')
        marks = [(u[k]["t_lo"], colour) for k, _, colour in STATES if k in u]
        for j, (t, colour) in enumerate(marks):
            t_end = marks[j + 1][0] if j + 1 < len(marks) else hi
            out.append(f'<rect x="{x(t):.1f}" y="{y + 2}" width="{max(1.0, x(t_end) - x(t)):.1f}" height="{LANE - 4}"'
                       f' fill="{colour}"/>')
    out.append(_legend(height - 14, bool(shots)))
    out.append(f'<text x="{LABEL_W}" y="12" fill="#444">local time, {escape(zone.key)}; red ticks: shots detected'
               f' by sensors</text></svg>')
    return "".join(out)


def _legend(y: int, shots: bool) -> str:
    parts, xx = [], LABEL_W
    for _, name, colour in STATES:
        parts.append(f'<rect x="{xx}" y="{y - 9}" width="14" height="10" fill="{colour}"/>'
                     f'<text x="{xx + 18}" y="{y}" fill="#222">{escape(name)}</text>')
        xx += 30 + 7 * len(name)
    return "".join(parts)
