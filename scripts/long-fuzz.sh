#!/usr/bin/env bash
# The long fuzz trial (docs/RELIABILITY.md, "Fuzzing"): runs every target (or the ones named) in
# rounds of CHUNK executions until each has TOTAL executions with no finding, across as many runs
# of this script as it takes.
#
#   scripts/long-fuzz.sh [--total N] [--chunk N] [--report] [TARGET…]
#
# The fuzzer is built as scripts/fuzz.sh builds it but optimised (-c release keeps Swift's bounds and
# overflow checks; 2-3 times the executions per second of the debug build), then copied to
# .build/fuzz-long/ so a rebuild while this runs changes nothing under it. Each round appends a line to Fuzz/ledger.tsv
# (time, commit, target, executions, coverage, result), which is committed so the trial carries over
# from one clone to the next; --report sums the ledger per target. The
# corpus grows in .build/fuzz-long/corpus/TARGET from the committed seeds. A finding stops the script
# with its input in .build/fuzz-long/findings/ and exit status 1. Runs at the lowest priority, so an
# input counts as a hang past 30 s (one that takes 2 s on an idle machine under ASan took 11 s while
# other work held both cores).
set -euo pipefail
cd "$(dirname "$0")/.."
total=10000000
chunk=500000
report=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --total) total="$2"; shift 2 ;;
        --chunk) chunk="$2"; shift 2 ;;
        --report) report=1; shift ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -eq 0 ] && targets=(json query csv config anki log frontmatter frontmatter-diff obsidian html note render pdfxml ocrtsv transcript safetensors llmreply)
dir=.build/fuzz-long
ledger=Fuzz/ledger.tsv
mkdir -p "$dir/findings" "$dir/corpus"
touch "$ledger"

done_so_far() { # executions of target $1 with no finding
    awk -F'\t' -v t="$1" '$3 == t && $6 == "none" { s += $4 } END { print s + 0 }' "$ledger"
}

if [ "$report" = 1 ]; then
    printf 'target\texecutions\trounds\tlast coverage\tfindings\n'
    for t in "${targets[@]}"; do
        awk -F'\t' -v t="$t" '$3 == t { if ($6 == "none") { s += $4; r++ } else f++; c = $5 }
            END { printf "%s\t%d\t%d\t%s\t%d\n", t, s, r, c, f }' "$ledger"
    done
    exit 0
fi

flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -DQUIRE_FUZZER -Xswiftc -use-ld=lld
    -Xcc -fsanitize=fuzzer-no-link,address)
swift build -c release --product QuireFuzz --scratch-path .build/fuzz-release "${flags[@]}" >/dev/null
# One copy per run of this script, so two runs (one per core, on different targets) can share the ledger.
fuzzer="$dir/QuireFuzz-$$"
cp "$(swift build -c release --product QuireFuzz --scratch-path .build/fuzz-release "${flags[@]}" --show-bin-path)/QuireFuzz" "$fuzzer"
trap 'rm -f "$fuzzer"' EXIT
commit="$(git rev-parse --short HEAD)"

while :; do
    pending=0
    for target in "${targets[@]}"; do
        have=$(done_so_far "$target")
        [ "$have" -ge "$total" ] && continue
        pending=1
        work="$dir/corpus/$target"
        mkdir -p "$work"
        log="$dir/$target.log"
        dict=()
        [ -f "Fuzz/dict/$target.dict" ] && dict=(-dict="Fuzz/dict/$target.dict")
        if SWIFT_BACKTRACE=enable=no QUIRE_FUZZ_TARGET="$target" nice -n 19 "$fuzzer" "$work" \
            "Fuzz/corpus/$target" -runs="$chunk" "${dict[@]}" -max_len=65536 -rss_limit_mb=2048 \
            -timeout=30 -artifact_prefix="$dir/findings/$target-" -print_final_stats=1 >"$log" 2>&1; then
            runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
            cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+' | awk '{print $2}' || true)
            printf '%s\t%s\t%s\t%s\t%s\tnone\n' "$(date -u +%FT%TZ)" "$commit" "$target" "${runs:-0}" "${cov:-?}" >>"$ledger"
            echo "fuzz $target: +${runs:-0} → $((have + ${runs:-0})) of $total, cov ${cov:-?}"
        else
            printf '%s\t%s\t%s\t0\t?\tFINDING\n' "$(date -u +%FT%TZ)" "$commit" "$target" >>"$ledger"
            echo "fuzz $target: FINDING (see $log and $dir/findings/)"
            tail -30 "$log"
            exit 1
        fi
    done
    [ "$pending" = 0 ] && break
done
echo "every target has $total executions with no finding"
