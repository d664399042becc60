"""A finding in words, for the reader reading it: the one place a Finding's data becomes
a sentence. Stored findings hold values, times (UTC ms), names and reason codes; the CLI,
the web pages, the API and the report call `sentence(finding, zone)` when they show one,
so the times in it are in the reader's zone (the case's display zone today).

A finding is read here the same way whether it is the build's `model.Finding` or a row
the reader gave back (a dict with the same keys). A metric added by a contributor adds
its sentence to SENTENCES (docs/extending.md); one without reads as its name and value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, is_dataclass
from zoneinfo import ZoneInfo

from onrecord import timetext

UTC = ZoneInfo("UTC")

# Why a finding is not established, by the code its payload keeps.
REASONS = {
    "no_shots": "no sensor or camera records shots",
    "none_after_first_shots": "no record of it after the first shots",
    "no_911_call": "no 911 call log presents a call after the first shots",
    "no_armed_arrival": "no armed unit's arrival is recorded",
    "no_entry": "no record says officers went in",
    "no_camera_footage": "no camera view records what footage it showed",
    "no_shared_moment": "offset unknown: it shares no recorded moment with another source",
    "no_trusted_clock": "offset unknown: none of the sources it shares moments with has a clock declared "
                        "reference or pinned; lined up with them only",
    "clock_unknown": "offset unknown",
    "doors_disagree": "offset unknown: the doors it shares with tied sources put it at several offsets alike "
                      "(a tie through one named moment, refused)",
}

# The moments a metric names, as the sentence says them.
MOMENT_WORDS = {"first_shots": "first shots", "first_dispatch": "first dispatch", "threat_ended": "threat ended",
                "first_entry": "first entry", "first_911_call": "first 911 call"}


class Words:
    """The finding being worded, and the reader's zone for its times."""

    def __init__(self, f: dict, zone: ZoneInfo):
        self.f, self.zone = f, zone
        self.p = f.get("payload") or {}
        self.subject = f.get("subject")
        self.lo, self.hi = f.get("value_lo"), f.get("value_hi")

    def time(self, ms: float) -> str:
        return timetext.sentence_time(ms, self.zone)

    def interval(self, lo: float | None = None, hi: float | None = None) -> str:
        return timetext.sentence_interval(self.lo if lo is None else lo, self.hi if hi is None else hi, self.zone)

    def seconds(self) -> str:
        return timetext.sentence_seconds(self.lo, self.hi)


def _count(v) -> str:
    return str(int(v)) if v is not None and float(v).is_integer() else f"{v:g}"


def _minutes(v) -> str:
    return "…" if v is None else f"{v:.1f}".rstrip("0").rstrip(".")


def _doc(doc: str | None) -> str:
    return (doc or "").split("#")[0]


# ---- metrics

def _moment(w: Words) -> str:
    return f"{MOMENT_WORDS[w.f['name']]}: {w.interval()}"


def _last_shots(w: Words) -> str:
    return f"last shots: {w.interval()} (a burst may run {w.p.get('burst_s', 10.0):.0f} s past its detection)"


# Why a unit that may have been first on scene cannot be put in order (metrics.first_unit).
CANDIDATE_WHY = {"clock_unknown": "on a clock tied to nothing trusted",
                 "clock_loose": "on a clock known only within minutes",
                 "overlaps": "its arrival falls within another candidate's interval"}


def _first_armed(w: Words) -> str:
    if w.p.get("unit_status") != "not_established":
        return f"first armed unit on scene ({w.p.get('unit') or '?'}): {w.interval()}"
    could = "; ".join(f"{c['unit']} ({CANDIDATE_WHY.get(c.get('why'), c.get('why'))}"
                      + (f": {c['source']}" if c.get("source") else "") + ")" for c in w.p.get("candidates", []))
    return (f"first armed unit on scene: {w.interval()}; which unit it was is not established, "
            f"it could be {could}")


def _unit_entered(w: Words) -> str:
    at = w.p.get("entered_at")
    return f"{w.subject} entered: {w.interval(*at)}" if at else f"{w.subject}: no record of entering"


def _outside(w: Words) -> str:
    held = "held outside while shots were fired" if w.lo > 0 else (
        "may have been outside while shots were fired" if w.hi > 0 else "not outside during shots")
    return f"{w.subject}: {w.seconds()} on scene outside while shots were still being fired ({held})"


def _units_entered(w: Words) -> str:
    entered, on_scene = int(w.p.get("recorded", w.lo)), int(w.p.get("on_scene", w.hi))
    unknown = on_scene - entered
    return (f"{w.subject}: {entered} of {on_scene} units on scene recorded going in"
            + (f"; no record says whether the other {unknown} did" if unknown else ""))


