#!/usr/bin/env python3
"""Whole-process time of mapsnap beside /bin/true (issue 13's start-up target).

    scripts/bench-startup.py .build/release/mapsnap [--runs 200]

Runs, interleaved so that machine noise hits each alike, /bin/true,
`mapsnap --version`, mapsnap on Benchmarks/scenes/empty-16.json (a 16x16
frame with no layers: start-up, parsing, planning and a 182-byte PNG) and
the whole process on the peer scenes; prints medians in ms. The target
is empty-16 within 3x /bin/true + 2 ms.
"""
import argparse, os, statistics, subprocess, tempfile, time

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("--runs", type=int, default=200)
args = ap.parse_args()
binary = os.path.abspath(args.binary)
out = os.path.join(tempfile.mkdtemp(), "out.png")
scenes = "Benchmarks/scenes"
cases = [
    ("/bin/true", ["/bin/true"], args.runs),
    ("mapsnap --version", [binary, "--version"], args.runs),
    ("empty-16", [binary, f"{scenes}/empty-16.json", "-o", out], args.runs),
    ("world", [binary, f"{scenes}/world.json", "-o", out], max(5, args.runs // 10)),
    ("helsinki-8000", [binary, f"{scenes}/helsinki-8000.json", "-o", out], max(5, args.runs // 10)),
    ("nyc-250000", [binary, f"{scenes}/nyc-250000.json", "-o", out], max(5, args.runs // 10)),
]
times = {name: [] for name, _, _ in cases}
for i in range(args.runs):
    for name, cmd, n in cases:
        if i >= n:
            continue
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times[name].append((time.perf_counter() - t) * 1000)
true_ms = statistics.median(times["/bin/true"])
print(f"whole process, medians of interleaved runs (ms)")
for name, _, _ in cases:
    print(f"  {name:18} {statistics.median(times[name]):8.2f}  ({len(times[name])} runs)")
empty = statistics.median(times["empty-16"])
print(f"  empty-16 target: 3 x /bin/true + 2 = {3 * true_ms + 2:.2f} ms -> {'met' if empty <= 3 * true_ms + 2 else 'missed'}")
