#!/usr/bin/env python3
"""The style benchmark's two halves, one table (`make bench-styles`, through run.sh).

  compare.py [--runs N] [--thumbs N] [--native-procs P] [--mapsnap PATH] [--out DIR] [--style STYLE]

MapLibre Native (native.py, pymgl 0.5.0 on Mesa llvmpipe) and mapsnap draw the same style over the
same tiles and the same frames (frames.py). Per frame: warm (in process, the frame drawn again
by a renderer that has drawn it before, PNG encoding included) and whole (median of N process
runs: start, style, tiles, render, PNG written). Thumbnails: N frames of 256x256 from one process
(`mapsnap batch` with `"style"` lines; Native with one Map per process), wall time, frames/s.
Targets (issues 39 and 40): mapsnap at most one fifth of Native's time, warm against warm and whole
against whole; thumbnails at least 300 frames/s. A half that fails prints `failed (message)` for
its cases and the other half still runs.

mapsnap's warm figure comes from `mapsnap-bench STYLE --size WxH --center LON,LAT --zoom Z --runs N`
(its `render` plus `encode` medians); until mapsnap-bench takes a style, that cell says TODO.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frames  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TARGET_RATIO = 0.2
TARGET_FPS = 300.0


def option(name, default=None):
    args = sys.argv[1:]
    return args[args.index(name) + 1] if name in args else default


def last_line(text):
    lines = [line.strip() for line in (text or "").strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no message"


class Failed(Exception):
    pass


def run_native(style, runs, thumbs, procs, out):
    summary = os.path.join(out, "native.json")
    if os.path.exists(summary):
        os.remove(summary)
    cmd = [sys.executable, os.path.join(HERE, "native.py"), "--bench", "--runs", str(runs), "--thumbs", str(thumbs),
           "--procs", str(procs), "--out", out, "--json", summary, "--style", style]
    r = subprocess.run(cmd, stdout=sys.stdout, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not os.path.exists(summary):
        raise Failed(last_line(r.stderr))
    with open(summary) as f:
        return json.load(f)


def frame_args(case):
    width, height, (lon, lat), zoom = frames.CASES[case]
    return ["--size", "%dx%d" % (width, height), "--center", "%r,%r" % (lon, lat), "--zoom", "%g" % zoom]


def mapsnap_whole(exe, style, case, runs, out):
    target = os.path.join(out, "mapsnap-%s.png" % case)
    cmd = [exe, style, "-o", target] + frame_args(case)
    r = subprocess.run(cmd, capture_output=True, text=True)  # untimed: checks the case, warms the file cache
    if r.returncode != 0:
        raise Failed(last_line(r.stderr or r.stdout))
    times = []
    for _ in range(runs):
        t = time.monotonic()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.monotonic() - t)
    return statistics.median(times) * 1000


def mapsnap_warm(bench_exe, style, case, runs):
    if not os.path.exists(bench_exe):
        raise Failed("TODO: no %s (make bench-styles builds it)" % os.path.relpath(bench_exe, frames.ROOT))
    r = subprocess.run([bench_exe, style, "--runs", str(runs)] + frame_args(case), capture_output=True, text=True)
    render = re.search(r"render ([0-9.]+) ms", r.stdout)
    encode = re.search(r"encode ([0-9.]+) ms", r.stdout)
    if r.returncode != 0 or not render or not encode:
        raise Failed("TODO: mapsnap-bench takes no style yet (%s)" % last_line(r.stdout + r.stderr))
    return float(render.group(1)) + float(encode.group(1))


def mapsnap_thumbnails(exe, style, thumbs, out):
    folder = os.path.join(out, "mapsnap-thumbs")
    shutil.rmtree(folder, ignore_errors=True)
    manifest = os.path.join(out, "mapsnap-thumbs.jsonl")
    with open(manifest, "w") as f:
        for n, ((lon, lat), zoom) in enumerate(frames.thumbnails(thumbs, frames.default_shared())):
            f.write(json.dumps({"style": style, "output": "mapsnap-thumbs/%04d.png" % n, "center": [lon, lat],
                                "zoom": zoom, "size": [frames.THUMB_SIZE, frames.THUMB_SIZE]}) + "\n")
    summary = os.path.join(out, "mapsnap-thumbs-summary.json")
    t = time.monotonic()
    r = subprocess.run([exe, "batch", manifest, "--quiet", "--summary", summary], cwd=out, capture_output=True, text=True)
    seconds = time.monotonic() - t
    if r.returncode != 0:
        lines = [line.strip() for line in (r.stderr or r.stdout).strip().splitlines() if line.strip()]
        first, last = (lines[0][:200], lines[-1][:200]) if lines else ("no message", "no message")
        raise Failed(first if first == last else "%s ... %s" % (first, last))
    return thumbs / seconds


def attempt(fn, *args):
    try:
        return fn(*args), None
    except Failed as e:
        return None, str(e)
    except (OSError, subprocess.CalledProcessError) as e:
        return None, str(e)


NOTES = []


def cell(value, error, unit="ms"):
    """A figure, or `failed [n]` / `TODO [n]` with its message as note n under the table."""
    if value is not None:
        return "%.1f %s" % (value, unit)
    todo = error.startswith("TODO")
    message = error[len("TODO: "):] if todo else error
    if message not in NOTES:
        NOTES.append(message)
    return "%s [%d]" % ("TODO" if todo else "failed", NOTES.index(message) + 1)


def ratio(mine, native):
    if mine is None or native is None:
        return "-"
    r = mine / native
    return "%.3f (%s)" % (r, "met" if r <= TARGET_RATIO else "not met")


def main():
    runs = int(option("--runs", "9"))
    thumbs = int(option("--thumbs", "1000"))
    procs = int(option("--native-procs", "1"))
    style = os.path.abspath(option("--style", frames.STYLE))
    out = os.path.abspath(option("--out", os.path.join(frames.ROOT, ".build/bench-styles")))
    exe = os.path.abspath(option("--mapsnap", os.path.join(frames.ROOT, ".build/release/mapsnap")))
    bench_exe = os.path.join(os.path.dirname(exe), "mapsnap-bench")
    os.makedirs(out, exist_ok=True)
    print("style benchmark: %s, %d runs, %d thumbnails, load average %s" % (
        os.path.relpath(style, frames.ROOT), runs, thumbs, " ".join("%.2f" % x for x in os.getloadavg())), flush=True)

    native, native_error = attempt(run_native, style, runs, thumbs, procs, out)
    rows = []
    for case, (width, height, _, zoom) in frames.CASES.items():
        n = native.get(case) if native else None
        if not os.path.exists(exe):
            whole, whole_error = None, "no %s (make build)" % os.path.relpath(exe, frames.ROOT)
        else:
            whole, whole_error = attempt(mapsnap_whole, exe, style, case, runs, out)
        warm, warm_error = attempt(mapsnap_warm, bench_exe, style, case, runs)
        n_warm, n_whole = (n["warm_ms"], n["whole_ms"]) if n else (None, None)
        rows.append(["%s %dx%d z%g" % (case, width, height, zoom),
                     cell(n_warm, native_error), cell(n_whole, native_error),
                     cell(warm, warm_error), cell(whole, whole_error),
                     ratio(warm, n_warm), ratio(whole, n_whole),
                     "<= 1/5 of Native" + (" (%.1f / %.1f ms)" % (n_warm * TARGET_RATIO, n_whole * TARGET_RATIO)
                                           if n else "")])
    if thumbs > 0:
        t = native.get("thumbnails") if native else None
        if not os.path.exists(exe):
            fps, fps_error = None, "no %s (make build)" % os.path.relpath(exe, frames.ROOT)
        else:
            fps, fps_error = attempt(mapsnap_thumbnails, exe, style, thumbs, out)
        rows.append(["%d thumbnails %dx%d" % (thumbs, frames.THUMB_SIZE, frames.THUMB_SIZE),
                     "-", cell(t["fps"] if t else None, native_error, "frames/s"),
                     "-", cell(fps, fps_error, "frames/s"), "-",
                     "-" if fps is None or not t else "%.2fx Native" % (fps / t["fps"]),
                     ">= %d frames/s%s" % (TARGET_FPS, "" if fps is None else " (%s)" % ("met" if fps >= TARGET_FPS else "not met"))])
    header = ["case", "Native warm", "Native whole", "mapsnap warm", "mapsnap whole", "warm ratio", "whole ratio", "target"]
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    print()
    for r in [header, ["-" * w for w in widths]] + rows:
        print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip())
    print()
    for n, message in enumerate(NOTES):
        print("[%d] %s" % (n + 1, message))
    if native:
        cpu = ["%s warm %.1f ms, whole %.1f ms" % (case, native[case]["warm_cpu_ms"], native[case]["whole_cpu_ms"])
               for case in frames.CASES if case in native]
        if native.get("thumbnails"):
            cpu.append("thumbnails %.2f s" % native["thumbnails"]["cpu_seconds"])
        print("Native CPU time (every thread, less inflated by a loaded machine): " + "; ".join(cpu))
    print("ratio = mapsnap time / Native time (thumbnails: mapsnap frames/s / Native's). Both draw every layer of")
    print("the style, labels and icons included, from the same glyph ranges and sprite (scripts/style-data/labels.sh).")
    print("Pictures: %s/{native,mapsnap}-*.png and *-thumbs/." % os.path.relpath(out, frames.ROOT))


if __name__ == "__main__":
    main()
