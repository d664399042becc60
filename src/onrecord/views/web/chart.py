"""The timeline chart's data: every event as a point while they are few enough for the
browser, counts per lane and time bucket beyond that (zooming in brings points back)."""

from __future__ import annotations

from dataclasses import replace
from html import escape
from zoneinfo import ZoneInfo

from onrecord.store.read_timeline import TimelineQuery
from onrecord.store.reader import CaseReader
from onrecord.timetext import duration, sentence_time, to_local
from onrecord.views.web import present

MAX_POINTS = 20_000
BUCKETS_S = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400, 30 * 86400,
             365 * 86400]
TARGET_BUCKETS = 300  # across the window: fine enough to see the shape, few enough to draw at once


def lane_label(lanes: str, agency: str | None, value: str | None) -> str:
    """A lane's name, escaped: Plotly reads tick labels as markup and these come from exports."""
    if lanes == "agency":
        return escape(agency or "(no agency)")
    return escape(f"{agency or '—'} · {value or ('no unit' if lanes == 'unit' else '?')}")


def _x(ms: int, zone: ZoneInfo) -> str:
    # Naive local time: Plotly draws it as written, so the axis reads in the case's zone.
    return to_local(ms, zone).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


class LocalClock:
    """UTC ms -> the same wall-clock reading as ms, for Plotly, which has no time zones: numbers
    are cheap to send for 20,000 points. Offsets change only on the hour, so cache per hour."""

    def __init__(self, zone: ZoneInfo):
        self.zone, self.offsets = zone, {}

    def __call__(self, ms: int) -> int:
        hour = ms // 3_600_000
        off = self.offsets.get(hour)
        if off is None:
            off = self.offsets[hour] = int(to_local(hour * 3_600_000, self.zone).utcoffset().total_seconds() * 1000)
        return ms + off


def timeline_data(reader: CaseReader, q: TimelineQuery, facets: dict, lanes: str, max_points: int) -> dict:
    zone = facets["zone"]
    if q.t_from is None and q.t_to is None and facets["window"]:
        q = replace(q, t_from=facets["window"][0], t_to=facets["window"][1])
    n = reader.timeline_count(q, max_points + 1)
    lo = q.t_from if q.t_from is not None else facets["t_min"]
    hi = q.t_to if q.t_to is not None else facets["t_max"]
    head = {"timezone": zone.key, "zone_abbr": to_local(lo or 0, zone).strftime("%Z"),
            "clock": "aligned" if reader.is_built() else "source", "lanes_by": lanes,
            "window": present.times_json(lo, hi, zone),
            "window_x": [_x(lo, zone), _x(hi, zone)] if lo is not None and hi is not None else None,
            "colours": facets["colours"]}
    if n <= max_points:
        return head | _points(reader, replace(q, limit=max_points), zone, lanes, facets["colours"])
    bucket_s = next((b for b in BUCKETS_S if b * TARGET_BUCKETS * 1000 >= (hi or 0) - (lo or 0)), BUCKETS_S[-1])
    return head | _bins(reader, q, zone, lanes, bucket_s, facets["colours"]) | {"count_at_least": n}


def _trace(agency: str | None, colours: dict) -> dict:
    # `name` is the legend's text, escaped: Plotly reads legend names as markup (an agency code
    # holding <a href> would be a link); `agency` stays the code as exported, for filters.
    return {"agency": agency or "(no agency)", "name": escape(agency or "(no agency)"),
            "colour": colours.get(agency, "#444444"), "x": [], "y": [], "id": [], "hover": []}


def _points(reader: CaseReader, q: TimelineQuery, zone: ZoneInfo, lanes: str, colours: dict) -> dict:
    rows = reader.timeline_points(q)
    traces: dict[str | None, dict] = {}
    lane_set, wall = set(), LocalClock(zone)
    lane_at = {"agency": 2, "unit": 3, "source": 4}[lanes]
    for event_id, t, agency, unit, source_kind, kind, text, file, line in rows:
        tr = traces.get(agency) or traces.setdefault(agency, _trace(agency, colours))
        lane = lane_label(lanes, agency, (event_id, t, agency, unit, source_kind)[lane_at])
        lane_set.add(lane)
        tr["x"].append(wall(t))
        tr["y"].append(lane)
        tr["id"].append(event_id)
        text = (text or "").replace("\n", " ")
        # The time is added in the browser from x (hovertemplate), with the zone's abbreviation.
        # Agency exports are untrusted text: escaped, since Plotly reads hover text as markup.
        snippet = f"<br>{escape(text[:90])}{'…' if len(text) > 90 else ''}" if text else ""
        tr["hover"].append(f"{escape(agency or '')} {escape(unit or '')} · {escape(kind)}{snippet}"
                           f"<br>{escape(file)}:{line}")
    return {"mode": "points", "count": len(rows), "lanes": sorted(lane_set, reverse=True),
            "traces": [traces[k] for k in sorted(traces, key=lambda a: a or "")]}


def _bins(reader: CaseReader, q: TimelineQuery, zone: ZoneInfo, lanes: str, bucket_s: int, colours: dict) -> dict:
    traces: dict[str | None, dict] = {}
    lane_set, total, wall = set(), 0, LocalClock(zone)
    for b in reader.timeline_bins(q, bucket_s * 1000, lanes):
        if b["agency"] not in traces:
            traces[b["agency"]] = _trace(b["agency"], colours) | {"n": []}
        tr = traces[b["agency"]]
        lane = lane_label(lanes, b["agency"], b["lane"])
        lane_set.add(lane)
        tr["x"].append(wall(b["t"] + bucket_s * 500))
        tr["y"].append(lane)
        tr["n"].append(b["n"])
        tr["hover"].append(f"{b['n']:,} events · {lane}<br>{sentence_time(b['t'], zone)} + "
                           f"{duration(bucket_s)}<br>zoom in to see each event")
        total += b["n"]
    return {"mode": "bins", "bucket_s": bucket_s, "count": total, "lanes": sorted(lane_set, reverse=True),
            "traces": [traces[k] for k in sorted(traces, key=lambda a: a or "")]}