def _camera_lag(w: Words) -> str:
    return (f"the camera view called live was a replay {w.seconds()} behind "
            f"(median {w.p['median_s']:.0f} s over {w.p['views']} views)")


def _clock_offset(w: Words) -> str:
    p = w.p
    drift = p.get("drift_ppm")
    drifting = (f", {'gaining' if drift > 0 else 'losing'} {abs(drift) * 0.0864:.2f} s a day "
                f"({drift:+.1f} ± {p.get('drift_sd_ppm') or 0:.1f} ppm; the offset as at {w.time(p['drift_ref_ms'])})"
                if drift else "")
    return (f"{w.subject}: clock {timetext.sentence_offset(p['offset_s'], p.get('uncertainty_s'))}{drifting} "
            f"({p['status']}{LOOSE_WORDS if p['status'] == 'loose' else ''}, {p['anchors']} shared moments)")


# a clock estimated wider than an unknown one, or bounded by the order of records only (docs/metrics.md)
LOOSE_WORDS = ": only bounded, no surer than an unknown clock's ± 300 s"


def _reference_contradicted(w: Words) -> str:
    p = w.p
    return (f"{w.subject}: declared a reference clock (within ±{p['declared_uncertainty_s']:g} s), but "
            f"{' and '.join(p['contradicted_by'])} put it {timetext.sentence_offset(p['offset_s'], p['sigma_s'])}; "
            "not held as a reference, estimated like the others")


def _source_understood(w: Words) -> str:
    return f"{w.subject}: " + "; ".join(understood_parts(w.p))


def understood_parts(p: dict) -> list[str]:
    """The pieces of a source check, each a phrase (the CLI table shows them apart)."""
    c = p.get("clock") or {}
    out = [clock_against(c)] if p.get("shares_moment") is not None else ["clock: not set against other clocks"]
    if p.get("shares_moment") is False:
        out.append("shares no moment with another source")
    if p.get("text_events"):
        out.append(f"{p['unclassified']} of {p['text_events']} text lines not understood"
                   + (": " + ", ".join(f"“{t}” ×{n}" for t, n in p.get("common") or []) if p.get("common") else ""))
    if p.get("statuses_unread"):
        out.append(f"{p['statuses_unread']} unit statuses whose meaning the export does not say")
    if p.get("ignored_attributes"):
        out.append("attributes not read by the build: " + ", ".join(p["ignored_attributes"]))
    return out


def clock_against(c: dict) -> str:
    status = c.get("status")
    against = ", ".join(c.get("against") or [])
    if status == "reference":
        return "clock: declared reference" + (f", weighed against {against}" if against else "")
    if status == "pinned":
        return "clock: pinned by the user"
    if status == "estimated":
        return ("clock: declared reference contradicted, " if c.get("contradicted") else "clock: ") + \
            f"estimated against {against or 'the shared moments'}"
    if status == "loose":  # estimated wider than an unknown clock, or bounded by the order of records only
        return "clock: loose, only bounded" + (f" (against {against})" if against else " (by the order of records)")
    if status == "unknown" and against:
        return f"clock: unknown (lined up with {against}, none of them a reference)"
    return "clock: unknown"


# ---- discrepancies

def _side(side: dict) -> str:
    who = side.get("speaker_name") or side.get("speaker") or "someone"
    return f"{who}: “{side.get('text')}” ({_doc(side.get('doc'))})"


def _claims_disagree(w: Words) -> str:
    sides = w.p.get("sides") or []
    out = (f"accounts disagree on {w.p['measure'].replace('_', ' ')}"
           f"{' of ' + str(w.subject) if w.subject else ''}: " + " vs ".join(_side(s) for s in sides))
    backed = [s for s in sides if s.get("record_verdict") == "supports"]
    if len(backed) == 1:
        out += f"; the records support {backed[0].get('speaker_name') or 'the first'}'s account"
    return out


BACKED = {"supports": " (the records bear it out)", "contradicts": " (the records contradict it too)"}


def _contradicts_record(w: Words) -> str:
    p = w.p
    out = (f"{p.get('speaker')} says “{p['sentence'].strip()}” ({_doc(p.get('doc'))}); "
           f"the records say {says(p['says'], w.zone)}")
    for other in p.get("other_accounts") or []:
        who = other.get("speaker_name") or "another account"
        out += (f"; {who} says otherwise: “{other['sentence'].strip()}” ({_doc(other.get('doc'))})"
                f"{BACKED.get(other.get('record_verdict'), '')}")
    return out


