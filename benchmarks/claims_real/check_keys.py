"""Validate the claims answer keys against the articles they key.

Usage: python benchmarks/claims_real/check_keys.py [ARTICLES_DIR]
       python benchmarks/claims_real/check_keys.py --set DIR   (DIR/articles, DIR/keys, DIR/split.toml)

ARTICLES_DIR defaults to ../shared/data/articles from the repository root. Checks every
keys/*.toml: the span really holds `as_written`, ids are unique, measures are the ones
docs/claims.md documents, intervals are ordered, conflicts resolve to claims of the same
incident and sit in the file that comes first, spans do not overlap, and every keyed
article is listed in a split file. Prints one line per problem and exits 1 if there is any.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
KEYS = HERE / "keys"
SPLIT_FILES = [HERE / "split.toml", HERE / "split_holdout.toml"]

CLAIM_FIELDS = {
    "id",
    "start",
    "end",
    "as_written",
    "measure",
    "lo",
    "hi",
    "unit",
    "hedge",
    "speaker",
    "speaker_kind",
    "subject",
    "quoted",
    "qualifier",
    "anchor",
    "relation",
    "during",
    "note",
}
CLAIM_REQUIRED = {"id", "start", "end", "as_written", "measure", "unit", "speaker", "speaker_kind"}
UNLISTED_FIELDS = {
    "start",
    "end",
    "as_written",
    "suggested_measure",
    "lo",
    "hi",
    "unit",
    "speaker",
    "speaker_kind",
    "subject",
    "note",
}
SPEAKER_KINDS = {"person", "organisation", "outlet", "author", "unknown"}
OFFSET_UNITS = {"minute", "second", "hour", "day", "week", "month", "year"}


def documented_measures() -> set[str]:
    """The measure names of the table in docs/claims.md (the vocabulary keys must use)."""
    text = (ROOT / "docs" / "claims.md").read_text(encoding="utf-8")
    section = text.split("## Measures", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_0-9]+)` \|", section, flags=re.M))


def split_of() -> tuple[dict[str, tuple[str, str]], list[str]]:
    """article file name -> (incident, split), from every split file present."""
    listed: dict[str, tuple[str, str]] = {}
    problems: list[str] = []
    for path in SPLIT_FILES:
        if not path.exists():
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for slug, entry in data.get("incidents", {}).items():
            for article in entry.get("articles", []):
                if article in listed:
                    problems.append(f"{path.name}: {article} listed twice")
                listed[article] = (slug, entry.get("split", "?"))
    return listed, problems


def check_interval(where: str, item: dict, problems: list[str]) -> None:
    lo, hi = item.get("lo"), item.get("hi")
    for name, value in (("lo", lo), ("hi", hi)):
        if value is not None and not isinstance(value, (int, float)):
            problems.append(f"{where}: {name} is not a number")
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo > hi:
        problems.append(f"{where}: lo {lo} > hi {hi}")


def check_claim(where: str, claim: dict, text: str, measures: set[str], problems: list[str]) -> None:
    missing = CLAIM_REQUIRED - set(claim)
    if missing:
        problems.append(f"{where}: missing {sorted(missing)}")
        return
    unknown = set(claim) - CLAIM_FIELDS
    if unknown:
        problems.append(f"{where}: unknown fields {sorted(unknown)}")
    start, end = claim["start"], claim["end"]
    if text[start:end] != claim["as_written"]:
        problems.append(f"{where}: text[{start}:{end}] is {text[start:end]!r}, not {claim['as_written']!r}")
    if claim["measure"] not in measures:
        problems.append(f"{where}: measure {claim['measure']!r} is not documented")
    if claim["speaker_kind"] not in SPEAKER_KINDS:
        problems.append(f"{where}: speaker_kind {claim['speaker_kind']!r}")
    if (claim["speaker"] == "author") != (claim["speaker_kind"] == "author"):
        problems.append(f"{where}: speaker 'author' goes with speaker_kind 'author'")
    check_interval(where, claim, problems)
    measure, unit = claim["measure"], claim["unit"]
    if measure == "place_of_action":
        if unit != "place" or "lo" in claim or "hi" in claim:
            problems.append(f"{where}: a place has unit 'place' and no lo/hi")
    elif "lo" not in claim and "hi" not in claim:
        problems.append(f"{where}: neither lo nor hi")
    if measure == "time_of_action":
        if unit == "minute_of_day":
            for side in ("lo", "hi"):
                value = claim.get(side)
                if value is not None and not -60 <= value < 1500:
                    problems.append(f"{where}: {side} {value} is not a time of day")
        elif unit in OFFSET_UNITS:
            if not claim.get("anchor"):
                problems.append(f"{where}: a relative time needs an anchor")
        else:
            problems.append(f"{where}: time_of_action unit {unit!r}")
    if measure.startswith("duration_") and measure != "duration_of_service" and unit != "minute":
        problems.append(f"{where}: durations are in minutes, not {unit!r}")


def main(argv: list[str]) -> int:
    global KEYS, SPLIT_FILES
    if len(argv) > 2 and argv[1] == "--set":
        # an article set kept outside the repository (benchmarks/claims_real.py --set reads the same layout)
        root = Path(argv[2])
        articles, KEYS, SPLIT_FILES = root / "articles", root / "keys", [root / "split.toml"]
    else:
        articles = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "data" / "articles"
    if not articles.is_dir():
        print(f"articles folder not found: {articles}")
        return 2
    measures = documented_measures()
    listed, problems = split_of()
    keys = {path.stem: tomllib.loads(path.read_text(encoding="utf-8")) for path in sorted(KEYS.glob("*.toml"))}
    claim_ids = {stem: {c.get("id") for c in key.get("claim", [])} for stem, key in keys.items()}
    for stem, key in keys.items():
        where_file = f"{stem}.toml"
        article = key.get("article")
        if article != stem + ".txt":
            problems.append(f"{where_file}: article {article!r} does not match the file name")
            continue
        path = articles / article
        if not path.exists():
            problems.append(f"{where_file}: article {article} not found in {articles}")
            continue
        text = path.read_text(encoding="utf-8")
        if article not in listed:
            problems.append(f"{where_file}: {article} is in no split file")
        elif listed[article] != (key.get("incident"), key.get("split")):
            problems.append(
                f"{where_file}: incident/split {key.get('incident')}/{key.get('split')}"
                f" but split file says {listed[article]}"
            )
        ids = [c.get("id") for c in key.get("claim", [])]
        for dup in sorted({i for i in ids if ids.count(i) > 1}):
            problems.append(f"{where_file}: id {dup} used twice")
        for claim in key.get("claim", []):
            check_claim(f"{where_file} {claim.get('id')}", claim, text, measures, problems)
        spans = sorted(
            (c.get("start", 0), c.get("end", 0), c.get("id", "?"))
            for c in key.get("claim", []) + key.get("unlisted", [])
        )
        for (_, end, first), (start, _, second) in zip(spans, spans[1:]):
            if start < end:
                problems.append(f"{where_file}: spans of {first} and {second} overlap")
        for n, item in enumerate(key.get("unlisted", []), 1):
            where = f"{where_file} unlisted {n}"
            unknown = set(item) - UNLISTED_FIELDS
            if unknown:
                problems.append(f"{where}: unknown fields {sorted(unknown)}")
            if text[item["start"] : item["end"]] != item["as_written"]:
                problems.append(f"{where}: span does not hold {item['as_written']!r}")
            if item.get("suggested_measure") in measures:
                problems.append(f"{where}: {item['suggested_measure']} is documented; key it as a claim")
            check_interval(where, item, problems)
        for n, conflict in enumerate(key.get("conflict", []), 1):
            where = f"{where_file} conflict {n}"
            files = []
            for side in ("a", "b"):
                ref = conflict.get(side, "")
                other, _, cid = ref.rpartition("#") if "#" in ref else (stem, "", ref)
                if other not in keys or cid not in claim_ids.get(other, set()):
                    problems.append(f"{where}: {side} = {ref!r} does not resolve")
                    continue
                if keys[other].get("incident") != key.get("incident"):
                    problems.append(f"{where}: {ref!r} is another incident")
                files.append(other)
            if files and min(files) != stem:
                problems.append(f"{where}: belongs in {min(files)}.toml (the first by name)")
            if (
                len(files) == 2
                and files[0] == files[1]
                and conflict["a"].split("#")[-1] == conflict["b"].split("#")[-1]
            ):
                problems.append(f"{where}: a claim conflicts with itself")
            if not conflict.get("why"):
                problems.append(f"{where}: no why")
    for article, (slug, _) in listed.items():
        if article[:-4] not in keys:
            problems.append(f"split: {article} ({slug}) has no key")
    for line in problems:
        print(line)
    counts = sum(len(k.get("claim", [])) for k in keys.values())
    print(f"{len(keys)} keys, {counts} claims, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
