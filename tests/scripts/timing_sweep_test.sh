#!/usr/bin/env bash
# scripts/timing_sweep.sh against a stand-in simapp (fake_simapp.py, made-up times) and stand-in
# simapp-bench: --help exits 0 with the usage; an unknown argument or a bad value is one line
# and exit 2; a sweep prints [i/N] progress lines with the elapsed time and an ETA, passes
# --repeats on as execution.repeats (and nothing without it), and writes the CSV's median and
# spread columns from timing.json; --bench keeps simapp-bench's JSON beside the CSV, and a
# machine without a GPU only gets a note; --3d and --grid3d sweep the 3-D model (grid.ny, the ny
# column). No timing is asserted.
set -euo pipefail
source_dir=$1
sweep=$source_dir/scripts/timing_sweep.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
export FAKE_SIMAPP_JOURNAL=$work/journal
fake_simapp=$source_dir/tests/scripts/fake_simapp.py

# 1. --help and -h: the usage on stdout, exit 0.
for flag in --help -h; do
  status=0
  "$sweep" "$flag" >"$work/stdout" 2>"$work/stderr" || status=$?
  ((status == 0)) || fail "$flag exited $status: $(head -n 3 "$work/stderr")"
  grep -q '^usage: scripts/timing_sweep.sh' "$work/stdout" || fail "$flag printed no usage: $(head -n 3 "$work/stdout")"
  grep -q -- '--repeats N' "$work/stdout" || fail "$flag does not mention --repeats"
  [[ ! -s $work/stderr ]] || fail "$flag wrote to stderr: $(cat "$work/stderr")"
done
echo "ok: --help and -h print the usage and exit 0"

# 2. Command-line mistakes: one line on stderr, exit 2, nothing run.
expect_usage_error() {  # pattern args...
  local pattern=$1 status=0
  shift
  "$sweep" --simapp "$fake_simapp" --out "$work/never" "$@" >"$work/stdout" 2>"$work/stderr" || status=$?
  ((status == 2)) || fail "'$*' exited $status, expected 2 ($(cat "$work/stderr"))"
  [[ $(wc -l <"$work/stderr") == 1 ]] || fail "'$*': not one line: $(cat "$work/stderr")"
  grep -q "^timing_sweep: error: $pattern" "$work/stderr" || fail "'$*': $(cat "$work/stderr")"
  [[ ! -e $work/never && ! -e $FAKE_SIMAPP_JOURNAL ]] || fail "'$*' ran something"
}
expect_usage_error "unknown argument '--bogus'" --bogus
expect_usage_error "unknown argument 'extra'" --quick extra
expect_usage_error "--repeats needs a value" --repeats
expect_usage_error "--repeats needs an integer" --repeats 0
expect_usage_error "--repeats needs an integer" --repeats many
expect_usage_error "--steps needs an integer" --steps 0
expect_usage_error "--grid needs two values" --grid 64
expect_usage_error "--grid needs two positive integers" --grid 64 x
expect_usage_error ".*is not an executable" --bench "$work/no-such-bench"
echo "ok: unknown arguments and bad values: one line, exit 2 ($(cat "$work/stderr"))"

# 3. A sweep of one grid: progress lines, --repeats passed on, the CSV's statistics.
"$sweep" --simapp "$fake_simapp" --out "$work/out" --grid 16 8 --sizes-only --repeats 3 >"$work/stdout" 2>"$work/stderr" ||
  fail "sweep exited $?: $(cat "$work/stderr")"
grep -q '^timing_sweep: \[1/4\] 16 x 8 fine K=auto (1000 steps) … elapsed [0-9hms]*, ETA unknown$' "$work/stdout" ||
  fail "first progress line: $(cat "$work/stdout")"
for i in 2 3 4; do
  grep -q "^timing_sweep: \[$i/4\] 16 x 8 [a-z]* K=auto (1000 steps) … elapsed [0-9hms]*, ETA [0-9][0-9hms]*$" \
    "$work/stdout" || fail "progress line $i: $(cat "$work/stdout")"
done
[[ $(wc -l <"$FAKE_SIMAPP_JOURNAL") == 4 ]] || fail "journal: $(cat "$FAKE_SIMAPP_JOURNAL")"
[[ $(grep -c -- '--set execution.repeats=3 ' "$FAKE_SIMAPP_JOURNAL") == 4 ]] || fail "--repeats 3 not passed on: $(cat "$FAKE_SIMAPP_JOURNAL")"
/usr/bin/python3 - "$work/out/sweep.csv" "$work/out/runs" <<'PY' || fail "CSV check failed"
import csv, json, os, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
needed = ["time_per_step_us", "time_min_us", "time_max_us", "time_q1_us", "time_q3_us", "repeats", "relative_spread",
          "speedup_vs_eager_low", "speedup_vs_eager_high", "speedup_vs_eager_sync_low", "speedup_vs_eager_sync_high"]