# ---- warnings

def _prior_warnings(w: Words) -> str:
    p = w.p
    return (f"{w.subject}: {_count(w.lo)} contacts across {len(p['agencies'])} agencies, {p['with_indicators']} "
            f"with threat indicators; no agency saw more than {p['most_seen_by_one_agency']} of them")


SENTENCES: dict[str, Callable[[Words], str]] = {
    **{name: _moment for name in MOMENT_WORDS},
    "last_shots": _last_shots,
    "first_armed_unit_on_scene": _first_armed,
    "first_shot_to_first_entry": lambda w: f"first shots to first entry: {w.seconds()}",
    "first_armed_arrival_to_entry": lambda w: f"first armed unit on scene to first entry: {w.seconds()}",
    "patients_transported": lambda w: f"{_count(w.lo)} patients recorded as transported by medics",
    "unit_on_scene": lambda w: f"{w.subject} on scene: {w.interval()}",
    "unit_entered": _unit_entered,
    "unit_outside_while_shots": _outside,
    "agency_units_on_scene": lambda w: f"{w.subject}: {_count(w.lo)} units on scene",
    "agency_units_entered": _units_entered,
    "camera_live_lag": _camera_lag,
    "call_transfer_delay": lambda w: (f"caller {w.subject} waited {w.p['delay_s']:.0f} s from the first ring "
                                      "to an answer after transfer"),
    "mean_call_transfer_delay": lambda w: (f"transferred calls waited {w.p['mean_s']:.0f} s on average "
                                           f"({w.p['calls']} calls)"),
    "clock_offset": _clock_offset,
    "clock_reference_contradicted": _reference_contradicted,
    "source_understood": _source_understood,
    "claims_disagree": _claims_disagree,
    "claim_contradicts_record": _contradicts_record,
    "prior_warnings_not_joined": _prior_warnings,
}


# ---- alerts (live, or replayed by the build)

CLEAR_WORDS = {"shots_stopped": "shots stopped", "unit_entered": "the unit went in", "unit_available": "the unit "
               "cleared", "answered_after_transfer": "answered after the transfer", "camera_lag_within":
               "the camera caught up", "channel_shared": "a shared channel or patch", "agency_left_scene":
               "an agency left the scene", "no_shots_since_status": "no shot since its status"}


def _alert(w: Words) -> str:
    p, values = w.p, w.p.get("values") or {}
    fired = w.time(p["fired_at"]) if p.get("fired_at") is not None else "?"
    out = (f"{p.get('title') or w.f.get('name')} — {w.subject}: "
           f"{'would have fired' if p.get('replayed') else 'fired'} at {fired}")
    if p.get("held_since") is not None:
        out += f", holding since {w.time(p['held_since'])}"
    if p.get("cleared_at") is not None:
        reason = p.get("clear_reason")
        out += f"; cleared at {w.time(p['cleared_at'])} ({CLEAR_WORDS.get(reason, str(reason).replace('_', ' '))})"
    else:
        out += "; still holding at the last record" if p.get("replayed") else "; active"
    seen = values.get("seen_by")
    if seen:
        out += f"; in front of {', '.join(str(a) for a in seen)}"
    return out


def _as_dict(f) -> dict:
    return asdict(f) if is_dataclass(f) else f


WITHHELD = "some of the evidence is withheld from you (a source restricted to another agency)"


def sentence(finding, zone: ZoneInfo | None = None) -> str:
    """One sentence a reader can quote, its times in `zone` (UTC if none is given)."""
    f = _as_dict(finding)
    if f.get("status") == "withheld":  # store/read_records.py: rests on a source restricted to another agency
        return f"{f['name'].replace('_', ' ')}: {WITHHELD}"
    w = Words(f, zone or UTC)
    if f.get("status") == "not_established":
        reason = REASONS.get(w.p.get("reason"), "not established")
        if f.get("name") == "clock_offset":
            return f"{w.subject}: {reason}"
        return f"{f['name'].replace('_', ' ')}: not established — {reason}"
    if f.get("kind") == "alert":
        return _alert(w)
    word = SENTENCES.get(f.get("name"))
    return word(w) if word else _plain(w)


