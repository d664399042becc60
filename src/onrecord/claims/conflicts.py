"""Claims about the same thing, side by side; where they cannot both be true.

Two claims are about the same thing when subject, measure, qualifier (the action of a
time), unit and anchor event agree. They conflict when their intervals do not overlap:
"upwards of four minutes" [4, open) and "five minutes" [5, 5] can both be true;
"four minutes" [4, 4] and "five minutes" [5, 5] cannot.
"""

from __future__ import annotations

import re
from collections import defaultdict
from itertools import combinations
from typing import Any

from onrecord.claims.records import Comparison, Conflict, Entity
from onrecord.model import Claim

INF = float("inf")


def group_key(c: Claim, incident_of: dict[str, str] | None = None) -> tuple:
    """What must agree for two claims to be about one thing. A time of action is about one
    moment (its event kind: arrival, entry, the last shot...) rather than one wording of
    its verb; a time whose moment is not named is comparable with none."""
    from onrecord.claims.verbs import INCIDENT_EVENTS

    ref = c.time_ref or {}
    qualifier, subject = c.qualifier, c.subject
    if c.measure == "time_of_action":
        qualifier = ref.get("event") or f"unnamed:{c.id}"
        if qualifier in INCIDENT_EVENTS:
            subject = "incident"
    return (subject, c.measure, qualifier, c.unit, ref.get("anchor_event") or ref.get("anchor"), ref.get("during"),
            ref.get("within_first_min"), ref.get("other_incident"), (incident_of or {}).get(c.doc))


EXHAUSTIVE_BEFORE = re.compile(r"\b(?:only|just|a total of|total of|in all|all|no more than|"
                               r"the number of\b[^.;]{0,140}?\b(?:to|at|is|was))\s+(?:\w+\s+)?$", re.IGNORECASE)
EXHAUSTIVE_AFTER = re.compile(r"^[^.;]{0,40}\b(?:in all|in total|altogether)\b", re.IGNORECASE)


def exhaustive(c: Claim) -> bool:
    """A count said to be all there were ("only one deputy", "a total of 39 officers", "raises
    the number ... to four", "... in all"), not just those the writer knows of."""
    before = c.sentence[:c.start - c.sentence_start]
    return bool(EXHAUSTIVE_BEFORE.search(before) or re.match(r"(?:only|just|a total of|all)\b", c.text, re.I)
                or EXHAUSTIVE_AFTER.match(c.sentence[c.end - c.sentence_start:]))


def officer_counts_clash(a: Claim, b: Claim) -> bool:
    """Two counts of officers cannot both hold only when the smaller is said to be all there
    were: "three deputies stayed outside" and "four deputies stayed outside" may be two
    reporters' partial counts (the four with the deputy already named); "only one deputy
    was on the scene" against four is a contradiction."""
    small = a if _bounds(a.lo, a.hi)[1] < _bounds(b.lo, b.hi)[0] else b
    return exhaustive(small)


def comparable(a: Claim, b: Claim) -> bool:
    """Two claims of one group that may be set against each other. Inside one document,
    differing counts of people are parts and updates of one toll ("10 dead ... three in
    the parking lot"), not an account against itself; time that passed with no anchor
    ("about 14 minutes", "70 minutes") says between which moments only in its sentence."""
    if (a.time_ref or {}).get("other_incident") or (b.time_ref or {}).get("other_incident"):
        return False  # another incident's figure, quoted for comparison
    revised = (a.time_ref or {}).get("revises") or (b.time_ref or {}).get("revises")
    if a.doc == b.doc and a.unit in {"people", "officers"} and not revised:
        return False  # one account's counts are parts and updates of each other
    if a.measure.startswith("count_officers_") and b.measure == a.measure and not revised \
            and not officer_counts_clash(a, b):
        return False
    if a.measure == "duration_elapsed" and not (a.time_ref or {}).get("anchor"):
        return False
    return True


