"""The claims reader on real press articles nobody tuned it for (issue 15).

Runs `onrecord.claims.analyse` once per incident over the keyed articles of
../shared/data/articles (the way a user reads one incident's coverage), matches what it
finds to the analysts' answer keys (claims_real/keys/*.toml) and prints, per split:

- claim recall: key claims found, i.e. an overlapping tool claim (same document, character
  spans overlap) has the same measure and, after unit normalisation, the same interval
  (each end within a small tolerance, an open end only against an open end);
- span+measure recall: key claims with an overlapping tool claim of the same measure,
  whatever its value; value accuracy: the share of those whose value is right too;
- precision: tool claims that match a key claim in full (measure and value), among tool
  claims scored (one overlapping an `[[unlisted]]` quantity only is neither right nor
  wrong); span+measure precision beside it (value not checked);
- speakers right: among found claims, the key's speaker against the tool's (author vs
  author, a person by surname or alias, an agency by name, acronym or alias, an outlet by
  name, an unnamed source vs a group or unnamed speaker);
- conflict recall: key conflicts for which the tool reports a conflict whose two sides are
  the tool claims matched to the key's two claims; conflict precision: tool conflicts
  whose two sides match two key claims the key lists as a conflict.

Matching is one to one: each key claim takes at most one tool claim (a full match first,
then a same-measure one), so a claim said twice by the tool counts once and its copy
counts against precision. As the keys' README allows, `duration_elapsed`,
`duration_to_arrival` and `duration_to_entry` count as one measure (one span of time told
as a delay or as time that passed); an offset before its anchor is compared signed
([lo, hi] before = [-hi, -lo]); clock times compare across midnight.

The development incidents are cut in two by incident (split.toml's `tune = "val"`):
dev-train, the only split whose per-claim misses are printed (`--misses`), and dev-val,
a check that a rule written on dev-train generalises (per-incident lines, no misses).
Held-out figures are printed as one aggregate line.

--rules (development splits only) traces which rule of the reader read each claim's measure
and named its speaker (onrecord.claims.provenance) and lists the rules by the incidents they
are right in: a rule right in one incident only was likely fitted to one article's wording.
--why counts the key claims missed by the stage that missed them and the wrong speakers by
kind (key's against tool's): aggregates only, so it may be run on the held-out split too.
--conflict-misses prints each key conflict missed and each false conflict, one by one: on
dev-train, or on an outside --set being used for development (never the repository's
held-out split).

Run: .venv/bin/python benchmarks/claims_real.py [--split dev-train|dev-val|dev|holdout|all] [--misses]
     [--rules] [--why] [--conflict-misses] [--set DIR] [--parse | --parse-first] [--rule-speakers] [--out FILE]
The baseline is the figure of the reader before issue 15, recorded in the results file.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
KEYS = HERE / "claims_real" / "keys"
SPLIT_FILES = [HERE / "claims_real" / "split.toml", HERE / "claims_real" / "split_holdout.toml"]
# ONRECORD_SHARED names ../shared/ when the checkout lives elsewhere (a git worktree).
ARTICLES = Path(os.environ.get("ONRECORD_SHARED", HERE.parent.parent / "shared")) / "data" / "articles"
RESULTS = HERE / "results" / "claims_real.txt"

TARGETS = {"recall": 0.85, "precision": 0.92, "speakers": 0.92, "conflict_recall": 0.80,
           "conflict_precision": 0.90}

# Units as the keys and the tool write them, to one name and a factor to it.
UNIT_FACTOR = {
    "minute": ("minute", 1.0), "min": ("minute", 1.0), "second": ("minute", 1 / 60),
    "hour": ("minute", 60.0), "day": ("minute", 1440.0), "week": ("minute", 10080.0),
    "minute_of_day": ("minute_of_day", 1.0), "year": ("year", 1.0), "month": ("year", 1 / 12),
    "usd": ("usd", 1.0), "place": ("place", 1.0), "bool": ("bool", 1.0),
}
COUNT_UNITS = {"person", "people", "officer", "officers", "call", "calls", "shot", "shots",
               "warning", "warnings", "order", "orders", "count"}


def norm_unit(unit: str | None, measure: str) -> tuple[str, float]:
    u = (unit or "").lower()
    if u in COUNT_UNITS:
        return "count", 1.0
    if measure == "duration_of_service" and u in {"month", "year", "week", "day"}:
        return "year", {"month": 1 / 12, "week": 7 / 365.25, "day": 1 / 365.25}.get(u, 1.0)
    return UNIT_FACTOR.get(u, (u, 1.0))


def close(a: float | None, b: float | None, unit: str) -> bool:
    if a is None or b is None:
        return a is None and b is None
    tol = 0.5 if unit == "minute_of_day" else max(0.02 * max(abs(a), abs(b)), 0.02)
    return abs(a - b) <= tol


@dataclass
class KeyClaim:
    doc: str
    id: str
    start: int
    end: int
    measure: str
    lo: float | None
    hi: float | None
    unit: str
    speaker: str
    speaker_kind: str
    relation: str | None
    as_written: str
    tool: object = None  # the matched tool claim
    full: bool = False


@dataclass
class Score:
    keyed: int = 0
    span_found: int = 0
    found: int = 0
    tool: int = 0
    tool_scored: int = 0
    tool_right: int = 0
    tool_span_right: int = 0
    speakers_right: int = 0
    key_conflicts: int = 0
    conflicts_found: int = 0
    tool_conflicts: int = 0
    tool_conflicts_right: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: "Score") -> None:
        for name in self.__dataclass_fields__:
            if name != "misses":
                setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses += other.misses

    def figures(self) -> dict[str, float | None]:
        def ratio(a, b):
            return a / b if b else None
        return {
            "recall": ratio(self.found, self.keyed),
            "span_recall": ratio(self.span_found, self.keyed),
            "value_accuracy": ratio(self.found, self.span_found),
            "precision": ratio(self.tool_right, self.tool_scored),
            "span_precision": ratio(self.tool_span_right, self.tool_scored),
            "speakers": ratio(self.speakers_right, self.found),
            "conflict_recall": ratio(self.conflicts_found, self.key_conflicts),
            "conflict_precision": ratio(self.tool_conflicts_right, self.tool_conflicts),
        }


def load_splits() -> dict[str, tuple[str, list[str]]]:
    """incident -> (split, article file names), from every split file present. A development
    incident is `dev-train` or, marked `tune = "val"`, `dev-val`."""
    out: dict[str, tuple[str, list[str]]] = {}
    for path in SPLIT_FILES:
        if path.exists():
            for slug, entry in tomllib.loads(path.read_text(encoding="utf-8")).get("incidents", {}).items():
                split = entry.get("split", "dev")
                if split == "dev":
                    split = "dev-val" if entry.get("tune") == "val" else "dev-train"
                out[slug] = (split, list(entry.get("articles", [])))
    return out


# What each --split names: the splits scored, each printed apart.
SPLIT_CHOICES = {"dev-train": ["dev-train"], "dev-val": ["dev-val"], "dev": ["dev-train", "dev-val"],
                 "holdout": ["holdout"], "all": ["dev-train", "dev-val", "holdout"]}
LABELS = {"dev-train": "dev-train (tuned on)", "dev-val": "dev-val (not tuned on)", "holdout": "held-out"}


def load_key(stem: str) -> dict | None:
    path = KEYS / f"{stem}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def key_claims(stem: str, key: dict) -> list[KeyClaim]:
    return [KeyClaim(stem, c["id"], c["start"], c["end"], c["measure"], c.get("lo"), c.get("hi"),
                     c["unit"], c["speaker"], c["speaker_kind"], c.get("relation"), c["as_written"])
            for c in key.get("claim", [])]


def overlaps(a_start: int, a_end: int, b_start: int, b_end: int) -> bool:
    return a_start < b_end and b_start < a_end


# The keys' README lets a benchmark take these as one family: one span of time, told as a
# delay until an arrival or an entry or as time that passed.
FAMILY = {"duration_elapsed": "duration_span", "duration_to_arrival": "duration_span",
          "duration_to_entry": "duration_span"}


def same_measure(key_measure: str, tool_measure: str) -> bool:
    return key_measure == tool_measure or FAMILY.get(key_measure, key_measure) == FAMILY.get(tool_measure)


def signed(lo, hi, relation: str | None):
    """An offset before its anchor as the development keys write it: [lo, hi] before is
    [-hi, -lo] (the held-out keys and the tool write a positive value and the relation)."""
    if relation != "before":
        return lo, hi
    return (None if hi is None else -hi), (None if lo is None else -lo)


def value_right(k: KeyClaim, t) -> bool:
    if k.measure == "place_of_action":
        return True
    ku, kf = norm_unit(k.unit, k.measure)
    tu, tf = norm_unit(t.unit, t.measure)
    if ku != tu:
        return False
    scale = lambda v, f: None if v is None else v * f  # noqa: E731
    klo, khi = scale(k.lo, kf), scale(k.hi, kf)
    tlo, thi = scale(t.lo, tf), scale(t.hi, tf)
    if k.measure == "time_of_action" and ku == "minute":
        klo, khi = signed(klo, khi, k.relation)
        tlo, thi = signed(tlo, thi, (t.time_ref or {}).get("relation"))
    if ku == "minute_of_day" and klo is not None and tlo is not None and abs(klo - tlo) > 720:
        shift = 1440 if klo > tlo else -1440  # the midnight wrap
        tlo, thi = tlo + shift, None if thi is None else thi + shift
    return close(klo, tlo, ku) and close(khi, thi, ku)


# ---- speakers

def _words(name: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", name.lower().replace("’", "'").replace("'s", ""))


SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}
GENERIC = {"police": "officers", "officers": "officers", "cops": "officers", "deputies": "deputies",
           "authorities": "authorities", "officials": "officials", "sources": "sources",
           "investigators": "investigators"}


def _surname(name: str) -> str | None:
    words = [w for w in _words(name) if w not in SUFFIXES]
    return words[-1] if words else None


def _acronym(name: str) -> str:
    return "".join(w[0] for w in _words(name) if w not in {"of", "the", "and", "for"})


def names_match(key_name: str, names: list[str], person: bool) -> bool:
    from rapidfuzz import fuzz

    kw = " ".join(_words(key_name))
    for n in names:
        nw = " ".join(_words(n))
        if not nw:
            continue
        if person:
            if _surname(key_name) and _surname(key_name) == _surname(n):
                return True
        elif nw == kw or _acronym(key_name) == nw.replace(" ", "") or _acronym(n) == kw.replace(" ", "") \
                or GENERIC.get(kw) == GENERIC.get(nw, "?"):
            return True
        if fuzz.token_set_ratio(kw, nw) >= 90:
            return True
    return False


def speaker_right(k: KeyClaim, t, entities: dict) -> bool:
    sid = t.speaker or ""
    e = entities.get(sid)
    names = ([e.name, *e.aliases] if e else []) + ([t.speaker_text] if t.speaker_text else [])
    kind = e.kind if e else None
    if k.speaker_kind == "author":
        return sid.startswith("author:")
    if sid.startswith("author:"):
        return False
    if k.speaker_kind == "person":
        return kind == "person" and names_match(k.speaker, names, person=True)
    if k.speaker_kind in {"organisation", "outlet"}:
        parts = [p for p in re.split(r"\s+and\s+|,\s*", k.speaker) if p]
        return kind in {"org", "outlet", "group"} and any(names_match(p, names, person=False) for p in parts)
    # an unnamed source ("two law enforcement sources"): a group or no named speaker
    return kind in {None, "group"} or names_match(k.speaker, names, person=False)


# ---- one incident

def match(keys: list[KeyClaim], claims: list, unlisted: dict[str, list[tuple[int, int]]]) -> Score:
    s = Score(keyed=len(keys), tool=len(claims))
    by_doc = defaultdict(list)
    for c in claims:
        by_doc[c.doc].append(c)
    used: set[str] = set()
    for full in (True, False):
        for k in keys:
            if k.tool is not None:
                continue
            for t in sorted(by_doc[k.doc], key=lambda t: t.start):
                if t.id in used or not same_measure(k.measure, t.measure) \
                        or not overlaps(k.start, k.end, t.start, t.end):
                    continue
                if full and not value_right(k, t):
                    continue
                k.tool, k.full = t, full
                used.add(t.id)
                break
    s.span_found = sum(1 for k in keys if k.tool is not None)
    s.found = sum(1 for k in keys if k.full)
    matched = {k.tool.id: k for k in keys if k.tool is not None}
    for t in claims:
        if t.id in matched:
            s.tool_scored += 1
            s.tool_span_right += 1
            s.tool_right += matched[t.id].full
        elif any(overlaps(a, b, t.start, t.end) for a, b in unlisted.get(t.doc, [])) and not any(
                overlaps(k.start, k.end, t.start, t.end) for k in keys if k.doc == t.doc):
            continue  # an unlisted quantity: neither right nor wrong
        else:
            s.tool_scored += 1
    return s


PARSE = False  # --parse: the dependency-parse path (structure.py) beside the rules
RULE_SPEAKERS = False  # --rule-speakers: speakers by the rules alone, even where the pipeline is installed
# --rules: (split, incident, "measure"|"speaker", rule, right) per tool claim scored
RULE_LOG: list[tuple[str, str, str, str, bool]] = []
# --why: split -> reason -> count, for key claims missed and speakers wrong (aggregates only, so
# safe to print for held-out: no sentence, no claim)
WHY: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
# --why: key claims no reader found an amount in, by measure and the shape of their words
WHY_SHAPES: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
WHY_VALUES: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))


def score_incident(slug: str, split: str, articles: list[str], show: bool) -> Score | None:
    from onrecord.claims.extract import analyse

    texts, keys, unlisted, conflicts = {}, [], {}, []
    for name in articles:
        stem = name.removesuffix(".txt")
        key = load_key(stem)
        path = ARTICLES / name
        if key is None or not path.exists():
            continue
        texts[name] = path.read_text(encoding="utf-8")
        keys += key_claims(stem, key)
        unlisted[name] = [(u["start"], u["end"]) for u in key.get("unlisted", [])]
        for c in key.get("conflict", []):
            refs = []
            for side in ("a", "b"):
                ref = c[side]
                refs.append(tuple(ref.split("#")) if "#" in ref else (stem, ref))
            conflicts.append(frozenset(refs))
    if not texts:
        return None
    for k in keys:
        k.doc += ".txt"
    analysis = analyse(texts, parse=PARSE, parse_speakers=False if RULE_SPEAKERS else None)
    entities = {e.id: e for e in analysis.entities}
    s = match(keys, analysis.claims, unlisted)
    s.speakers_right = sum(1 for k in keys if k.full and speaker_right(k, k.tool, entities))
    _log_rules(slug, split, keys, analysis.claims, unlisted, entities)
    if WHY_ON:
        _why(split, keys, texts, entities, analysis.claims)
    key_of_tool = {k.tool.id: (k.doc.removesuffix(".txt"), k.id) for k in keys if k.tool is not None}
    key_pairs = set(conflicts)
    s.key_conflicts = len(key_pairs)
    tool_pairs = set()
    for c in analysis.conflicts:
        a, b = (key_of_tool.get(side["claim"]) for side in c.sides)
        s.tool_conflicts += 1
        pair = frozenset((a, b)) if a and b else None
        s.tool_conflicts_right += pair in key_pairs
        if pair:
            tool_pairs.add(pair)
    s.conflicts_found = len(key_pairs & tool_pairs)
    if CONFLICT_MISSES:
        s.misses += _conflict_lines(keys, analysis.conflicts, key_pairs, tool_pairs, key_of_tool)
    if show and split == "dev-train":
        for k in keys:
            if not k.full:
                got = f"got {k.tool.measure} [{k.tool.lo}, {k.tool.hi}] {k.tool.unit}" if k.tool else "not found"
                s.misses.append(f"  miss {k.doc[:3]}#{k.id} {k.measure} [{k.lo}, {k.hi}] {k.unit} "
                                f"{k.as_written!r}: {got}")
            elif not speaker_right(k, k.tool, entities):
                t = k.tool
                s.misses.append(f"  speaker {k.doc[:3]}#{k.id} {k.as_written!r}: key {k.speaker!r}, "
                                f"tool {t.speaker} ({t.speaker_text!r})")
        matched = {k.tool.id for k in keys if k.tool is not None}
        for t in analysis.claims:
            if t.id not in matched:
                s.misses.append(f"  extra {t.doc[:3]} {t.measure} [{t.lo}, {t.hi}] {t.unit} {t.text!r}")
        for pair in key_pairs - tool_pairs:
            s.misses.append(f"  conflict missed {sorted(pair)}")
        for c in analysis.conflicts:
            a, b = (key_of_tool.get(side["claim"]) for side in c.sides)
            if frozenset((a, b)) not in key_pairs:
                s.misses.append(f"  conflict extra {c.measure}: {c.sides[0]['text']!r} vs {c.sides[1]['text']!r}")
    return s


CONFLICT_MISSES = False  # --conflict-misses: dev-train, or any split of an outside --set


def _conflict_lines(keys, conflicts, key_pairs, tool_pairs, key_of_tool) -> list[str]:
    """--conflict-misses: each key conflict missed (with what the tool read for both claims)
    and each tool conflict the key does not list (with its reason)."""
    by_ref = {(k.doc.removesuffix(".txt"), k.id): k for k in keys}

    def show(ref) -> str:
        k = by_ref.get(ref)
        if k is None:
            return f"{ref} (no such key claim)"
        got = f"tool {k.tool.measure} [{k.tool.lo}, {k.tool.hi}] {k.tool.subject}" if k.tool else "not found"
        return f"{ref[0][:3]}#{ref[1]} {k.measure} [{k.lo}, {k.hi}] {k.as_written!r} ({got})"
    out = []
    for pair in sorted(key_pairs - tool_pairs, key=sorted):
        a, b = sorted(pair)
        out.append(f"  conflict missed: {show(a)}  VS  {show(b)}")
    for c in conflicts:
        a, b = (key_of_tool.get(side["claim"]) for side in c.sides)
        if frozenset((a, b)) not in key_pairs:
            out.append(f"  conflict extra {c.measure} ({c.subject}): {c.sides[0]['doc'][:3]} "
                       f"{c.sides[0]['text']!r} vs {c.sides[1]['doc'][:3]} {c.sides[1]['text']!r}; "
                       f"{c.reason} [key refs {a}, {b}]")
    return out


def _log_rules(slug, split, keys, claims, unlisted, entities) -> None:
    """--rules: which rule read each scored tool claim's measure (right when it matches a key
    in full) and which named the speaker of each found claim (right when the speaker is)."""
    from onrecord.claims import provenance

    if not provenance.TRACING:
        return
    full = {k.tool.id: k for k in keys if k.full}
    RULE_LOG.extend((split, slug, "key", "", True) for _ in keys)
    spanned = {k.tool.id for k in keys if k.tool is not None}
    for t in claims:
        if t.id not in spanned and any(overlaps(a, b, t.start, t.end) for a, b in unlisted.get(t.doc, [])) \
                and not any(overlaps(k.start, k.end, t.start, t.end) for k in keys if k.doc == t.doc):
            continue  # an unlisted quantity, not scored
        measure_rule, speaker_rule = provenance.RULES.get((t.doc, t.start, t.end, t.measure), ("?", "?"))
        # the measure beside the branch: one branch that picks a measure from a table of cues
        # ("_officer_measure") is as many rules as the measures it gives
        RULE_LOG.append((split, slug, "measure", f"{measure_rule} -> {t.measure}", t.id in full))
        if t.id in full:
            RULE_LOG.append((split, slug, "speaker", speaker_rule, speaker_right(full[t.id], t, entities)))


WHY_ON = False


def _number_spans(name: str, text: str) -> list[tuple[int, int]]:
    """Where the reader's number and time readers find an amount in a document (before any
    measure is decided), to tell a number never read from one read but given no measure."""
    from onrecord.claims.numbers import find_quantities
    from onrecord.claims.text import read_document
    from onrecord.claims.times_in_text import clock_times, offsets

    spans = []
    for sent in read_document(name, text).sentences:
        for q in [*find_quantities(sent.text), *clock_times(sent.text), *offsets(sent.text)]:
            spans.append((sent.start + q.start, sent.start + q.end))
    return spans


def _shape(words: str) -> str:
    """A written form in classes, never its words: 'clock h:mm with am/pm', 'digits', 'words'..."""
    w = words.strip()
    if re.search(r"\d{1,2}[:.]\d{2}", w):
        kind = "clock h:mm"
        kind += " with am/pm" if re.search(r"\d\s*[ap]\.?\s?m\b", w, re.I) else " without am/pm"
    elif re.search(r"\d", w):
        kind = "digits with am/pm" if re.search(r"\d\s*[ap]\.?\s?m\b", w, re.I) else "digits, no clock"
    elif re.search(r"\b(?:noon|midnight)\b", w, re.I):
        kind = "noon/midnight"
    else:
        kind = "words only"
    n = len(w.split())
    return f"{kind}, {n} word{'s' if n != 1 else ''}"


def _how_wrong(k: KeyClaim, t) -> str:
    """How a value read was wrong, in classes, never its words: another unit (a clock time
    against an offset), twelve hours off (a.m. against p.m.), minutes off, or otherwise."""
    ku, kf = norm_unit(k.unit, k.measure)
    tu, tf = norm_unit(t.unit, t.measure)
    if ku != tu:
        return f"key in {ku}, tool in {tu}"
    if k.lo is None or t.lo is None:
        return "an open end against a closed one"
    d = abs(k.lo * kf - t.lo * tf)
    if ku == "minute_of_day":
        d = min(d, 1440 - d)
        if abs(d - 720) <= 5:
            return "twelve hours off"
    return "within 5 units" if d <= 5 else ("within 60 units" if d <= 60 else "further off")


def _speaker_kind(t, entities: dict) -> str:
    sid = t.speaker or ""
    if sid.startswith("author:"):
        return "author"
    if sid.startswith("outlet:"):
        return "outlet"
    e = entities.get(sid)
    return {"person": "person", "org": "organisation", "group": "unknown"}.get(e.kind if e else "", "unknown")


def _why(split: str, keys: list[KeyClaim], texts: dict[str, str], entities: dict, claims: list) -> None:
    """--why: each key claim missed by the stage that missed it (no amount read there; an amount
    read but no measure given; read as another measure; the measure right, the value wrong) and
    each wrong speaker by the key's kind of speaker against the tool's."""
    spans = {name: _number_spans(name, text) for name, text in texts.items()}
    for k in keys:
        if k.full:
            if not speaker_right(k, k.tool, entities):
                WHY[split][f"speaker: key {k.speaker_kind}, tool {_speaker_kind(k.tool, entities)}"] += 1
            continue
        other = [t for t in claims if t.doc == k.doc and overlaps(k.start, k.end, t.start, t.end)]
        if k.tool is not None:
            WHY[split][f"miss: {k.measure}, value wrong"] += 1
            WHY_VALUES[split][f"{k.measure}: {_how_wrong(k, k.tool)}"] += 1
        elif other:
            WHY[split][f"miss: {k.measure}, read as {other[0].measure}"] += 1
        elif k.measure == "place_of_action":
            WHY[split][f"miss: {k.measure}, no place read"] += 1
        elif not any(overlaps(k.start, k.end, a, b) for a, b in spans.get(k.doc, [])):
            WHY[split][f"miss: {k.measure}, no amount read"] += 1
            # the shape of the key's words, still an aggregate: which written form no reader knows
            WHY_SHAPES[split][f"{k.measure}, written as {_shape(k.as_written)}"] += 1
        else:
            WHY[split][f"miss: {k.measure}, amount read, no measure"] += 1


def why_report(splits: list[str]) -> list[str]:
    out = ["why (--why): key claims missed by stage and measure, wrong speakers by kind (aggregates)"]
    for split in splits:
        reasons = WHY.get(split, {})
        out.append(f"  {LABELS[split]}: {sum(reasons.values())}")
        for reason, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])):
            out.append(f"    {n:>3}  {reason}")
        values = WHY_VALUES.get(split, {})
        if values:
            out.append("    value wrong, by how it was wrong (classes, no words):")
            for how, n in sorted(values.items(), key=lambda x: (-x[1], x[0])):
                out.append(f"      {n:>3}  {how}")
        shapes = WHY_SHAPES.get(split, {})
        if shapes:
            out.append("    no amount read, by the shape of the key's words (classes, no words):")
            for shape, n in sorted(shapes.items(), key=lambda x: (-x[1], x[0])):
                out.append(f"      {n:>3}  {shape}")
    return out


def rule_report(splits: list[str]) -> list[str]:
    """Rules by the incidents they are right in. A rule right in one incident only was likely
    written for one article's wording; the right claims it carries are what an unseen
    incident's articles would not get from it (the held-out gap, estimated on development data)."""
    out = ["rules (--rules): a rule right in one incident only is likely fitted to its articles"]
    keyed = sum(1 for split, _, k, _, _ in RULE_LOG if k == "key" and split in splits)
    found = sum(1 for split, _, k, _, ok in RULE_LOG if k == "measure" and ok and split in splits)
    for kind in ("measure", "speaker"):
        right: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        wrong: dict[str, int] = defaultdict(int)
        for split, slug, k, rule, ok in RULE_LOG:
            if k == kind and split in splits:
                if ok:
                    right[rule][slug] += 1
                else:
                    wrong[rule] += 1
        total = sum(sum(v.values()) for v in right.values())
        single = {r: v for r, v in right.items() if len(v) == 1}
        carried = sum(sum(v.values()) for v in single.values())
        only_wrong = [r for r in wrong if r not in right]
        out.append(f"  {kind}: {len(right)} rules right at least once, {total} right claims; "
                   f"{len(single)} rules right in one incident only, carrying {carried} "
                   f"({carried / total if total else 0:.3f}) of them; "
                   f"{len(only_wrong)} rules only wrong ({sum(wrong[r] for r in only_wrong)} claims)")
        # Leave-one-incident-out, approximately: a rule right in one incident only would not have
        # been written without it, so on an unseen incident its right claims would be missed.
        # and more strictly, without the rules right in fewer than 3 incidents
        rare = sum(sum(v.values()) for v in right.values() if len(v) < 3)
        if kind == "measure" and keyed:
            out.append(f"    recall {found / keyed:.3f}; without one-incident rules {(found - carried) / keyed:.3f}; "
                       f"without rules right in < 3 incidents {(found - rare) / keyed:.3f}")
        elif found:
            out.append(f"    speakers right {total / found:.3f}; without one-incident rules "
                       f"{(total - carried) / found:.3f}; without rules right in < 3 incidents "
                       f"{(total - rare) / found:.3f}")
        for rule in sorted(set(right) | set(wrong), key=lambda r: (-sum(right[r].values()), -wrong[r], r)):
            where = ", ".join(f"{s} {n}" for s, n in sorted(right[rule].items(), key=lambda x: -x[1]))
            tag = "ONE " if len(right[rule]) == 1 else ("none" if not right[rule] else f"{len(right[rule])}   ")
            out.append(f"    {tag} {rule:<72} right {sum(right[rule].values()):>3} wrong {wrong[rule]:>3}  {where}")
    return out


