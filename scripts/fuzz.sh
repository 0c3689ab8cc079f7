#!/usr/bin/env bash
# Fuzzes the parsers with libFuzzer and AddressSanitizer (docs/SECURITY.md, "Fuzzing").
#
#   scripts/fuzz.sh [SECONDS] [TARGET…]
#
# Builds Fuzz/QuireFuzz with -sanitize=fuzzer,address into .build/fuzz, then runs each target
# (default: all) for SECONDS (default 60) from its seed corpus in Fuzz/corpus/TARGET (with the
# dictionary Fuzz/dict/TARGET.dict when there is one). With
# FUZZ_RUNS=N (as CI runs it) each target runs N inputs from seed 1 instead, so a run is repeatable. New inputs
# go to .build/fuzz/corpus/TARGET (the committed seeds are never changed); a crash leaves its input
# in .build/fuzz/findings/ and the script exits 1. Each target's last status line (executions,
# coverage) is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(frontmatter frontmatter-diff note obsidian log config query render csv html anki json pdfxml ocrtsv transcript safetensors llmreply)

# The C target of the cmark-gfm shim gets the same instrumentation as the Swift code (-Xcc).
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -DQUIRE_FUZZER -Xswiftc -use-ld=lld
    -Xcc -fsanitize=fuzzer-no-link,address)
swift build --product QuireFuzz --scratch-path .build/fuzz "${flags[@]}" >/dev/null
bin="$(swift build --product QuireFuzz --scratch-path .build/fuzz "${flags[@]}" --show-bin-path)/QuireFuzz"

status=0
mkdir -p .build/fuzz/findings
for target in "${targets[@]}"; do
    work=".build/fuzz/corpus/$target"
    mkdir -p "$work"
    log=".build/fuzz/$target.log"
    if [ -n "${FUZZ_RUNS:-}" ]; then
        limit=(-runs="$FUZZ_RUNS" -seed=1)
        rm -rf "$work" && mkdir -p "$work"
    else
        limit=(-max_total_time="$seconds")
    fi
    dict=()
    [ -f "Fuzz/dict/$target.dict" ] && dict=(-dict="Fuzz/dict/$target.dict")
    # libFuzzer reports a trap itself; Swift's backtracer would outlive the process it traces.
    if SWIFT_BACKTRACE=enable=no QUIRE_FUZZ_TARGET="$target" "$bin" "$work" "Fuzz/corpus/$target" \
        "${limit[@]}" "${dict[@]}" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix=".build/fuzz/findings/$target-" -print_final_stats=1 >"$log" 2>&1; then
        runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
        cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+' || true)
        echo "fuzz $target: ${runs:-?} executions, ${cov:-cov: ?}, no finding"
    else
        echo "fuzz $target: FINDING (see $log and .build/fuzz/findings/)"
        tail -30 "$log"
        status=1
    fi
done
exit $status
