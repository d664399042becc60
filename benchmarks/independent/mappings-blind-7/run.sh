#!/bin/bash
# How these mappings were checked (the harness steps): init, case.toml appended, each manifest
# export imported with its mapping, --agency and --tz (manifest zone -> IANA), then build.
# Case folders go to /tmp/blind7/cSEED.
# usage: run.sh SEED  -> builds /tmp/blind7/cSEED from the mappings
set -u
SEED=$1
CASEDIR=/work/heldout/cases/seed-$SEED
MAP=/work/wt/blind7/benchmarks/independent/mappings-blind-7/seed-$SEED
C=/tmp/blind7/c$SEED
export PYTHONPATH=/work/wt/blind7/src ONRECORD_SHARED=/work/shared
OR="nice -n 10 /work/main/.venv/bin/onrecord"
rm -rf $C
$OR init $C >/dev/null || exit 1
python3 - "$C/onrecord.toml" "$MAP/case.toml" <<'PY'
import sys,re
cfg=open(sys.argv[1]).read(); add=open(sys.argv[2]).read()
# split case.toml: lines before first table header go under [case]
m=re.search(r'^\[', add, re.M)
case_lines = add[:m.start()] if m else add
rest = add[m.start():] if m else ''
if re.search(r'^\[case\]', cfg, re.M):
    cfg=re.sub(r'^\[case\]\n', '[case]\n'+case_lines+'\n', cfg, count=1, flags=re.M)
else:
    cfg+='\n[case]\n'+case_lines
cfg+='\n'+rest
open(sys.argv[1],'w').write(cfg)
PY
python3 - "$CASEDIR/manifest.json" > $C/imports.tsv <<'PY'
import json,sys
m=json.load(open(sys.argv[1]))
for e in m['exports']:
    tz=e['time_zone']
    z='UTC' if 'UTC' in tz else ('America/Chicago' if 'Central' in tz else ('America/Denver' if 'Mountain' in tz else ('America/New_York' if 'Eastern' in tz else ('America/Los_Angeles' if 'Pacific' in tz else 'UTC'))))
    print('\t'.join([e['path'], e['file'].rsplit('.',1)[0], e['agency'], z]))
PY
while IFS=$'\t' read -r path stem agency tz; do
  if [ -f "$MAP/$stem.toml" ]; then
    echo "== $stem ($agency $tz)"
    $OR import $C "$CASEDIR/$path" --mapping "$MAP/$stem.toml" --agency "$agency" --tz "$tz" 2>&1 | tail -15
  else echo "== SKIP $stem (no mapping)"; fi
done < $C/imports.tsv
echo "== BUILD"; $OR build $C 2>&1
