#!/usr/bin/env bash
# scripts/with_mps.sh against a stand-in control program that keeps a journal: the daemon is
# started with the user's own pipe and log directories, the command sees them, the daemon is
# stopped and the directories removed after the command, whether it succeeds, fails or is
# stopped by SIGTERM; the command's exit status comes through; an existing daemon is reused;
# a missing control program is a clear error.
set -euo pipefail
source_dir=$1
with_mps=$source_dir/scripts/with_mps.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work/tmp JOURNAL=$work/journal
mkdir "$TMPDIR"
unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The stand-in: `-d` opens the control pipe and returns, as the real daemon does; `quit` on
# standard input closes it.
cat >"$work/fake-mps-control" <<'FAKE'
#!/usr/bin/env bash
if [[ ${1:-} == -d ]]; then
  mkfifo "$CUDA_MPS_PIPE_DIRECTORY/control"
  echo "start $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY" >>"$JOURNAL"
else
  read -r request
  echo "$request" >>"$JOURNAL"
  [[ $request == quit ]] && rm -f "$CUDA_MPS_PIPE_DIRECTORY/control"
fi
FAKE
chmod +x "$work/fake-mps-control"
export NVIDIA_MPS_CONTROL=$work/fake-mps-control

# 1. A command that succeeds sees the daemon's pipe in directories only the user can enter.
NVIDIA_MPS_CONTROL=$NVIDIA_MPS_CONTROL "$with_mps" bash -c '
  [[ -p $CUDA_MPS_PIPE_DIRECTORY/control ]] || exit 11
  [[ $(stat -c "%a %u" "$CUDA_MPS_PIPE_DIRECTORY") == "700 $(id -u)" ]] || exit 12
  [[ $(stat -c "%a %u" "$CUDA_MPS_LOG_DIRECTORY") == "700 $(id -u)" ]] || exit 13
  echo "$CUDA_MPS_PIPE_DIRECTORY" > "$TMPDIR/../seen"' 2>"$work/stderr" || fail "command under MPS exited $? ($(cat "$work/stderr"))"
grep -q '^with_mps: MPS daemon started' "$work/stderr" || fail "no start line: $(cat "$work/stderr")"
[[ $(cut -d' ' -f1 "$JOURNAL" | paste -sd,) == start,quit ]] || fail "journal $(cat "$JOURNAL")"
[[ -z $(ls -A "$TMPDIR") ]] || fail "left behind: $(ls -A "$TMPDIR")"
echo "ok: daemon started in user-owned directories, stopped after the command, nothing left"

# 2. The command's failure is the script's, and the daemon is still stopped.
: >"$JOURNAL"
status=0
"$with_mps" bash -c 'exit 3' 2>/dev/null || status=$?
((status == 3)) || fail "exit status $status, expected 3"
[[ $(cut -d' ' -f1 "$JOURNAL" | paste -sd,) == start,quit ]] || fail "journal after failure $(cat "$JOURNAL")"
echo "ok: exit status 3 passed through, daemon stopped"

# 3. SIGTERM (a job's time limit) reaches the command, and the daemon is stopped.
: >"$JOURNAL"
# The command ends by itself after 20 s, so that a wrapper that fails to pass the signal on
# leaves nothing running.
"$with_mps" bash -c 'trap "exit 42" TERM; touch "$TMPDIR/../running"; for _ in $(seq 400); do sleep 0.05; done' 2>/dev/null &
wrapper=$!
for _ in $(seq 200); do [[ -e $work/running ]] && break; sleep 0.05; done
[[ -e $work/running ]] || fail "the command never started"
kill -TERM "$wrapper"
status=0
wait "$wrapper" || status=$?
((status == 42)) || fail "after SIGTERM exit status $status, expected the command's 42"
[[ $(cut -d' ' -f1 "$JOURNAL" | paste -sd,) == start,quit ]] || fail "journal after SIGTERM $(cat "$JOURNAL")"
[[ -z $(ls -A "$TMPDIR") ]] || fail "left behind after SIGTERM: $(ls -A "$TMPDIR")"
echo "ok: SIGTERM passed to the command (exit 42), daemon stopped"

# 4. A daemon that already serves the job is used as it is.
: >"$JOURNAL"
mkdir -p "$work/site-mps" && mkfifo "$work/site-mps/control"
CUDA_MPS_PIPE_DIRECTORY=$work/site-mps "$with_mps" bash -c '[[ $CUDA_MPS_PIPE_DIRECTORY == '"$work"'/site-mps ]]' \
  2>"$work/stderr" || fail "command under the existing daemon failed"
[[ ! -s $JOURNAL ]] || fail "started a second daemon: $(cat "$JOURNAL")"
grep -q 'already serves' "$work/stderr" || fail "no line about the existing daemon"
echo "ok: an existing daemon is reused"

# 5. Without the control program: exit 127 and a one-line error.
status=0
NVIDIA_MPS_CONTROL=$work/no-such-control "$with_mps" true 2>"$work/stderr" || status=$?
((status == 127)) || fail "missing control program gave $status"
[[ $(wc -l <"$work/stderr") == 1 ]] && grep -q "^with_mps: error: .*no-such-control not found" "$work/stderr" ||
  fail "error line: $(cat "$work/stderr")"
echo "ok: missing control program: $(cat "$work/stderr")"
