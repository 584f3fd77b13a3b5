#!/usr/bin/env python3
"""Batch benchmark (issue 10), one run, medians and ratios measured together:

1. throughput: 1,000 thumbnails (256x256, 1:4000, one per Helsinki POI,
   labels on, a marker on the POI) by `mapsnap batch --jobs 2`, against one
   process per image (`mapsnap scene.json ...` per thumbnail, two at a time
   on the 2 cores; timed on a sample of the same lines); and the same batch
   at the default --jobs against --jobs 1 (the default must be faster on
   an otherwise idle machine of more than one core);
2. dataset size: the same thumbnails over the Helsinki data and over that
   data repeated 20 times (shifted copies 1 degree apart, far off the
   frames): per-frame median from each batch's --summary;
3. memory: peak RSS of the 1,000-frame batch (GNU time).

Usage: scripts/bench-batch.py path/to/mapsnap [--frames 1000] [--runs 3]
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    exe = os.path.abspath(sys.argv[1])
    frames = int(sys.argv[sys.argv.index("--frames") + 1]) if "--frames" in sys.argv else 1000
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    work = tempfile.mkdtemp(prefix="mapsnap-bench-batch.")
    try:
        scene = os.path.join(ROOT, "Examples/helsinki.json")
        pois = json.load(open(os.path.join(ROOT, "Examples/data/helsinki_pois.geojson")))["features"]
        points = [p["geometry"]["coordinates"][:2] for p in pois if p["geometry"]["type"] == "Point"][:frames]
        big = make_repeated_scene(work, copies=20)

        def manifest(name, scene_path):
            path = os.path.join(work, name + ".jsonl")
            with open(path, "w") as f:
                for i, (lon, lat) in enumerate(points):
                    f.write(json.dumps({"scene": scene_path, "output": "%s/%04d.png" % (name, i), "center": [lon, lat],
                                        "scale": 4000, "size": [256, 256], "overlays": [{"marker": [lon, lat]}]}) + "\n")
            return path

        small_manifest = manifest("small", scene)
        big_manifest = manifest("big", big)

        def batch(path, name, jobs=["--jobs", "2"]):
            shutil.rmtree(os.path.join(work, name), ignore_errors=True)
            summary = os.path.join(work, name + "-summary.json")
            t = time.monotonic()
            r = subprocess.run(["/usr/bin/time", "-f", "%M", exe, "batch", path] + jobs + ["--quiet", "--summary", summary],
                               cwd=work, capture_output=True, text=True)
            wall = time.monotonic() - t
            if r.returncode != 0:
                sys.exit("batch failed: " + r.stderr[-2000:])
            rss_kb = int(r.stderr.strip().splitlines()[-1])
            s = json.load(open(summary))
            return wall, s["seconds"]["frameMedian"], rss_kb

        small = [batch(small_manifest, "small") for _ in range(runs)]
        # The default --jobs and --jobs 1, interleaved.
        default_jobs, one_job = [], []
        for _ in range(runs):
            default_jobs.append(batch(small_manifest, "small", jobs=[]))
            one_job.append(batch(small_manifest, "small", jobs=["--jobs", "1"]))
        bigs = [batch(big_manifest, "big") for _ in range(runs)]

        # One process per image, two at a time, on a sample of the lines.
        sample = points[: min(len(points), 200)]
        def per_process():
            os.makedirs(os.path.join(work, "single"), exist_ok=True)
            cmds = []
            for i, (lon, lat) in enumerate(sample):
                cmds.append([exe, scene, "--center", "%r,%r" % (lon, lat), "--scale", "4000", "--size", "256x256",
                             "--marker", "%r,%r" % (lon, lat), "-o", "single/%04d.png" % i])
            t = time.monotonic()
            running = []
            for c in cmds:
                running.append(subprocess.Popen(c, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                if len(running) == 2:
                    running.pop(0).wait()
            for p in running:
                p.wait()
            return len(cmds) / (time.monotonic() - t)
        single_rates = [per_process() for _ in range(runs)]

        batch_rate = statistics.median(len(points) / w for w, _, _ in small)
        single_rate = statistics.median(single_rates)
        small_frame = statistics.median(m for _, m, _ in small)
        big_frame = statistics.median(m for _, m, _ in bigs)
        rss = max(r for _, _, r in small) / 1024
        print("batch: %d thumbnails 256x256 at 1:4000 with a marker, --jobs 2, median of %d runs" % (len(points), runs))
        print("  batch                  %8.1f frames/s" % batch_rate)
        print("  one process per image  %8.1f frames/s   (2 at a time, %d-image sample)" % (single_rate, len(sample)))
        print("  ratio                  %8.1fx          target >= 10x" % (batch_rate / single_rate))
        default_rate = statistics.median(len(points) / w for w, _, _ in default_jobs)
        one_rate = statistics.median(len(points) / w for w, _, _ in one_job)
        print("  default --jobs         %8.1f frames/s" % default_rate)
        print("  --jobs 1               %8.1f frames/s   default / --jobs 1 %.2fx, target > 1" % (one_rate, default_rate / one_rate))
        print("  frame median, Helsinki data      %6.2f ms" % (small_frame * 1000))
        print("  frame median, data x20 (shifted) %6.2f ms   ratio %.2fx, target <= 1.5x" % (big_frame * 1000, big_frame / small_frame))
        print("  peak RSS of the batch            %6.0f MB   target < 300 MB" % rss)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def make_repeated_scene(work, copies):
    """helsinki.json with every source file holding `copies` copies of its
    features, copy k shifted k degrees east (far off any frame)."""
    scene = json.load(open(os.path.join(ROOT, "Examples/helsinki.json")))
    os.makedirs(os.path.join(work, "data20"), exist_ok=True)
    done = {}
    for layer in scene["layers"]:
        src = layer.get("source", {})
        if "geojson" not in src:
            continue
        name = src["geojson"]
        if name not in done:
            data = json.load(open(os.path.join(ROOT, "Examples", name)))
            out = []
            for k in range(copies):
                for f in data["features"]:
                    g = json.loads(json.dumps(f))
                    g["geometry"] = shift(g["geometry"], k * 1.0) if g.get("geometry") else None
                    out.append(g)
            data["features"] = out
            target = os.path.join(work, "data20", os.path.basename(name))
            json.dump(data, open(target, "w"))
            done[name] = target
        src["geojson"] = done[name]
    path = os.path.join(work, "helsinki-x20.json")
    json.dump(scene, open(path, "w"))
    return path


def shift(geometry, dx):
    def walk(c):
        if isinstance(c[0], (int, float)):
            return [c[0] + dx] + list(c[1:])
        return [walk(x) for x in c]
    if geometry["type"] == "GeometryCollection":
        geometry["geometries"] = [shift(g, dx) for g in geometry["geometries"]]
    else:
        geometry["coordinates"] = walk(geometry["coordinates"])
    return geometry


if __name__ == "__main__":
    main()