missing = [c for c in needed if c not in rows[0]]
assert not missing, f"columns missing: {missing}"
assert len(rows) == 12, f"{len(rows)} rows, expected 4 runs x 3 modes"
for r in rows:
    t = json.load(open(os.path.join(sys.argv[2], f"size_16x8_{r['granularity']}_kauto", "timing.json")))
    m = next(m for m in t["modes"] if m["mode"] == r["mode"])
    s = m["time_per_step"]
    assert float(r["time_per_step_us"]) == s["median_us"], (r["mode"], r["time_per_step_us"], s)
    for column, key in (("time_min_us", "min_us"), ("time_max_us", "max_us"), ("time_q1_us", "q1_us"),
                        ("time_q3_us", "q3_us"), ("relative_spread", "relative_spread")):
        assert float(r[column]) == s[key], (column, r[column], s[key])
    assert r["repeats"] == "3", r["repeats"]
    low, high = m["speedup_vs_eager_range"]
    assert (float(r["speedup_vs_eager_low"]), float(r["speedup_vs_eager_high"])) == (low, high)
    assert r["processor"] == "CPU, 2 OpenMP threads", r["processor"]
graph = next(r for r in rows if r["mode"] == "graph")
assert graph["within_noise_of"] == "eager", graph["within_noise_of"]
assert graph["break_even_steps_low"] == "120.0" and graph["break_even_steps_high"] == "", graph
print("ok: CSV: medians, min, max, quartiles, repeats, spread and speed-up ranges from timing.json")
PY
grep -q 'persistent needs the CUDA backend' "$work/out/skipped.txt" || fail "skipped.txt: $(cat "$work/out/skipped.txt")"
echo "ok: progress lines with elapsed time and ETA; --repeats 3 passed on as execution.repeats=3"

# 4. Without --repeats simapp's default stands: no execution.repeats on its command line.
: >"$FAKE_SIMAPP_JOURNAL"
"$sweep" --simapp "$fake_simapp" --out "$work/out2" --grid 16 8 --sizes-only >/dev/null 2>"$work/stderr" ||
  fail "sweep without --repeats exited $?: $(cat "$work/stderr")"
! grep -q 'execution.repeats' "$FAKE_SIMAPP_JOURNAL" || fail "execution.repeats set without --repeats"
! grep -q 'grid.ny' "$FAKE_SIMAPP_JOURNAL" || fail "a 2-D sweep set grid.ny"
/usr/bin/python3 -c 'import csv, sys; assert {r["repeats"] for r in csv.DictReader(open(sys.argv[1]))} == {"5"}' \
  "$work/out2/sweep.csv" || fail "repeats column without --repeats: $(head -n 2 "$work/out2/sweep.csv")"
echo "ok: without --repeats no execution.repeats is set (simapp's default, 5)"

# 5. --steps N: every run of the size sweep is N steps long, the K sweep's at least four graphs.
"$sweep" --simapp "$fake_simapp" --out "$work/out6" --grid 16 8 --steps 40 >"$work/stdout" 2>"$work/stderr" ||
  fail "sweep with --steps exited $?: $(cat "$work/stderr")"
# The progress lines name each run's steps: "16 x 8 <granularity> K=<k> (<steps> steps)".
sed -n 's/^timing_sweep: \[[0-9]*\/[0-9]*\] 16 x 8 [a-z]* K=\([a-z0-9]*\) (\([0-9]*\) steps).*/\1 \2/p' "$work/stdout" \
  >"$work/steps"
[[ $(grep -c '^auto 40$' "$work/steps") == 4 ]] || fail "--steps 40: size runs $(grep '^auto' "$work/steps" | sort -u)"
awk '$1 != "auto" { k++; if ($2 != ($1 * 4 > 40 ? $1 * 4 : 40)) bad = bad " K=" $1 ": " $2 }
     END { if (!k || bad) { print "K runs:" bad; exit 1 } }' "$work/steps" || fail "--steps 40: $(cat "$work/steps" | tr '\n' ' ')"
echo "ok: --steps 40: size runs of 40 steps, K runs of max(40, 4 K)"

