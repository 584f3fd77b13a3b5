#!/usr/bin/env python3
"""Print-size frames and scaling across cores (issue 13, parts 3 and 5), one run:

1. print-size frames: Benchmarks/scenes/helsinki-2000.json at 1024x1024
   (1:2000), 16384x16384 at 1:125 (the same area at 16x the pixels) and
   32768x32768 at 1:62.5 and at 1:125: wall time, ms per megapixel and peak
   RSS (GNU time's maximum resident set size) of the whole process;
2. scaling: 8192x8192 at 1:250 with --threads 1 and --threads 2 (and more
   when the machine has them), the speed-up of the median and the serial
   fraction it implies (Amdahl: S = 1 / (f + (1 - f) / n), so
   f = (n / S - 1) / (n - 1)); the planning alone (`mapsnap explain`, which
   resolves, places text and builds the display list but draws nothing) is
   timed beside it.

Runs are interleaved, and each starts only once the CPUs have been idle for
half a second (the machines are shared with other builds); the load average
is printed before and after. The previous run's PNG is removed before each
run, outside the timing: replacing a file of several MB costs the kernel
3-4 ms of freeing its pages, in the rename, which is not the renderer's.

Usage: scripts/bench-big-frames.py path/to/mapsnap [--runs 3] [--skip-32k]
"""
import os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = os.path.join(ROOT, "Benchmarks/scenes/helsinki-2000.json")


def busy():
    v = list(map(int, open("/proc/stat").readline().split()[1:]))
    return sum(v) - v[3] - v[4], sum(v)


def wait_until_idle(limit=120.0):
    """Waits (at most `limit` s) until the CPUs were 97 % idle for half a
    second: the machine is shared, and a run beside another process's build
    measures that build."""
    end = time.time() + limit
    while time.time() < end:
        b0, t0 = busy()
        time.sleep(0.5)
        b1, t1 = busy()
        if (b1 - b0) <= 0.03 * max(1, t1 - t0):
            return
    print("  (the machine did not become idle; measuring anyway)", file=sys.stderr)


def timed(cmd):
    """(wall seconds, peak RSS in MB) of one run under GNU time, started
    when the machine is idle, its output (after -o) removed first."""
    if "-o" in cmd and os.path.exists(cmd[cmd.index("-o") + 1]):
        os.remove(cmd[cmd.index("-o") + 1])
    wait_until_idle()
    # Wall time measured here (GNU time's %e counts in hundredths of a
    # second); GNU time for the peak RSS.
    start = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr}")
    rss = r.stderr.strip().splitlines()[-1]
    return wall, int(rss) / 1024


def load():
    return open("/proc/loadavg").read().split()[0]


def main():
    exe = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    out = tempfile.mkdtemp(prefix="mapsnap-bench-big.")
    png = os.path.join(out, "frame.png")
    print(f"load average before: {load()}")
    frames = [("1024x1024", "2000"), ("16384x16384", "125")]
    if "--skip-32k" not in sys.argv:
        frames += [("32768x32768", "62.5"), ("32768x32768", "125")]
    samples = {f: [] for f in frames}
    for _ in range(runs):
        for size, scale in frames:
            samples[(size, scale)].append(timed([exe, SCENE, "--size", size, "--scale", scale, "-o", png]))
    print("\n| frame | scale | wall s (median) | ms per megapixel | peak RSS MB (max) |")
    print("|---|---|---|---|---|")
    for (size, scale), s in samples.items():
        w, h = map(int, size.split("x"))
        wall = statistics.median(t for t, _ in s)
        print(f"| {size} | 1:{scale} | {wall:.2f} | {wall * 1000 / (w * h / 1e6):.1f} | {max(r for _, r in s):.0f} |")

    cores = os.cpu_count() or 1
    counts = [n for n in (1, 2, 4, 8, 16) if n <= cores]
    scaling = {n: [] for n in counts}
    plan = []
    for _ in range(runs):
        for n in counts:
            scaling[n].append(timed([exe, SCENE, "--size", "8192x8192", "--scale", "250", "--threads", str(n), "-o", png]))
        plan.append(timed([exe, "explain", SCENE, "--size", "8192x8192", "--scale", "250"]))
    base = statistics.median(t for t, _ in scaling[1])
    print("\n| threads | wall s (median of %d) | speed-up | serial fraction f | peak RSS MB |" % runs)
    print("|---|---|---|---|---|")
    for n in counts:
        wall = statistics.median(t for t, _ in scaling[n])
        s = base / wall
        f = "" if n == 1 else f"{(n / s - 1) / (n - 1):.2f}"
        print(f"| {n} | {wall:.3f} | {s:.2f}x | {f} | {max(r for _, r in scaling[n]):.0f} |")
    print(f"\nplanning alone (mapsnap explain): {statistics.median(t for t, _ in plan):.3f} s")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
