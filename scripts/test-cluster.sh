#!/usr/bin/env bash
# The batch shards on real engines (issue 10): a one-node Slurm cluster on
# localhost runs a manifest as an array job (`sbatch --array`, one shard per
# task), and GNU parallel runs the same shards; both must write exactly the
# files of a one-process run, byte for byte, each line once, and a failing
# line must make the engine's exit status say so.
#
# Usage: scripts/test-cluster.sh [path/to/mapsnap]   (root; `make test-cluster`)
# Needs: slurmctld slurmd slurm-client munge parallel (`make cluster-deps`).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MAPSNAP=$(realpath "${1:-.build/release/mapsnap}")
SHARDS=4
FRAMES=14

fail() { echo "test-cluster: FAIL: $*" >&2; exit 1; }
step() { echo "test-cluster: $*"; }

[ -x "$MAPSNAP" ] || fail "no mapsnap binary at $MAPSNAP (make build)"
for tool in sbatch slurmctld slurmd munged parallel; do
  command -v "$tool" >/dev/null || fail "$tool is missing (make cluster-deps)"
done
[ "$(id -u)" = 0 ] || fail "run as root: munged and slurmd are started here"

WORK=$(mktemp -d /tmp/mapsnap-cluster.XXXXXX)
PIDS=()
STARTED_MUNGE=0
cleanup() {
  for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  if [ "$STARTED_MUNGE" = 1 ] && [ -f /run/munge/munged.pid ]; then kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "test-cluster: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# --- the manifest: thumbnails around Helsinki POIs, each with a marker ------
python3 - "$ROOT" "$WORK" "$FRAMES" <<'PY'
import json, sys
root, work, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
pois = json.load(open(root + "/Examples/data/helsinki_pois.geojson"))["features"]
step = max(1, len(pois) // frames)
with open(work + "/jobs.jsonl", "w") as f:
    for i in range(frames):
        lon, lat = pois[i * step]["geometry"]["coordinates"][:2]
        f.write(json.dumps({"scene": root + "/Examples/helsinki.json", "output": "out/%02d.png" % i,
                            "center": [lon, lat], "scale": 4000, "size": [128, 128],
                            "overlays": [{"marker": [lon, lat]}]}) + "\n")
        if i == 5:
            f.write("\n")  # a blank line: skipped, but counted in the shard index
with open(work + "/failing.jsonl", "w") as f:
    f.write(open(work + "/jobs.jsonl").read().replace('"out/', '"fail/'))
    f.write(json.dumps({"scene": "no-such-scene.json", "output": "fail/bad.png"}) + "\n")
PY

step "one process: the reference"
(cd "$WORK" && "$MAPSNAP" batch jobs.jsonl --quiet && mv out reference) || fail "the one-process run failed"
[ "$(ls "$WORK/reference" | wc -l)" = "$FRAMES" ] || fail "the reference has $(ls "$WORK/reference" | wc -l) files, not $FRAMES"

# Every file of the reference, byte for byte, and nothing else.
compare() {
  local dir=$1 what=$2
  diff <(cd "$WORK/reference" && ls) <(cd "$dir" && ls) >/dev/null || fail "$what: not the files of the one-process run"
  for f in "$WORK"/reference/*; do cmp -s "$f" "$dir/$(basename "$f")" || fail "$what: $(basename "$f") differs"; done
  step "$what: $FRAMES files, byte-identical to the one-process run"
}

# Each line exactly once: the shards' summaries add up to the manifest, and
# each shard rendered exactly the lines whose index is its number modulo N.
check_once() {
  local what=$1
  python3 - "$WORK" "$SHARDS" "$what" <<'PY' || fail "$what: a line was not rendered exactly once"
import json, sys
work, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = [i for i, l in enumerate(open(work + "/jobs.jsonl")) if l.strip()]
total = 0
for i in range(n):
    s = json.load(open("%s/summary-%s-%d.json" % (work, what, i)))
    expected = sum(1 for k in lines if k % n == i)
    assert s["frames"]["rendered"] == expected, (i, s["frames"], expected)
    assert s["shard"] == "%d/%d" % (i, n)
    total += s["frames"]["rendered"]
assert total == len(lines), (total, len(lines))
PY
  step "$what: each line rendered once ($SHARDS shards)"
}

# --- a one-node Slurm cluster ------------------------------------------------
step "starting munge and a one-node Slurm cluster"
install -d -o munge -g munge -m 0755 /run/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged
  STARTED_MUNGE=1
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
fi
munge -n | unmunge >/dev/null || fail "munge does not answer"
NODE=$(hostname -s)
mkdir -p "$WORK/slurm/state" "$WORK/slurm/spool"
cat > "$WORK/slurm/slurm.conf" <<CONF
ClusterName=mapsnap-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$WORK/slurm/state
SlurmdSpoolDir=$WORK/slurm/spool
SlurmctldPidFile=$WORK/slurm/slurmctld.pid
SlurmdPidFile=$WORK/slurm/slurmd.pid
SlurmctldLogFile=$WORK/slurm/slurmctld.log
SlurmdLogFile=$WORK/slurm/slurmd.log
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=batch Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$WORK/slurm/slurm.conf
slurmctld -D -f "$SLURM_CONF" >/dev/null 2>&1 & PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >/dev/null 2>&1 & PIDS+=($!)
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.2; done
sinfo -h -o %T | grep -q idle || { tail -5 "$WORK/slurm/slurmctld.log" "$WORK/slurm/slurmd.log" >&2; fail "the Slurm node is not idle"; }

# The array job: one task per shard, as docs/guide-batch.md shows.
cat > "$WORK/shard.sbatch" <<JOB
#!/bin/bash
#SBATCH --job-name=mapsnap-batch
#SBATCH --output=$WORK/slurm-%A_%a.log
exec "$MAPSNAP" batch "\$MANIFEST" --shard "\$SLURM_ARRAY_TASK_ID/$SHARDS" --jobs 1 --quiet \
  --summary "$WORK/summary-\$RUN-\$SLURM_ARRAY_TASK_ID.json"
JOB

step "Slurm array job (sbatch --array=0-$((SHARDS - 1)) --wait)"
(cd "$WORK" && MANIFEST=jobs.jsonl RUN=slurm sbatch --quiet --wait --array=0-$((SHARDS - 1)) shard.sbatch) \
  || { cat "$WORK"/slurm-*.log >&2 || true; fail "the array job failed"; }
compare "$WORK/out" "Slurm"
check_once slurm
rm -rf "$WORK/out"

step "Slurm array job with a failing line"
if (cd "$WORK" && MANIFEST=failing.jsonl RUN=slurmfail sbatch --quiet --wait --array=0-$((SHARDS - 1)) shard.sbatch); then
  fail "the array job's exit status did not report the failing line"
fi
grep -q "error: no-such-scene.json: no such file" "$WORK"/slurm-*.log || fail "no task log names the failing line"
compare "$WORK/fail" "Slurm (the other lines of the failing manifest)"
rm -rf "$WORK/fail"

# --- GNU parallel ------------------------------------------------------------
step "GNU parallel (one shard per job)"
(cd "$WORK" && parallel --will-cite --halt never "$MAPSNAP" batch jobs.jsonl --shard {}/$SHARDS --jobs 1 --quiet \
  --summary summary-parallel-{}.json ::: $(seq 0 $((SHARDS - 1)))) || fail "GNU parallel failed"
compare "$WORK/out" "GNU parallel"
check_once parallel

step "GNU parallel with a failing line"
status=0
(cd "$WORK" && parallel --will-cite --halt never "$MAPSNAP" batch failing.jsonl --shard {}/$SHARDS --jobs 1 --quiet \
  ::: $(seq 0 $((SHARDS - 1)))) 2>"$WORK/parallel-fail.log" || status=$?
[ "$status" = 1 ] || fail "GNU parallel's exit status is $status, expected 1 (one shard failed)"
compare "$WORK/fail" "GNU parallel (the other lines of the failing manifest)"

step "passed"
