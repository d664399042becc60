"""Who is who: units and officers across rosters, CAD ids, radio call signs, AVL vehicle
numbers and names in statements.

Rosters are the bridge. A roster line names a unit (its CAD id), maybe its radio call
sign and vehicle number, and the officer on it. Every other mention is read against
them: an exact id first, then the compact form radio uses ("Engine 31" = E31, "2-47" =
P247 when only one unit of the agency has those digits). Two officers are one person
only when their surnames agree exactly, or differ by one slip of the pen *and* something
else ties them (the same unit); so a deputy "Pitt" and a sergeant "Pitts" stay apart.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from onrecord.model import Entity
from onrecord.reconstruct.names import PersonName, compact_unit, digits, fold, one_edit_apart, parse_person

NOT_UNITS = {"DISPATCH", "DISPATCHER", "COMM", "COMMS", "CONTROL", "ALL", "ALLUNITS", "CONSOLE"}


@dataclass
class Mention:
    entity_id: int
    event_id: int
    role: str
    text: str
    score: float = 1.0


UNIT_MENTION_COLUMNS = ("entity_id", "event_id", "text", "score")


@dataclass
class WhoIsWho:
    entities: dict[int, Entity] = field(default_factory=dict)
    mentions: list[Mention] = field(default_factory=list)
    # Every event's written unit id, resolved: millions of rows in a case with a year of
    # calls, so kept as columns (UNIT_MENTION_COLUMNS; role "unit"), not as Mention objects.
    unit_mentions: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=list(UNIT_MENTION_COLUMNS)))
    problems: list[str] = field(default_factory=list)
    # radio transmission or typed entry -> the rostered units its words name ("going in west
    # doors, 2-KING-29 and 2-ADAM-44"): who a line about a team's moment is about
    named_units: dict[int, set[int]] = field(default_factory=dict)
    # roster radio ids (attribute radio_id) -> the units they are issued to
    radio_ids: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    # radio lines whose unit was read from their first words alone: the speaker as a rule,
    # but a dispatcher's first words name the unit addressed ("20-70, respond code 3"), so
    # what such a line says it heard is not known to be that unit's own (lagged_moments.py)
    named_first: set[int] = field(default_factory=set)

    @cached_property
    def unit_of_event(self) -> dict[int, int]:
        """event id -> unit entity: unit_mentions as a dict, for lookups one event at a time
        (read after who-is-who has resolved the units, as every caller does)."""
        m = self.unit_mentions
        return dict(zip(m["event_id"].tolist(), m["entity_id"].tolist()))

    def unit_by_event(self) -> pd.Series:
        """unit_of_event as a Series (event id -> unit entity), for column-wise lookups."""
        return pd.Series(self.unit_mentions["entity_id"].to_numpy(dtype="float64"),
                         index=self.unit_mentions["event_id"].to_numpy(dtype="int64"))

    @property
    def mention_count(self) -> int:
        return len(self.mentions) + len(self.unit_mentions)

    def new(self, kind: str, name: str, agency: str | None) -> Entity:
        e = Entity(id=len(self.entities) + 1, kind=kind, name=name, agency=agency)
        self.entities[e.id] = e
        return e

    def units(self) -> list[Entity]:
        return [e for e in self.entities.values() if e.kind == "unit"]


class _UnitIndex:
    """Lookup of unit entities by every form a record may write them in."""

    def __init__(self):
        self.exact: dict[str, set[int]] = defaultdict(set)
        self.compact: dict[str, set[int]] = defaultdict(set)
        self.digits: dict[tuple[str | None, str], set[int]] = defaultdict(set)

    def add(self, unit: Entity, text: str) -> None:
        if not text or not fold(text):
            return
        unit.aliases.add(text)
        self.exact[fold(text)].add(unit.id)
        self.compact[compact_unit(text)].add(unit.id)
        if digits(text):
            self.digits[(unit.agency, digits(text))].add(unit.id)

    def find(self, text: str, agency: str | None, who: "WhoIsWho", by_digits: bool = True) -> tuple[int | None, float]:
        agency_of = lambda i: who.entities[i].agency
        for table, key, score in ((self.exact, fold(text), 1.0), (self.compact, compact_unit(text), 0.95)):
            ids = table.get(key, set())
            pick = _one(ids, agency, agency_of)
            if pick:
                return pick, score
        d = digits(text)
        if by_digits and len(d) >= 2:
            # the agency's own unit first; a unit of another agency heard on a patched
            # channel only if no other unit anywhere has those digits
            ids = self.digits.get((agency, d), set())
            if len(ids) == 1:
                return next(iter(ids)), 0.8
            anywhere = ids or set().union(*(v for (_, k), v in self.digits.items() if k == d))
            rostered = {i for i in anywhere if not who.entities[i].attrs.get("unrostered")}
            if len(rostered) == 1:
                return next(iter(rostered)), 0.7
        return None, 0.0


def _one(ids: set[int], agency: str | None, agency_of) -> int | None:
    if len(ids) == 1:
        return next(iter(ids))
    same = [i for i in ids if agency_of(i) == agency]
    return same[0] if len(same) == 1 else None


def resolve(events: pd.DataFrame) -> WhoIsWho:
    who = WhoIsWho()
    index = _UnitIndex()
    people: list[tuple[Entity, PersonName]] = []
    rosters = events[events["kind"] == "roster_entry"]
    for row in rosters.itertuples(index=False):
        _roster_line(who, index, people, row)
    written = (events["kind"] != "roster_entry").to_numpy() & events["unit"].notna().to_numpy()
    _unit_mentions(who, index, events.loc[written, ["id", "unit", "agency"]])
    for row in events[(events["kind"] != "roster_entry") & events["actor"].notna()].itertuples(index=False):
        _person_mention(who, people, row)
    who.__dict__.pop("unit_of_event", None)  # read above; speakers add units below
    _speakers(who, index, events)
    # a radio line, or an entry typed in a log ("making entry east doors, 1-37 and School 1")
    radio = events[events["kind"].isin(("radio_transmission", "entry")) & events["text"].notna()]
    who.named_units = {int(r.id): found for r in radio.itertuples(index=False)
                       if (found := _units_in_words(who, index, str(r.text), _agency(r.agency)))}
    texts = events[events["kind"].isin(("statement", "radio_transmission", "report_filed")) & events["text"].notna()]
    for row in texts.itertuples(index=False):
        _names_in_text(who, people, row)
    return who


RANKED_NAME = re.compile(
    r"\b(?:(?:Deputy|Dep\.|Sergeant|Sgt\.|Officer|Ofc\.|Captain|Capt\.|Lieutenant|Lt\.|Corporal|Cpl\.|Chief|"
    r"Sheriff|Detective|Det\.)\s+)(?:[A-Z][a-z]+\s+)?(?:[A-Z]\.\s+)?[A-Z][a-zA-Z'\-]+")
CAPITALISED = re.compile(r"\b[A-Z][a-z]{3,}\b")


def _names_in_text(who: WhoIsWho, people, row) -> None:
    """Officers named in a statement or on the radio: "Deputy Okafor", "Sgt. Pitts", or a
    bare surname that is on a roster (one slip allowed when only one officer fits)."""
    text = str(row.text)
    taken: list[tuple[int, int]] = []
    for m in RANKED_NAME.finditer(text):
        _text_mention(who, people, row, m.start(), m.end(), m.group(0))
        taken.append((m.start(), m.end()))
    surnames = {known.last for _, known in people if len(known.last) >= 4}
    for m in CAPITALISED.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        word = fold(m.group(0))
        if word in surnames or any(one_edit_apart(word, s, shortest=5) for s in surnames):
            _text_mention(who, people, row, m.start(), m.end(), m.group(0))


def _text_mention(who: WhoIsWho, people, row, start: int, end: int, written: str) -> None:
    name = parse_person(written)
    if name is None:
        return
    exact = [e for e, known in people if known.compatible(name)]
    near = [] if exact else [e for e, known in people if known.same_with_evidence(name)]
    fits = exact or near
    if len({e.id for e in fits}) != 1:
        return  # nobody, or more than one officer could be meant: left unresolved
    person = fits[0]
    person.aliases.add(written)
    who.mentions.append(Mention(person.id, row.id, f"text@{start}-{end}", written, 1.0 if exact else 0.7))


def _roster_line(who: WhoIsWho, index: _UnitIndex, people, row) -> None:
    attrs = json.loads(row.attrs) if row.attrs else {}
    unit = None
    if row.unit:
        uid, _ = index.find(row.unit, row.agency, who, by_digits=False)
        unit = who.entities[uid] if uid else who.new("unit", row.unit, row.agency)
        index.add(unit, row.unit)
        who.mentions.append(Mention(unit.id, row.id, "unit", row.unit))
        if attrs.get("radio_id") not in (None, ""):
            who.radio_ids[str(attrs["radio_id"]).strip()].add(unit.id)
        for key in ("call_sign", "vehicle"):
            if attrs.get(key):
                index.add(unit, str(attrs[key]))
                unit.attrs[key] = attrs[key]
                who.mentions.append(Mention(unit.id, row.id, key, str(attrs[key])))
        for key in ("role", "assignment", "armed"):
            if attrs.get(key) is not None:
                unit.attrs.setdefault(key, attrs[key])
    if row.actor:
        person = _roster_person(who, people, row.actor, row.agency, unit, attrs)
        who.mentions.append(Mention(person.id, row.id, "actor", row.actor))
        if unit is not None:
            crew = unit.attrs.setdefault("crew", [])
            if person.id not in crew:
                crew.append(person.id)


def _roster_person(who: WhoIsWho, people, text: str, agency, unit: Entity | None, attrs: dict) -> Entity:
    name = parse_person(text)
    for entity, known in people:
        same_unit = unit is not None and entity.id in unit.attrs.get("crew", [])
        same_badge = bool(attrs.get("badge")) and str(entity.attrs.get("badge")) == str(attrs.get("badge"))
        if name and (same_unit or same_badge) and known.same_with_evidence(name):
            entity.aliases.add(text)
            why = f"the same unit {unit.name}" if same_unit else f"the same badge {attrs['badge']}"
            entity.evidence.append(f"{text!r} is listed with {why} and a name one slip away")
            return entity
        if name and entity.agency == agency and known.compatible(name) and known.first == name.first:
            entity.aliases.add(text)
            entity.evidence.append(f"{text!r} has the same name in the same agency")
            return entity
    person = who.new("person", text, agency)
    person.aliases.add(text)
    for key in ("rank", "badge"):
        if attrs.get(key):
            person.attrs[key] = attrs[key]
    people.append((person, name or PersonName("", "", fold(text), None)))
    return person


def _unit_mentions(who: WhoIsWho, index: _UnitIndex, rows: pd.DataFrame) -> None:
    """Every event's written unit id. An id is written the same way thousands of times (a
    year of one agency's calls): each (id, agency) is read once, in the order first seen,
    and its answer given to every event that writes it, column-wise."""
    written = rows.groupby(["unit", "agency"], dropna=False, sort=False)
    codes = written.ngroup().to_numpy()  # numbered in the order first seen
    keys = rows[["unit", "agency"]].drop_duplicates()
    seen: dict = {}
    uid, score, text = [], [], []
    for unit, agency in keys.itertuples(index=False):
        agency = None if agency != agency else agency  # a missing agency reads as None
        key = (str(unit).strip(), agency)
        if key not in seen:  # "E31" and "E31 " are one id
            seen[key] = _read_unit(who, index, *key)
        uid.append(seen[key][0] if seen[key][0] is not None else -1)
        score.append(seen[key][1])
        text.append(key[0])
    ent = np.asarray(uid, dtype=np.int64)[codes]
    found = ent >= 0
    events = rows["id"].to_numpy(dtype=np.int64)[found]
    forms = list(dict.fromkeys(text))  # a few hundred ways of writing units, over millions of rows
    form_of = {t: i for i, t in enumerate(forms)}
    written = np.asarray([form_of[t] for t in text], dtype=np.int32)[codes][found]
    who.unit_mentions = pd.DataFrame({"entity_id": ent[found], "event_id": events,
                                      "text": pd.Categorical.from_codes(written, categories=forms),
                                      "score": np.asarray(score, dtype=np.float64)[codes][found]})


def _read_unit(who: WhoIsWho, index: _UnitIndex, text: str, agency) -> tuple[int | None, float]:
    if not text or fold(text) in NOT_UNITS:
        return None, 0.0
    uid, score = index.find(text, agency, who)
    if uid is None:
        # Not on any roster: still one entity per written id, so its events join up.
        unit = who.new("unit", text, agency)
        unit.attrs["unrostered"] = True
        index.add(unit, text)
        uid, score = unit.id, 0.5
    return uid, score


def _person_mention(who: WhoIsWho, people, row) -> None:
    name = parse_person(str(row.actor))
    if name is None:
        return
    unit_id = who.unit_of_event.get(row.id)
    crew = who.entities[unit_id].attrs.get("crew", []) if unit_id else []
    fits = [e for e, known in people if known.compatible(name, fuzzy_last=e.id in crew)]
    on_unit = [e for e in fits if e.id in crew]
    pick = on_unit[0] if len(on_unit) == 1 else fits[0] if len(fits) == 1 else None
    if pick is None:
        if fits:
            who.problems.append(f"{row.actor!r} (event {row.id}) could be any of "
                                f"{', '.join(e.name for e in fits)}; left unresolved")
        return
    pick.aliases.add(str(row.actor))
    who.mentions.append(Mention(pick.id, row.id, "actor", str(row.actor), 1.0 if on_unit else 0.8))


# A transmission's first words name who speaks ("4-TOM-38 ON SCENE", "Engine 52, on
# location"): one or two words, before any comma
LEADING = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9\-]*)(?:[\s\-]+([A-Za-z0-9]+))?")


def _speakers(who: WhoIsWho, index: _UnitIndex, events: pd.DataFrame) -> None:
    """The unit of a record that names none in its unit column: a radio transmission whose
    alias is a person or a radio id, an AVL fix naming only a vehicle. Read, in this order,
    from the roster's keys (docs/attributes.md): the record's `radio_id` issued to one
    rostered unit; its `vehicle` or `call_sign`; its `actor`, an officer on one rostered
    unit's crew; and, on a radio line not spoken by a dispatcher, the unit its first words
    name (the speaker says who they are first). Never guessed: a key two units share, or a
    person on two units, leaves the record without a unit."""
    known = set(who.unit_mentions["event_id"].tolist())
    actor_of = {m.event_id: m.entity_id for m in who.mentions if m.role == "actor"}
    crews: dict[int, set[int]] = defaultdict(set)
    for u in who.units():
        if u.attrs.get("unrostered"):
            continue
        for p in u.attrs.get("crew", []):
            crews[p].add(u.id)
    candidates = events[(events["kind"] != "roster_entry") & ~events["id"].isin(known)
                        & (events["attrs"].fillna("").str.contains('"(?:radio_id|vehicle|call_sign)"', regex=True)
                           | events["id"].isin(actor_of)
                           | ((events["kind"] == "radio_transmission") & events["text"].notna()))]
    found: list[tuple[int, int, str, float]] = []
    for row in candidates.itertuples(index=False):
        hit = _speaker(who, index, row, actor_of, crews)
        if hit is not None:
            found.append((hit[0], int(row.id), hit[1], hit[2]))
    if not found:
        return
    old = who.unit_mentions
    before = list(old["text"].cat.categories) if isinstance(old["text"].dtype, pd.CategoricalDtype) \
        else [str(t) for t in old["text"].unique()]
    forms = list(dict.fromkeys([*before, *(f[2] for f in found)]))
    add = pd.DataFrame({"entity_id": np.array([f[0] for f in found], dtype=np.int64),
                        "event_id": np.array([f[1] for f in found], dtype=np.int64),
                        "text": pd.Categorical([f[2] for f in found], categories=forms),
                        "score": np.array([f[3] for f in found], dtype=np.float64)})
    if len(old):
        old = old.assign(text=pd.Categorical(old["text"].astype(str), categories=forms))
        add = pd.concat([old, add], ignore_index=True)
    who.unit_mentions = add
    who.__dict__.pop("unit_of_event", None)


def _speaker(who: WhoIsWho, index: _UnitIndex, row, actor_of: dict, crews: dict) -> tuple[int, str, float] | None:
    attrs = json.loads(row.attrs) if isinstance(row.attrs, str) and row.attrs else {}
    rid = attrs.get("radio_id")
    if rid not in (None, ""):
        units = who.radio_ids.get(str(rid).strip(), set())
        if len(units) == 1:
            return next(iter(units)), str(rid), 0.9
    for key in ("vehicle", "call_sign"):
        if attrs.get(key) not in (None, ""):
            uid, score = index.find(str(attrs[key]), _agency(row.agency), who, by_digits=False)
            if uid is not None and not who.entities[uid].attrs.get("unrostered"):
                return uid, str(attrs[key]), score
    person = actor_of.get(row.id)
    if person is not None and len(crews.get(person, ())) == 1:
        return next(iter(crews[person])), str(row.actor), 0.85
    if row.kind != "radio_transmission" or not isinstance(row.text, str):
        return None
    alias = row.actor if isinstance(row.actor, str) else row.unit if isinstance(row.unit, str) else ""
    if alias and fold(alias) in NOT_UNITS:
        return None  # a dispatcher's first words name the unit addressed, not the speaker
    lead = LEADING.match(row.text.split(",")[0])
    if lead is None:
        return None
    for form in ([f"{lead.group(1)} {lead.group(2)}"] if lead.group(2) else []) + [lead.group(1)]:
        if fold(form) in NOT_UNITS or not re.search(r"\d", form):
            continue
        uid, score = index.find(form, _agency(row.agency), who, by_digits=False)
        if uid is not None and not who.entities[uid].attrs.get("unrostered"):
            who.named_first.add(int(row.id))
            return uid, form, 0.8 * score
    return None


def _agency(value):
    return None if value is None or value != value or value == "" else value


WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")


def _units_in_words(who: WhoIsWho, index: _UnitIndex, text: str, agency) -> set[int]:
    """The rostered units a line's words name, by an exact id, call sign or compact form
    ("Engine 52"): one word or two, holding a digit. Digits alone are not read here (a
    street number is no unit)."""
    words = WORD.findall(text)
    out: set[int] = set()
    for i, w in enumerate(words):
        for form in ([f"{w} {words[i + 1]}"] if i + 1 < len(words) else []) + [w]:
            if not re.search(r"\d", form) or not re.search(r"[A-Za-z]|-", form):
                continue
            uid, _ = index.find(form, agency, who, by_digits=False)
            if uid is not None and not who.entities[uid].attrs.get("unrostered"):
                out.add(uid)
                break
    return out