def clash(a: Claim, b: Claim, years: dict[str | None, set[str]] | None = None,
          earliest: set[str] | None = None) -> bool:
    """Two claims of one group that cannot both hold: comparable, and the intervals they
    stand for against another account (occurrences.py: a first call against some call, a
    toll that counts the gunman, "dozens") do not overlap. A claim whose sentence names
    another incident by its year is that incident's and clashes with nothing here."""
    from onrecord.claims.occurrences import both_first, comparison_interval, occurrence, other_year_event

    if not comparable(a, b) or not both_first(a, b, earliest):
        return False
    if a.doc == b.doc and occurrence(a) is not None and not two_voices(a, b):
        return False  # one account's two times of a recurring moment are two occurrences
    if years is not None and any(other_year_event(c, years.get(c.doc, set())) for c in (a, b)):
        return False
    ia, ib = comparison_interval(a, earliest), comparison_interval(b, earliest)
    return ia is not None and ib is not None and not overlap(ia, ib)


def two_voices(a: Claim, b: Claim) -> bool:
    """Two named voices in one article ("the chief said 10:39; his spokesman said about 10"),
    not the writer against a source or an unattributed line."""
    named = [c.speaker for c in (a, b) if c.speaker and not c.speaker.startswith("author:")]
    return len(named) == 2 and named[0] != named[1]


def incident_years_of(claims: list[Claim], incident_of: dict[str, str] | None) -> dict[str | None, set[str]]:
    """Each document's incident's years (occurrences.incident_years), by document."""
    from onrecord.claims.occurrences import incident_years

    by_incident: dict[str | None, list[Claim]] = defaultdict(list)
    for c in claims:
        by_incident[(incident_of or {}).get(c.doc)].append(c)
    years = {i: incident_years(cs) for i, cs in by_incident.items()}
    return {c.doc: years[(incident_of or {}).get(c.doc)] for c in claims}


def _bounds(lo: float | None, hi: float | None) -> tuple[float, float]:
    return (-INF if lo is None else lo), (INF if hi is None else hi)


def overlap(a: tuple[float | None, float | None], b: tuple[float | None, float | None]) -> bool:
    alo, ahi = _bounds(*a)
    blo, bhi = _bounds(*b)
    return max(alo, blo) <= min(ahi, bhi)


def _groups(claims: list[Claim], incident_of: dict[str, str] | None = None) -> dict[tuple, list[Claim]]:
    groups: dict[tuple, list[Claim]] = defaultdict(list)
    for c in claims:
        if c.subject is not None:
            groups[group_key(c, incident_of)].append(c)
    return groups


