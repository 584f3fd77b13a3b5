#!/usr/bin/env python3
"""MapLibre Native's half of the style benchmark (`make bench-styles`): pymgl 0.5.0 on Mesa.

  native.py --bench [--runs N] [--thumbs N] [--procs P] [--out DIR] [--json FILE] [--style STYLE]
      issue 39's figures: for each frame of frames.CASES the warm time (median of N renderPNG
      calls on one Map after two warm-up renders; also renderBuffer, without the PNG encoding)
      and the whole-process time (median of N runs of `native.py --once`), each also as CPU time
      (user + system of every thread, which a loaded machine inflates less); then N thumbnails
      (256x256, frames.thumbnails) by P processes, wall time from process start to the last PNG
      written. Writes DIR/native-CASE.png and DIR/native-thumbs/NNNN.png to look at.
  native.py --once CASE -o OUT.png [--style STYLE]
      one frame in this process: import, map, render, PNG written (what --bench times whole).
  native.py --thumbs-run FIRST STEP COUNT DIR [--style STYLE]
      thumbnails FIRST, FIRST+STEP, ... of COUNT into DIR (one worker of --bench's thumbnails).

What Native reads here differs from the style only where pymgl 0.5.0 cannot read the style's form,
never in what is drawn (native_style):
  - mbtiles://RELATIVE becomes mbtiles:///ABSOLUTE (pymgl takes absolute paths only);
  - pmtiles:// becomes the MBTiles of the same name (the same tiles; this MapLibre Native has no
    PMTiles source);
  - relative `tiles` templates become file:/// URLs;
  - relative `glyphs` and `sprite` URLs become file:/// URLs.
Needs EGL_PLATFORM=surfaceless (set here unless given) and Mesa's EGL (make bench-styles-deps).
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import time

os.environ.setdefault("EGL_PLATFORM", "surfaceless")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import frames  # noqa: E402


def option(name, default=None):
    args = sys.argv[1:]
    return args[args.index(name) + 1] if name in args else default


def absolute(url_path, base):
    return os.path.normpath(os.path.join(base, url_path))


def native_style(path):
    """The style as pymgl 0.5.0 reads it (see the module's notes), as a JSON string."""
    with open(path, encoding="utf-8") as f:
        style = json.load(f)
    base = os.path.dirname(os.path.abspath(path))
    for source in style.get("sources", {}).values():
        url = source.get("url", "")
        if url.startswith("mbtiles://") and not url.startswith("mbtiles:///"):
            source["url"] = "mbtiles://" + absolute(url[len("mbtiles://"):], base)
        elif url.startswith("pmtiles://"):
            rest = url[len("pmtiles://"):]
            local = rest if rest.startswith("/") else absolute(rest, base)
            source["url"] = "mbtiles://" + os.path.splitext(local)[0] + ".mbtiles"
        if "tiles" in source:
            source["tiles"] = [t if "://" in t else "file://" + absolute(t, base) for t in source["tiles"]]
    for key in ("glyphs", "sprite"):
        if key in style and "://" not in style[key]:
            style[key] = "file://" + absolute(style[key], base)
    return json.dumps(style)


def new_map(style_json, width, height, center, zoom):
    import pymgl
    return pymgl.Map(style_json, width, height, 1, center[0], center[1], zoom)


def once(style_path):
    case, out = sys.argv[sys.argv.index("--once") + 1], option("-o")
    width, height, center, zoom = frames.CASES[case]
    with new_map(native_style(style_path), width, height, center, zoom) as m:
        png = m.renderPNG()
    with open(out, "wb") as f:
        f.write(png)


def thumbs_run(style_path):
    i = sys.argv.index("--thumbs-run")
    first, step, count, folder = int(sys.argv[i + 1]), int(sys.argv[i + 2]), int(sys.argv[i + 3]), sys.argv[i + 4]
    views = frames.thumbnails(count, frames.default_shared())
    size = frames.THUMB_SIZE
    with new_map(native_style(style_path), size, size, views[0][0], views[0][1]) as m:
        for n in range(first, count, step):
            (lon, lat), zoom = views[n]
            m.setCenter(lon, lat)
            m.setZoom(zoom)
            with open(os.path.join(folder, "%04d.png" % n), "wb") as f:
                f.write(m.renderPNG())


def ms(seconds):
    return round(seconds * 1000, 1)


def cpu_seconds(who):
    """User plus system time of this process's threads (RUSAGE_SELF) or its waited-for children."""
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def bench(style_path):
    runs = int(option("--runs", "9"))
    thumbs = int(option("--thumbs", "1000"))
    procs = int(option("--procs", "1"))
    out = os.path.abspath(option("--out", os.path.join(frames.ROOT, ".build/bench-styles")))
    os.makedirs(out, exist_ok=True)
    style_json = native_style(style_path)
    results = {"style": os.path.relpath(os.path.abspath(style_path), frames.ROOT), "runs": runs}
    me = os.path.abspath(__file__)
    env = dict(os.environ)
    for case, (width, height, center, zoom) in frames.CASES.items():
        t = time.monotonic()
        with new_map(style_json, width, height, center, zoom) as m:
            png = m.renderPNG()
            first = time.monotonic() - t
            m.renderPNG()
            warm, warm_cpu, warm_buffer = [], [], []
            for _ in range(runs):
                t, c = time.monotonic(), cpu_seconds(resource.RUSAGE_SELF)
                m.renderPNG()
                warm.append(time.monotonic() - t)
                warm_cpu.append(cpu_seconds(resource.RUSAGE_SELF) - c)
                t = time.monotonic()
                m.renderBuffer()
                warm_buffer.append(time.monotonic() - t)
        with open(os.path.join(out, "native-%s.png" % case), "wb") as f:
            f.write(png)
        whole, whole_cpu = [], []
        for _ in range(runs):
            target = os.path.join(out, "native-%s-once.png" % case)
            t, c = time.monotonic(), cpu_seconds(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, me, "--once", case, "-o", target, "--style", style_path],
                           check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            whole.append(time.monotonic() - t)
            whole_cpu.append(cpu_seconds(resource.RUSAGE_CHILDREN) - c)
        results[case] = {"size": [width, height], "center": list(center), "zoom": zoom,
                         "first_ms": ms(first), "warm_ms": ms(statistics.median(warm)),
                         "warm_buffer_ms": ms(statistics.median(warm_buffer)),
                         "whole_ms": ms(statistics.median(whole)),
                         "warm_cpu_ms": ms(statistics.median(warm_cpu)),
                         "whole_cpu_ms": ms(statistics.median(whole_cpu))}
        r = results[case]
        print("native %-9s %dx%d z%g: warm %.1f ms (CPU %.1f; without PNG encoding %.1f), whole process %.1f ms "
              "(CPU %.1f), first render %.1f ms" % (case, width, height, zoom, r["warm_ms"], r["warm_cpu_ms"],
                                                    r["warm_buffer_ms"], r["whole_ms"], r["whole_cpu_ms"],
                                                    r["first_ms"]), flush=True)
    if thumbs > 0:
        folder = os.path.join(out, "native-thumbs")
        os.makedirs(folder, exist_ok=True)
        t, c = time.monotonic(), cpu_seconds(resource.RUSAGE_CHILDREN)
        workers = [subprocess.Popen([sys.executable, me, "--thumbs-run", str(p), str(procs), str(thumbs), folder,
                                     "--style", style_path], env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for p in range(procs)]
        codes = [w.wait() for w in workers]
        seconds = time.monotonic() - t
        cpu = cpu_seconds(resource.RUSAGE_CHILDREN) - c
        if any(codes):
            sys.exit("native thumbnails failed: exit codes %s" % codes)
        results["thumbnails"] = {"frames": thumbs, "size": frames.THUMB_SIZE, "procs": procs,
                                 "seconds": round(seconds, 3), "fps": round(thumbs / seconds, 1),
                                 "cpu_seconds": round(cpu, 3)}
        print("native thumbnails: %d frames %dx%d by %d process(es) in %.2f s (CPU %.2f s), %.1f frames/s"
              % (thumbs, frames.THUMB_SIZE, frames.THUMB_SIZE, procs, seconds, cpu, thumbs / seconds), flush=True)
    if option("--json"):
        with open(option("--json"), "w") as f:
            json.dump(results, f, indent=2)
            f.write("\n")
    return results


def main():
    style_path = option("--style", frames.STYLE)
    if "--once" in sys.argv:
        once(style_path)
    elif "--thumbs-run" in sys.argv:
        thumbs_run(style_path)
    elif "--bench" in sys.argv:
        bench(style_path)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
