#!/usr/bin/env bash
# A blind user's harness, shared by every mappings-blind-N set: init a case, add the set's
# case.toml, import every export of the seed's manifest with its mapping (named after the
# export, --agency and --tz from the manifest, the zone read as independent_accuracy.py reads
# it), then build. The mapper runs it to see what the build makes of the mappings;
# benchmarks/independent_accuracy.py is what scores them against truth.
#   run_blind.sh MAPPINGS_DIR SEED     e.g. run_blind.sh benchmarks/independent/mappings-blind-9 340
# Cases come from $BLIND_CASES (default /work/heldout/cases/seed-SEED, written by generate.py);
# the built case folder is $BLIND_WORK/cSEED (default /tmp/blind/cSEED).
set -euo pipefail
MAPS_DIR="$(cd "${1:?usage: run_blind.sh MAPPINGS_DIR SEED}" && pwd)"
SEED="${2:?usage: run_blind.sh MAPPINGS_DIR SEED}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# the checkout's venv, else the one the python on PATH is (a git worktree shares its main's venv)
PY="${PYTHON:-$REPO/.venv/bin/python}"
[[ -x "$PY" ]] || PY="$(command -v python3)"
CASE_SRC="${BLIND_CASES:-/work/heldout/cases}/seed-$SEED"
MAPS="$MAPS_DIR/seed-$SEED"
WORK="${BLIND_WORK:-/tmp/blind}"
CASE="$WORK/c$SEED"
export PYTHONPATH="$REPO/src${PYTHONPATH:+:$PYTHONPATH}" ONRECORD_SHARED="${ONRECORD_SHARED:-$REPO/../shared}"
OR=(nice -n 10 "$PY" -m onrecord)

rm -rf "$CASE"; mkdir -p "$WORK"
"${OR[@]}" init "$CASE"
if [[ -f "$MAPS/case.toml" ]]; then
  # lines before the first [table] header go under [case], which onrecord init has written
  # already (a second [case] header is not TOML); the rest is appended after
  "$PY" - "$MAPS/case.toml" "$CASE/onrecord.toml" <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().splitlines()
head, rest = [], []
for i, line in enumerate(lines):
    if line.lstrip().startswith("["):
        rest = lines[i:]
        break
    head.append(line)
dst_lines = open(dst).read().splitlines()
if any(l.strip() and not l.strip().startswith("#") for l in head):
    stripped = [l.strip() for l in dst_lines]
    if "[case]" in stripped:
        at = stripped.index("[case]") + 1
        while at < len(dst_lines) and not dst_lines[at].lstrip().startswith("["):
            at += 1
        while at > 0 and not dst_lines[at - 1].strip():
            at -= 1
        dst_lines[at:at] = head
    else:
        dst_lines += ["", "[case]"] + head
open(dst, "w").write("\n".join(dst_lines + [""] + rest) + "\n")
PY
fi

# manifest -> lines "path<TAB>agency<TAB>IANA zone or -", zones read by the scorer's own reader
"$PY" - "$CASE_SRC/manifest.json" "$REPO/benchmarks" > "$CASE.imports" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
from independent_accuracy import zone_of
for e in json.load(open(sys.argv[1]))["exports"]:
    print(f"{e['path']}\t{e['agency']}\t{zone_of(e['time_zone']) or '-'}")
PY

status=0
while IFS=$'\t' read -r path agency tz; do
  file="$(basename "$path")"
  map="$MAPS/${file%.*}.toml"
  args=(--mapping "$map" --agency "$agency")
  [[ "$tz" != "-" ]] && args+=(--tz "$tz")
  echo "== $file"
  "${OR[@]}" import "$CASE" "$CASE_SRC/$path" "${args[@]}" || { echo "!! import failed: $file"; status=1; }
done < "$CASE.imports"
"${OR[@]}" build "$CASE"
exit $status
