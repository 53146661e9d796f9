#!/usr/bin/env bash
# What the deterministic world costs (docs/decisions/0002): sends per second and effects
# per second on a virtual clock, in a worker and in process, with the world on (the
# default) and off (--real-world); with --against OTHER_STORESH, the same runs of another
# build (one from before the world) beside them.
#   Benchmarks/world-cost.sh [--sends N] [--effects N] [--storesh PATH] [--against PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
sends=100000
effects=4000
storesh=.build/debug/storesh
against=""
while [ $# -gt 0 ]; do
    case "$1" in
        --sends) sends="$2"; shift 2 ;;
        --effects) effects="$2"; shift 2 ;;
        --storesh) storesh="$2"; shift 2 ;;
        --against) against="$2"; shift 2 ;;
        *) echo "usage: Benchmarks/world-cost.sh [--sends N] [--effects N] [--storesh PATH] [--against PATH]" >&2; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Sends: Counter's increments, shown one by one (an observed run: every result printed).
{ echo ":load Counter"; for _ in $(seq "$sends"); do echo increment; done; } > "$work/sends"
# Effects: Feed's prefetch, eight effects that sleep on the host clock, waited for.
{ echo ":load Feed"; for _ in $(seq $((effects / 8))); do echo "prefetch"; echo ":wait"; done; } > "$work/effects"

rate() {  # rate COUNT SECONDS
    awk -v n="$1" -v s="$2" 'BEGIN { printf "%9.0f/s", n / s }'
}
seconds() {  # seconds COMMAND...: wall-clock seconds, the best of three runs
    local start end best=""
    for _ in 1 2 3; do
        start=$(date +%s.%N)
        "$@" > /dev/null 2>&1
        end=$(date +%s.%N)
        best=$(awk -v a="$start" -v b="$end" -v best="$best" 'BEGIN { t = b - a; if (best != "" && best < t) t = best; printf "%.3f", t }')
    done
    echo "$best"
}
measure() {  # measure LABEL STORESH FLAGS...
    local label="$1" binary="$2"
    shift 2
    local send effect
    send=$(seconds "$binary" --virtual-clock "$@" -f "$work/sends")
    effect=$(seconds "$binary" --virtual-clock "$@" -f "$work/effects")
    printf "%-28s sends %s   effects %s\n" "$label" "$(rate "$sends" "$send")" "$(rate "$effects" "$effect")"
}
for mode in worker in-process; do
    flags=()
    [ "$mode" = in-process ] && flags=(--in-process)
    measure "$mode, world on" "$storesh" "${flags[@]}"
    measure "$mode, --real-world" "$storesh" "${flags[@]}" --real-world
    [ -z "$against" ] || measure "$mode, --against build" "$against" "${flags[@]}"
done