def group_claims(claims: list[Claim], entities: dict[str, Entity] | None = None,
                 incident_of: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """One row per subject+measure: which claims, who said them, what they agree on."""
    out = []
    for (subject, measure, qualifier, unit, anchor, *_, incident), cs in _groups(claims, incident_of).items():
        lo = max(_bounds(c.lo, c.hi)[0] for c in cs)
        hi = min(_bounds(c.lo, c.hi)[1] for c in cs)
        if unit == "place":
            lo, hi = INF, -INF  # no numeric agreement for words
        out.append({
            "subject": subject,
            "subject_name": entities[subject].name if entities and subject in entities else subject,
            "measure": measure, "qualifier": None if measure == "time_of_action" else qualifier,
            "event": qualifier if measure == "time_of_action" and not str(qualifier).startswith("unnamed:") else None,
            "unit": unit, "anchor": anchor, "incident": incident,
            "claims": [c.id for c in cs],
            "speakers": sorted({c.speaker for c in cs if c.speaker}),
            "documents": sorted({c.doc for c in cs}),
            "agreed": None if lo > hi else [None if lo == -INF else lo, None if hi == INF else hi],
            "places": sorted({c.value_text for c in cs if c.value_text}) if unit == "place" else None,
        })
    return sorted(out, key=lambda g: (-len(g["claims"]), g["measure"]))


def find_conflicts(claims: list[Claim], entities: dict[str, Entity] | None = None,
                   incident_of: dict[str, str] | None = None) -> list[Conflict]:
    """Pairs of claims of one group (so of one incident) whose intervals cannot both hold."""
    out = []
    from onrecord.claims.occurrences import earliest_in_documents

    years = incident_years_of(claims, incident_of)
    earliest = earliest_in_documents(claims)
    for key, cs in _groups(claims, incident_of).items():
        if key[3] == "place":
            continue  # places are words; two wordings of one place are not a conflict
        told = set()
        for a, b in combinations(cs, 2):
            # One account against one speaker's same value in one document, once: a timeline
            # that repeats "10:20am" in three entries is one disagreement, not three.
            once = (a.id, b.doc, b.speaker, b.lo, b.hi)
            if once in told or (b.id, a.doc, a.speaker, a.lo, a.hi) in told:
                continue
            if clash(a, b, years, earliest):
                told.add(once)
                told.add((b.id, a.doc, a.speaker, a.lo, a.hi))
                out.append(Conflict(key[0], key[1], key[3], [_side(a, entities), _side(b, entities)],
                                    f"{_show(a)} does not overlap {_show(b)}", key[-1]))
    for a, b in _unnamed_against_named(claims, entities, incident_of):
        if clash(a, b, years, earliest):
            key = group_key(b, incident_of)
            named = entities[b.subject].name if entities and b.subject in entities else b.subject
            who = "no one named as giving it" if a.measure == "order_given" else "officers unnamed"
            if a.measure in RESPONSE_SPANS:  # one span of the response, its officers named two ways
                who = entities[a.subject].name if a.subject in entities else a.subject
            out.append(Conflict(key[0], key[1], key[3], [_side(a, entities), _side(b, entities)],
                                f"{_show(a)} does not overlap {_show(b)} ({who} in one account, "
                                f"{named} in the other)", key[-1]))
    from onrecord.claims.same_fact import cross_measure_conflicts

    seen = {frozenset(s["claim"] for s in c.sides) for c in out}
    for c in cross_measure_conflicts(claims, incident_of or {}, lambda x: _side(x, entities)):
        pair = frozenset(s["claim"] for s in c.sides)
        if pair not in seen:
            seen.add(pair)
            out.append(c)
    return out


def _unnamed_against_named(claims: list[Claim], entities: dict[str, Entity] | None,
                           incident_of: dict[str, str] | None) -> list[tuple[Claim, Claim]]:
    """'11 officers waited in the hallway' (no agency named) and 'Chief X said 19 officers
    waited in the hallway' (her agency's): one count of the incident's responders told twice;
    'no one told deputies to stage' and 'Sgt. X told deputies to stage': one order denied.
    An unnamed group of officers is set against each agency's count of the same measure
    in the same incident; two named agencies never against each other (their officers are
    different people). Claims of one document are not set against each other this way.
    How long the response waited, stayed outside, or took to arrive or go in is one span of
    the incident however its officers are named: there two unnamed groups ("officers",
    "police") are set against each other too."""
    if not entities:
        return []

    def unnamed(c: Claim) -> bool:
        if c.measure == "order_given":
            return c.subject == "incident"  # "No one told deputies to stage": nobody, whoever is asked
        e = entities.get(c.subject or "")
        return e is not None and e.kind == "group"
    out = []
    groups = _groups([c for c in claims if c.measure.startswith("count_officers_") or c.measure == "order_given"
                      or c.measure in RESPONSE_SPANS], incident_of)
    by_rest: dict[tuple, list[list[Claim]]] = defaultdict(list)
    for key, cs in groups.items():
        by_rest[key[1:]].append(cs)
    for lists in by_rest.values():
        for i, xs in enumerate(lists):
            for ys in lists[i + 1:]:
                for a in xs:
                    for b in ys:
                        if a.measure in RESPONSE_SPANS and not (_responders(a, entities)
                                                                and _responders(b, entities)):
                            continue  # one deputy's wait is not the response's
                        if a.doc != b.doc and (unnamed(a) != unnamed(b) or a.measure in RESPONSE_SPANS
                                               and unnamed(a) and unnamed(b)):
                            out.append((a, b) if unnamed(a) else (b, a))
    return out


# Spans of the whole response, not of one officer: "officers waited 77 minutes", "police waited 48"
RESPONSE_SPANS = {"duration_waiting", "duration_outside", "duration_to_arrival", "duration_to_entry"}


def _responders(c: Claim, entities: dict[str, Entity]) -> bool:
    """An agency or a group of officers (not a person, the gunman, or "sources")."""
    e = entities.get(c.subject or "")
    return e is not None and (e.kind == "org" or e.kind == "group" and c.subject not in {
        "group:sources", "group:witnesses", "group:survivors", "group:victims", "group:reports"})


def _side(c: Claim, entities: dict[str, Entity] | None) -> dict[str, Any]:
    name = entities[c.speaker].name if entities and c.speaker in entities else c.speaker_text
    return {"claim": c.id, "doc": c.doc, "speaker": c.speaker, "speaker_name": name,
            "text": c.text, "sentence": c.sentence, "lo": c.lo, "hi": c.hi, "hedge": c.hedge}


def _show(c: Claim) -> str:
    lo = "…" if c.lo is None else f"{c.lo:g}"
    hi = "…" if c.hi is None else f"{c.hi:g}"
    return f"[{lo}, {hi}] {c.unit}"


# Record metrics come in seconds or plain counts; claims in minutes or counted nouns.
TO_CLAIM_UNIT = {("s", "minute"): 1 / 60, ("second", "minute"): 1 / 60, ("minute", "minute"): 1,
                 ("min", "minute"): 1, ("h", "minute"): 60, ("hour", "minute"): 60}
COUNT_UNITS = {"officers", "people", "calls", "shots", "warnings"}


def _in_claim_unit(lo, hi, unit: str | None, claim_unit: str):
    if unit is None or unit == claim_unit or (unit == "count" and claim_unit in COUNT_UNITS):
        return lo, hi, True
    factor = TO_CLAIM_UNIT.get((unit, claim_unit))
    if factor is None:
        return lo, hi, False
    return (None if lo is None else lo * factor), (None if hi is None else hi * factor), True


def compare_with_record(claim: Claim, lo: float | None, hi: float | None,
                        unit: str | None = None) -> Comparison:
    """Say whether a record-derived value (an interval: clocks are uncertain) supports a
    claim. Supports: the record's whole interval lies inside the claim's. Contradicts:
    no overlap. Otherwise the record cannot tell (its uncertainty straddles a bound).
    A record in seconds is compared with a claim in minutes; "count" with any count."""
    lo, hi, comparable = _in_claim_unit(lo, hi, unit, claim.unit)
    if not comparable or claim.unit == "place":
        return Comparison(claim.id, "cannot_tell", f"record is in {unit}, claim in {claim.unit}")
    clo, chi = _bounds(claim.lo, claim.hi)
    rlo, rhi = _bounds(lo, hi)
    if not overlap((claim.lo, claim.hi), (lo, hi)):
        return Comparison(claim.id, "contradicts", f"record {_fmt(lo, hi)} lies outside claim {_show(claim)}")
    if clo <= rlo and rhi <= chi:
        return Comparison(claim.id, "supports", f"record {_fmt(lo, hi)} lies within claim {_show(claim)}")
    return Comparison(claim.id, "cannot_tell", f"record {_fmt(lo, hi)} straddles claim {_show(claim)}")


def _fmt(lo, hi) -> str:
    return f"[{'…' if lo is None else f'{lo:g}'}, {'…' if hi is None else f'{hi:g}'}]"