def incident_grouping(splits: dict, split: str) -> str:
    """All articles of a split in one run: do the reader's incidents match the split file's?
    Counted over pairs of documents (same incident or not), so the figure is comparable
    however many incidents a split has."""
    from itertools import combinations

    from onrecord.claims.extract import analyse

    truth, texts = {}, {}
    for slug, (sp, articles) in splits.items():
        for name in articles:
            if sp == split and (ARTICLES / name).exists() and load_key(name.removesuffix(".txt")):
                truth[name], texts[name] = slug, (ARTICLES / name).read_text(encoding="utf-8")
    analysis = analyse(texts, parse=PARSE)
    # a reader that does not group by incident compares every document with every other
    incidents = getattr(analysis, "incidents", None) or [{"id": "all", "documents": list(texts)}]
    got = {d: i["id"] for i in incidents for d in i["documents"]}
    pairs = list(combinations(sorted(texts), 2))
    right = sum((truth[a] == truth[b]) == (got[a] == got[b]) for a, b in pairs)
    together = [(a, b) for a, b in pairs if truth[a] == truth[b]]
    kept = sum(got[a] == got[b] for a, b in together)
    apart = len(pairs) - len(together)
    mixed = sum(got[a] == got[b] for a, b in pairs if truth[a] != truth[b])
    return (f"  one run over all {len(texts)} articles: {len(incidents)} incidents found "
            f"({len(set(truth.values()))} true); document pairs right {right}/{len(pairs)}, "
            f"same-incident pairs kept together {kept}/{len(together)}, other-incident pairs joined {mixed}/{apart}")