# 5. --bench: its JSON kept beside the CSV; without a GPU a note, and the sweep goes on.
cat >"$work/fake-bench" <<'FAKE'
#!/usr/bin/env bash
[[ $1 == --json ]] || exit 9
echo '{"device": {"name": "NVIDIA H200", "sm_count": 132}, "summary": {"eager_enqueue_us_per_kernel": 4.4, "graph_node_us_empty": 0.5}}' > "$2"
echo "simapp-bench (fake): wrote $2"
FAKE
cat >"$work/no-gpu-bench" <<'FAKE'
#!/usr/bin/env bash
echo "simapp-bench: error: no CUDA device visible" >&2
exit 2
FAKE
chmod +x "$work/fake-bench" "$work/no-gpu-bench"
"$sweep" --simapp "$fake_simapp" --out "$work/out3" --grid 16 8 --sizes-only --repeats 2 --bench "$work/fake-bench" \
  >"$work/stdout" 2>"$work/stderr" || fail "sweep with --bench exited $?: $(cat "$work/stderr")"
grep -q '"NVIDIA H200"' "$work/out3/bench.json" || fail "no bench.json beside the CSV"
grep -q "simapp-bench: wrote $work/out3/bench.json" "$work/stdout" || fail "bench not reported: $(cat "$work/stdout")"
"$sweep" --simapp "$fake_simapp" --out "$work/out3" --grid 16 8 --sizes-only --repeats 2 --bench "$work/no-gpu-bench" \
  >"$work/stdout" 2>"$work/stderr" || fail "sweep with a bench and no GPU exited $?: $(cat "$work/stderr")"
grep -q 'no CUDA device visible; no launch floors' "$work/stdout" || fail "no note without a GPU: $(cat "$work/stdout")"
[[ ! -e $work/out3/bench.json ]] || fail "the previous sweep's bench.json was left beside the new CSV"
[[ $(wc -l <"$work/out3/sweep.csv") == 13 ]] || fail "the sweep without a GPU wrote $(wc -l <"$work/out3/sweep.csv") lines"
echo "ok: --bench keeps simapp-bench's JSON beside the CSV; without a GPU a note and the sweep"

# 6. --3d: the 3-D model's sizes with grid.ny on simapp's command line, NX x NY x NZ in the
# progress lines and run names, the ny column; --grid3d one 3-D size, its mistakes refused.
: >"$FAKE_SIMAPP_JOURNAL"
"$sweep" --simapp "$fake_simapp" --out "$work/out4" --3d --quick --sizes-only --repeats 2 >"$work/stdout" 2>"$work/stderr" ||
  fail "--3d sweep exited $?: $(cat "$work/stderr")"
grep -q '^timing_sweep: \[1/8\] 48 x 24 x 10 fine K=auto' "$work/stdout" || fail "--3d progress: $(cat "$work/stdout")"
grep -q '^timing_sweep: \[8/8\] 64 x 64 x 32 pass K=auto' "$work/stdout" || fail "--3d progress: $(cat "$work/stdout")"
[[ $(grep -c -- '--set grid.nx=48 --set grid.ny=24 --set grid.nz=10 ' "$FAKE_SIMAPP_JOURNAL") == 4 ]] ||
  fail "grid.ny not passed on: $(cat "$FAKE_SIMAPP_JOURNAL")"
/usr/bin/python3 - "$work/out4/sweep.csv" "$work/out4/runs" <<'PY' || fail "3-D CSV check failed"
import csv, os, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 24, f"{len(rows)} rows, expected 8 runs x 3 modes"
assert {(r["nx"], r["ny"], r["nz"], r["cells"]) for r in rows} == {("48", "24", "10", "11520"), ("64", "64", "32", "131072")}
assert os.path.isdir(os.path.join(sys.argv[2], "size_48x24x10_fine_kauto"))
PY
/usr/bin/python3 -c 'import csv, sys; assert {r["ny"] for r in csv.DictReader(open(sys.argv[1]))} == {"1"}' \
  "$work/out2/sweep.csv" || fail "a 2-D sweep's ny column is not 1"
: >"$FAKE_SIMAPP_JOURNAL"
"$sweep" --simapp "$fake_simapp" --out "$work/out5" --grid3d 8 6 4 --sizes-only >/dev/null 2>"$work/stderr" ||
  fail "--grid3d sweep exited $?: $(cat "$work/stderr")"
[[ $(grep -c -- '--set grid.nx=8 --set grid.ny=6 --set grid.nz=4 ' "$FAKE_SIMAPP_JOURNAL") == 4 ]] ||
  fail "--grid3d: $(cat "$FAKE_SIMAPP_JOURNAL")"
rm -f "$FAKE_SIMAPP_JOURNAL"
expect_usage_error "--grid3d needs three values" --grid3d 8 6
expect_usage_error "--grid3d needs three positive integers with NY > 1" --grid3d 8 1 4
echo "ok: --3d and --grid3d sweep the 3-D model: grid.ny passed on, NX x NY x NZ named, the ny column"
