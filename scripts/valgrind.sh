#!/usr/bin/env bash
# Runs tftensor's test binaries (unit tests, every integration test, the
# examples) under valgrind memcheck and prints the error count of each and
# the total. Exits 0 only when the total is 0 and every binary passed.
#
#   scripts/valgrind.sh                       # ~6 min on 2 cores
#   VALGRIND_DOCTESTS=1 scripts/valgrind.sh   # also every doctest (~10 min more)
#   VALGRIND_SKIP="robust tensor" scripts/valgrind.sh  # skip binaries by name
#   PROPTEST_CASES=256 scripts/valgrind.sh    # more property cases (default 16 here)
#
# Counted as errors: invalid reads/writes, uses of uninitialised values,
# invalid or mismatched frees, and definite or indirect leaks. Memory that
# is still reachable at exit (std's thread-locals, lazily built statics) is
# not an error.
#
# Scaled down under valgrind (TFTENSOR_UNDER_VALGRIND=1): property tests run
# PROPTEST_CASES=16 cases; tests/robust/proto.rs runs fewer mutations per vector;
# three tests/limits.rs boundary tests that need gigabytes of untouched
# (lazily zeroed) memory are skipped, since valgrind's allocator touches it.
#
# Needs: valgrind (apt-get install valgrind). Unoptimised test builds, so
# debug assertions and overflow checks stay on.
set -euo pipefail
cd "$(dirname "$0")/.."

# Nothing is too slow to run: no binary is skipped by default.
SKIP="${VALGRIND_SKIP:-}"

export PROPTEST_CASES="${PROPTEST_CASES:-16}"
# Lets tests scale their loops down; they still run every code path.
export TFTENSOR_UNDER_VALGRIND=1

command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 2; }

logdir="target/valgrind"
rm -rf "$logdir"
mkdir -p "$logdir"

# Build everything once and collect the executables cargo reports.
cargo build --examples --quiet 2>"$logdir/build.log" || { cat "$logdir/build.log" >&2; exit 2; }
cargo test --no-run --lib --tests --quiet 2>>"$logdir/build.log" || { cat "$logdir/build.log" >&2; exit 2; }
mapfile -t bins < <(
  cargo test --no-run --lib --tests --message-format=json 2>/dev/null |
    grep -o '"executable":"[^"]*"' | sed 's/"executable":"\(.*\)"/\1/' | sort -u
)
for ex in examples/*.rs; do
  [ -e "$ex" ] && bins+=("target/debug/examples/$(basename "$ex" .rs)")
done

vg=(valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --track-origins=yes --num-callers=30)

total=0
failed=()
run_one() { # name, log, exit-status-matters (1/0), command...
  local name="$1" log="$2" check_status="$3"
  shift 3
  local start=$SECONDS status=0
  "${vg[@]}" --log-file="$log" "$@" >"$log.out" 2>&1 || status=$?
  local errors
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
  errors=${errors:-unknown}
  printf '%-40s %6s errors  exit %-3s %4ss\n' "$name" "$errors" "$status" $((SECONDS - start))
  # A doctest's own pass/fail is `cargo test --doc`'s business (should_panic
  # examples exit 101 on purpose); here only memcheck's count matters.
  if [ "$errors" != 0 ] || { [ "$check_status" = 1 ] && [ "$status" != 0 ]; }; then
    failed+=("$name (log: $log)")
  fi
  if [ "$errors" != unknown ]; then total=$((total + errors)); fi
}

for bin in "${bins[@]}"; do
  name=$(basename "$bin" | sed 's/-[0-9a-f]\{16\}$//')
  if [[ " $SKIP " == *" $name "* ]]; then
    printf '%-40s skipped (VALGRIND_SKIP)\n' "$name"
    continue
  fi
  case "$bin" in
    # checkpoint_interop writes TF-readable bundles into the directory it is given.
    */examples/checkpoint_interop) run_one "$name" "$logdir/$name.log" 1 "$bin" "$logdir/$name-out" ;;
    */examples/*) run_one "$name" "$logdir/$name.log" 1 "$bin" ;;
    *) run_one "$name" "$logdir/$name.log" 1 "$bin" --test-threads=2 ;;
  esac
done

if [ "${VALGRIND_DOCTESTS:-0}" = 1 ]; then
  # Stable rustdoc keeps doctest binaries only with the unstable flag.
  rm -rf target/doctests
  RUSTC_BOOTSTRAP=1 RUSTDOCFLAGS="-Z unstable-options --persist-doctests target/doctests" \
    cargo test --doc >"$logdir/doctests-build.log" 2>&1 || {
    tail -20 "$logdir/doctests-build.log" >&2
    exit 2
  }
  grep '^test result' "$logdir/doctests-build.log" || true
  n=0
  while IFS= read -r bin; do
    n=$((n + 1))
    run_one "doctest $(basename "$(dirname "$bin")")" "$logdir/doctest-$n.log" 0 "$bin" >>"$logdir/doctests.txt"
  done < <(find target/doctests -type f -name rust_out -perm -u+x | sort)
  echo "doctests: $n run under valgrind (per-test lines in $logdir/doctests.txt)"
fi

echo "valgrind memcheck: $total errors in total"
if [ ${#failed[@]} -ne 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
