#!/usr/bin/env bash
# Rebuilds SampleVault's review history by grading through the real CLI: clears the log and the
# scheduling lines, then replays the session list below with `quire grade --at`, `quire suspend`
# and `quire bury`, as device samp1e00. Run from the repository root after `swift build`.
set -euo pipefail
quire=${QUIRE:-.build/debug/quire}
vault=SampleVault
rm -f "$vault"/.quire/log/*.log "$vault"/.quire/settings/*.yaml "$vault"/.quire/journal
"$quire" -C "$vault" reset all --now 2026-09-01T00:00:00Z >/dev/null 2>&1 || true
rm -f "$vault"/.quire/log/*.log
printf 'samp1e00\n' > "$vault/.quire/device"
while read -r time event card rest; do
  case "$event" in
    grade) set -- $rest; "$quire" -C "$vault" grade "$card" "$1" --at "$time" --ms "$2" >/dev/null ;;
    suspend) "$quire" -C "$vault" suspend "$card" --now "$time" >/dev/null 2>&1 ;;
    bury) "$quire" -C "$vault" bury "$card" --until "$rest" --now "$time" >/dev/null 2>&1 ;;
  esac
done <<'SESSIONS'
2026-10-02T09:00:00.000Z grade yn8gct90c3d3 good 10262
2026-10-05T09:00:00.000Z grade yn8gct90c3d3 again 11995
2026-10-05T09:10:00.000Z grade yn8gct90c3d3 good 4728
2026-10-12T20:00:00.000Z grade x27m5m9wtd30 good 9592
2026-10-16T20:00:00.000Z grade x27m5m9wtd30 good 11325
2026-10-20T09:00:00.000Z grade yn8gct90c3d3 hard 6461
2026-10-20T18:30:00.000Z grade krebs-cycle-c1 good 7131
2026-10-20T18:31:00.000Z grade krebs-cycle-c2 good 5063
2026-10-23T18:45:00.000Z grade krebs-cycle-c1 again 8864
2026-10-23T18:55:00.000Z grade krebs-cycle-c1 good 10597
2026-10-26T20:00:00.000Z grade x27m5m9wtd30 easy 4058
2026-11-01T08:02:11.504Z grade nwa32gk36n6x good 5733
2026-11-01T08:03:02.911Z grade 8zfbjzp3fv7x easy 10932
2026-11-03T07:55:40.120Z grade nwa32gk36n6x good 7466
2026-11-10T08:12:00.000Z grade nwa32gk36n6x good 9199
2026-11-10T08:13:00.000Z grade 8zfbjzp3fv7x easy 12665
2026-11-13T09:00:00.000Z grade y7azfa5y104q good 5791
2026-11-14T19:00:00.000Z grade krebs-cycle-c1 good 12330
2026-11-14T19:01:00.000Z grade krebs-cycle-c2 good 6796
2026-11-14T19:01:30.000Z suspend krebs-cycle-c2
2026-11-16T09:00:00.000Z grade y7azfa5y104q good 7524
2026-11-19T11:00:00.000Z grade 5nsb9c0xhqxp good 9927
2026-11-20T07:30:00.000Z grade 0nkf8bfmes1z good 4393
2026-11-20T07:31:00.000Z grade 4869a6c8gneh good 6126
2026-11-20T07:40:00.000Z grade 0nkf8bfmes1z good 5120
2026-11-20T08:40:00.000Z grade 0nkf8bfmes1z good 3987
2026-11-21T07:40:00.000Z bury 4869a6c8gneh 2026-11-23T04:00:00Z
2026-11-22T11:20:00.000Z grade yn8gct90c3d3 again 8194
2026-11-22T11:21:00.000Z grade 5nsb9c0xhqxp good 11660
2026-11-22T11:40:00.000Z grade h9wx0pmjhph4 good 5398
SESSIONS
rm -f "$vault/.quire/device" "$vault/.quire/journal"
"$quire" -C "$vault" replay --check