def _plain(w: Words) -> str:
    """A finding with no sentence of its own: its name, what it is about, and its value."""
    f, unit = w.f, w.f.get("unit")
    about = f" ({w.subject})" if w.subject else ""
    if w.lo is None and w.hi is None:
        value = "no value"
    elif unit == "utc_ms":
        value = w.interval(w.lo if w.lo is not None else w.hi, w.hi if w.hi is not None else w.lo)
    elif unit == "s":
        value = timetext.sentence_seconds(w.lo if w.lo is not None else w.hi, w.hi if w.hi is not None else w.lo)
    else:
        lo, hi = w.lo if w.lo is not None else w.hi, w.hi if w.hi is not None else w.lo
        value = _count(lo) if lo == hi else f"{_count(lo)}–{_count(hi)}"
        value += f" {unit}" if unit and unit != "count" else ""
    return f"{f['name'].replace('_', ' ')}{about}: {value}"


# ---- what the records say, in a verdict on a claim (findings/claim_checks.py)

def _what(what: dict) -> str:
    """A moment a verdict compares with: 'the first shots', 'E31 arrived'."""
    kind = what.get("what")
    return {"first_shots": "the first shots", "first_entry": "the first entry",
            "first_911_call": "the first 911 call"}.get(kind) or {
        "unit_arrived": lambda: f"{what.get('unit')} arrived",
        "unit_entered": lambda: f"{what.get('unit')} entered",
        "first_dispatch_on_call": lambda: f"the first dispatch on call {what.get('call')}",
        "said_on_radio": lambda: f"“{what.get('words')}” on the radio",
    }.get(kind, lambda: str(kind))()


def _t(ms: float, zone: ZoneInfo) -> str:
    return timetext.sentence_time(ms, zone)


def _calls_presented(d: dict, zone: ZoneInfo) -> str:
    window = d.get("within_min")
    return (f"the 911 logs present at most {d['calls']} calls in that window"
            + (f" (the first {window:g} minutes after the first shots)" if window else
               " (from the first shots on)" if "within_min" in d else ""))


def _arrived_and_entered(d: dict, zone: ZoneInfo) -> str:
    (a0, a1), (e0, e1), (lo, hi) = d["arrived"], d["entered"], d["minutes"]
    return (f"{d['unit']} arrived {_t(a0, zone)}–{_t(a1, zone)} and entered {_t(e0, zone)}–{_t(e1, zone)}: "
            f"{_minutes(lo)}–{_minutes(hi)} min")


def _armed_units(d: dict, zone: ZoneInfo) -> str:
    before = d.get("before_last_shots")
    when = f"before the last shots ({_t(before, zone)})" if before is not None else "on scene"
    return f"{len(d['units'])} armed units of theirs are recorded {when}: " + ", ".join(d["units"])


# What the records say, by the `say` of the data a claim check returns.
SAYS: dict[str, Callable[[dict, ZoneInfo], str]] = {
    "no_shots_after": lambda d, z: "no sensor detected shots after that moment",
    "sensor_counted": lambda d, z: (f"gunshot sensor {d['device']} alone counted {d['shots']} shots after that "
                                    f"moment ({d['bursts']} bursts)"),
    "calls_presented": _calls_presented,
    "on_scene_by": lambda d, z: f"{d['unit']} was on scene by {_t(d['at'], z)}; {says(d['then'], z)}",
    "no_shots_after_arrival": lambda d, z: f"no sensor detected shots after {d['unit']} arrived",
    "on_the_radio": lambda d, z: f"{d['unit']} on the radio: " + "; ".join(f"“{w}”" for w in d["words"]),
    "arrived_and_entered": _arrived_and_entered,
    "no_unit_outside_longer": lambda d, z: (f"no unit of theirs was outside while shots were fired longer than "
                                            f"{_minutes(d['minutes'])} min ({sentence(d['finding'], z)})"),
    "finding": lambda d, z: sentence(d["finding"], z),
    "armed_units_recorded": _armed_units,
    "not_live": lambda d, z: (f"{sentence(d['finding'], z)}; a view more than {d['live_max_s']:.0f} s behind "
                              "is not live"),
    "came_after": lambda d, z: (f"{_what(d['what'])} came {_minutes(d['between'][0])}–{_minutes(d['between'][1])} "
                                f"{d['unit']}s after {_what(d['after'])}"),
    "local_time_between": lambda d, z: (f"{_what(d['what'])} between {timetext.minute_of_day(d['minutes'][0])} and "
                                        f"{timetext.minute_of_day(d['minutes'][1])} local time"),
}


def says(data: dict | str | None, zone: ZoneInfo | None = None) -> str:
    """What the records say about a claim, in words (a verdict's `says`)."""
    if not isinstance(data, dict):
        return "" if data is None else str(data)
    word = SAYS.get(data.get("say"))
    return word(data, zone or UTC) if word else str(data.get("say"))
