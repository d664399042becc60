#!/usr/bin/env bash
# A blind user's harness: init a case, add case.toml, import every export of the case's
# manifest with its mapping (named after the export), then build.
#   run.sh SEED            e.g. run.sh 340
set -euo pipefail
SEED="${1:?usage: run.sh SEED}"
HERE="$(cd "$(dirname "$0")" && pwd)"
CASE_SRC="/work/heldout/cases/seed-$SEED"
MAPS="$HERE/seed-$SEED"
CASE="/tmp/blind9/c$SEED"
export PYTHONPATH=/work/main/src ONRECORD_SHARED=/work/shared
OR=(nice -n 10 /work/main/.venv/bin/python -m onrecord)

rm -rf "$CASE"; mkdir -p /tmp/blind9
"${OR[@]}" init "$CASE"
if [[ -f "$MAPS/case.toml" ]]; then
  # lines before the first [table] header go under [case]
  /work/main/.venv/bin/python - "$MAPS/case.toml" "$CASE/onrecord.toml" <<'PY'
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
# onrecord init writes a [case] table already: the head lines join it (a second [case]
# header is not TOML), the rest is appended after
if any(l.strip() and not l.strip().startswith("#") for l in head):
    if "[case]" in [l.strip() for l in dst_lines]:
        at = [l.strip() for l in dst_lines].index("[case]") + 1
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

# manifest -> lines "path<TAB>agency<TAB>IANA zone or -"
/work/main/.venv/bin/python - "$CASE_SRC/manifest.json" > "$CASE.imports" <<'PY'
import json, sys
def zone(text):
    t = text.lower()
    if "untimed" in t:
        return "-"
    if "arizona" in t or "mst" in t.replace("(", " ").replace(")", " ").split() or "mountain standard" in t:
        return "America/Phoenix"   # blind9: MST all year (no DST); the blind8 harness knew no such zone
    if "pacific" in t:
        return "America/Los_Angeles"
    if "central" in t:
        return "America/Chicago"
    if "mountain" in t:
        return "America/Denver"
    if "eastern" in t:
        return "America/New_York"
    if "utc" in t or "gmt" in t or "zulu" in t or "coordinated universal" in t:
        return "UTC"
    raise SystemExit(f"unknown zone in manifest: {text!r}")
for e in json.load(open(sys.argv[1]))["exports"]:
    print(f"{e['path']}\t{e['agency']}\t{zone(e['time_zone'])}")
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