def fmt(v: float | None) -> str:
    return "  n/a" if v is None else f"{v:.3f}"


def report(name: str, s: Score) -> list[str]:
    f = s.figures()
    out = [f"{name}: {s.keyed} key claims, {s.tool} tool claims, {s.key_conflicts} key conflicts, "
           f"{s.tool_conflicts} tool conflicts"]
    for label, metric, target in (
            ("claim recall", "recall", TARGETS["recall"]),
            ("  span+measure recall", "span_recall", None),
            ("  value accuracy", "value_accuracy", None),
            ("precision", "precision", TARGETS["precision"]),
            ("  span+measure precision", "span_precision", None),
            ("speakers right", "speakers", TARGETS["speakers"]),
            ("conflict recall", "conflict_recall", TARGETS["conflict_recall"]),
            ("conflict precision", "conflict_precision", TARGETS["conflict_precision"])):
        out.append(f"  {label:<26} {fmt(f[metric])}" + (f"   target >= {target:.2f}" if target else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=list(SPLIT_CHOICES), default="all")
    ap.add_argument("--misses", action="store_true", help="per-claim misses (dev-train only)")
    ap.add_argument("--parse", action="store_true", help="read unread numbers from the dependency parse too")
    ap.add_argument("--parse-first", action="store_true",
                    help="let the parse decide every number it reads, the rules the rest (a measurement)")
    ap.add_argument("--rule-speakers", action="store_true",
                    help="decide speakers by the rules alone (by default the parse decides them where installed)")
    ap.add_argument("--rules", action="store_true",
                    help="which rule read each claim's measure and speaker, by incident (not on held-out)")
    ap.add_argument("--why", action="store_true",
                    help="misses by the stage that missed them, wrong speakers by kind (aggregates; any split)")
    ap.add_argument("--conflict-misses", action="store_true",
                    help="each key conflict missed and each false conflict (dev-train, or a --set used for "
                         "development; never the repository's held-out split)")
    ap.add_argument("--out", type=Path, help=f"also write the figures to this file (e.g. {RESULTS})")
    ap.add_argument("--set", type=Path, metavar="DIR",
                    help="score another article set instead: DIR/articles/*.txt, DIR/keys/*.toml, DIR/split.toml "
                         "(a set kept outside the repository, e.g. articles keyed after the tool was last tuned)")
    args = ap.parse_args(argv)
    global PARSE, RULE_SPEAKERS, WHY_ON, ARTICLES, KEYS, SPLIT_FILES
    if args.set:
        ARTICLES, KEYS, SPLIT_FILES = args.set / "articles", args.set / "keys", [args.set / "split.toml"]
    WHY_ON = args.why
    global CONFLICT_MISSES
    CONFLICT_MISSES = args.conflict_misses
    if CONFLICT_MISSES and not args.set and set(SPLIT_CHOICES[args.split]) - {"dev-train"}:
        print("--conflict-misses prints conflicts one by one: dev-train, or an outside --set", file=sys.stderr)
        return 2
    RULE_SPEAKERS = args.rule_speakers
    PARSE = "first" if args.parse_first else args.parse
    if not ARTICLES.is_dir():
        print(f"articles not found at {ARTICLES}", file=sys.stderr)
        return 2
    splits = load_splits()
    wanted = SPLIT_CHOICES[args.split]
    if args.rules:
        if "holdout" in wanted:
            print("--rules reads rules per incident: development splits only (dev-train, dev-val, dev)",
                  file=sys.stderr)
            return 2
        from onrecord.claims import provenance

        provenance.enable()
    lines, t0 = [], time.perf_counter()
    for split in wanted:
        total = Score()
        per_incident = []
        for slug, (sp, articles) in sorted(splits.items()):
            if sp != split:
                continue
            s = score_incident(slug, sp, articles, args.misses)
            if s is None:
                continue
            total.add(s)
            per_incident.append((slug, s))
        lines += report(f"{LABELS[split]}, {len(per_incident)} incidents", total)
        lines.append(incident_grouping(splits, split))
        if split != "holdout" or args.set:
            for slug, s in per_incident:
                f = s.figures()
                lines.append(f"    {slug:<26} recall {fmt(f['recall'])} precision {fmt(f['precision'])} "
                             f"speakers {fmt(f['speakers'])} conflicts {s.conflicts_found}/{s.key_conflicts} "
                             f"(tool {s.tool_conflicts_right}/{s.tool_conflicts})")
            lines += total.misses
    if args.rules:
        lines += rule_report(wanted)
    if args.why:
        lines += why_report(wanted)
    lines.append(f"({time.perf_counter() - t0:.1f} s)")
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
