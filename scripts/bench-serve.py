#!/usr/bin/env python3
"""`mapsnap serve` under load, against `mapsnap batch` on the same frames
and the same cores (`make bench-serve`, figures in BENCHMARKS.md):

1. throughput: N distinct frames of Examples/helsinki.json (256² thumbnails,
   then 1024² frames) drawn by `mapsnap batch --jobs P` (a manifest), and
   requested from the server by wrk (4 connections, every URL once: no
   cache hit); frames a second each, and their ratio (target: the
   server's ≥ 80 % of batch's);
2. latency: p50 and p99 of those wrk runs (a steady load of 4 connections
   on P render threads);
3. memory: the server's RSS after 10,000 and 100,000 requests of distinct
   thumbnails (128², every request a new frame) with the image cache
   bounded (--cache-mb 16, full after some 2,500 of them, so that the
   comparison is of a server in its steady state); target: within 10 %.

Usage: scripts/bench-serve.py path/to/mapsnap [--thumbs N] [--large N] [--memory N]
Needs: wrk (make serve-deps).
"""
import argparse, json, os, re, subprocess, sys, tempfile, time, urllib.request

from serve_harness import Server

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = os.path.join(ROOT, "Examples", "helsinki.json")
# Central Helsinki, where the example data is: frames spread over this box.
WEST, SOUTH, EAST, NORTH = 24.925, 60.160, 24.955, 60.175


def frames(n, zoom):
    """n distinct centres on a grid over the box (lon, lat), rounded to 6 decimals."""
    side = int(n ** 0.5) + 1
    out = []
    for i in range(n):
        x, y = i % side, i // side
        out.append((round(WEST + (EAST - WEST) * x / side, 6), round(SOUTH + (NORTH - SOUTH) * y / side, 6), zoom))
    return out


def start_server(exe, *args):
    s = Server(exe, *args)
    return s, s.port


def stop(server):
    server.stop()


def batch(exe, todo, size, jobs, work):
    manifest = os.path.join(work, "frames.jsonl")
    with open(manifest, "w") as f:
        for i, (lon, lat, zoom) in enumerate(todo):
            # The URL's zoom is MapLibre's: the scene format's is one more.
            f.write(json.dumps({"scene": SCENE, "output": os.path.join(work, "out", "%06d.png" % i),
                                "center": [lon, lat], "zoom": zoom + 1, "size": [size, size]}) + "\n")
    start = time.perf_counter()
    subprocess.run([exe, "batch", manifest, "--jobs", str(jobs), "--root", "/"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return len(todo) / (time.perf_counter() - start)


WRK_LIST = r"""
local paths = {}
for line in io.lines(os.getenv("MAPSNAP_URLS")) do paths[#paths + 1] = line end
local counter = 0
local threads = {}
function setup(thread)
  thread:set("first", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
function init(args)
  step = tonumber(os.getenv("MAPSNAP_THREADS"))
  i = first
  bad = 0
end
function request()
  i = i + step
  -- Every URL once; past the end, wrk is stopped by the caller.
  local p = paths[(i - 1) % #paths + 1]
  return wrk.format("GET", p)
end
function response(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end
function done(summary, latency, requests)
  local b = 0
  for _, t in ipairs(threads) do b = b + t:get("bad") end
  io.write(string.format("result %d %f %f %f %d\n", summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, b))
end
"""


def wrk_list(port, paths, connections, seconds, work):
    urls = os.path.join(work, "urls.txt")
    with open(urls, "w") as f:
        f.write("\n".join(paths) + "\n")
    script = os.path.join(work, "list.lua")
    with open(script, "w") as f:
        f.write(WRK_LIST)
    threads = 2
    env = dict(os.environ, MAPSNAP_URLS=urls, MAPSNAP_THREADS=str(threads))
    r = subprocess.run(["wrk", "-t%d" % threads, "-c%d" % connections, "-d%ds" % seconds, "--timeout", "60s", "-s", script,
                        "http://127.0.0.1:%d/" % port], capture_output=True, text=True, env=env)
    m = re.search(r"^result (\d+) ([\d.]+) ([\d.]+) ([\d.]+) (\d+)$", r.stdout, re.M)
    if not m:
        sys.exit("bench-serve: wrk printed no result:\n" + r.stdout + r.stderr)
    n, secs, p50, p99, bad = int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)), int(m.group(5))
    return n / secs, p50, p99, n, bad


def throughput(exe, name, n, size, zoom, jobs, work):
    todo = frames(n, zoom)
    batch_rate = batch(exe, todo, size, jobs, work)
    server, port = start_server(exe, "--cache-mb", "0", "--workers", str(jobs))
    try:
        paths = ["/helsinki/static/%r,%r,%r/%dx%d" % (lon, lat, z, size, size) for lon, lat, z in todo]
        # A warm-up of the scene and fonts, as batch's first frames have.
        urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, paths[0])).read()
        # Long enough for most of the list at the batch's rate, never repeating a frame.
        seconds = max(5, int(0.9 * n / batch_rate))
        rate, p50, p99, count, bad = wrk_list(port, paths[1:], 4, seconds, work)
    finally:
        stop(server)
    ratio = rate / batch_rate
    print("%-10s batch %7.1f frames/s   server %7.1f requests/s (%d, %d not 200)   ratio %.2f (target >= 0.80)   p50 %.1f ms   p99 %.1f ms"
          % (name, batch_rate, rate, count, bad, ratio, p50, p99))
    return {"batch": batch_rate, "server": rate, "ratio": ratio, "p50_ms": p50, "p99_ms": p99, "requests": count, "not200": bad}


WRK_DISTINCT = r"""
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
function init(args) n = 0 end
function request()
  n = n + 1
  -- A new frame each request: centres 1e-6 degrees apart, never repeated within 10^7 requests per thread.
  local k = id * 10000000 + n
  local lon = 24.925 + (k % 3000) * 0.00001
  local lat = 60.160 + math.floor(k / 3000) % 1500 * 0.00001 + id * 0.000001
  return wrk.format("GET", string.format("/helsinki/static/%.6f,%.6f,14/128x128", lon, lat))
end
"""


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M).group(1))


def requests_served(port):
    text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port).read().decode()
    return sum(int(float(v)) for v in re.findall(r'^mapsnap_requests_total\{status="\d+"\} ([\d.e+]+)$', text, re.M))


def memory(exe, total, work):
    server, port = start_server(exe, "--cache-mb", "16")
    # `mapsnap serve` execs mapsnap-server: the same process.
    pid = server.proc.pid
    script = os.path.join(work, "distinct.lua")
    with open(script, "w") as f:
        f.write(WRK_DISTINCT)
    load = subprocess.Popen(["wrk", "-t2", "-c4", "-d3600s", "--timeout", "60s", "-s", script, "http://127.0.0.1:%d/" % port],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    marks = {}
    start = time.perf_counter()
    try:
        checkpoints = [total // 10, total // 4, total // 2, total]
        while checkpoints:
            time.sleep(1)
            served = requests_served(port)
            if served >= checkpoints[0]:
                marks[checkpoints.pop(0)] = (served, rss_kib(pid))
                print("  after %d requests (%.0f s): RSS %.1f MiB" % (served, time.perf_counter() - start, marks[max(marks)][1] / 1024), flush=True)
    finally:
        load.terminate()
        load.wait()
        stop(server)
    (n1, r1), (n2, r2) = marks[total // 10], marks[total]
    growth = r2 / r1 - 1
    print("memory     RSS %.1f MiB after %d requests, %.1f MiB after %d: %+.1f %% (target within 10 %%)"
          % (r1 / 1024, n1, r2 / 1024, n2, 100 * growth))
    return {"rss_mib": {str(k): v[1] / 1024 for k, v in marks.items()}, "growth": growth, "seconds": time.perf_counter() - start}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mapsnap")
    ap.add_argument("--thumbs", type=int, default=3000)
    ap.add_argument("--large", type=int, default=300)
    ap.add_argument("--memory", type=int, default=100000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--json")
    a = ap.parse_args()
    exe = os.path.abspath(a.mapsnap)
    results = {}
    with tempfile.TemporaryDirectory() as work:
        results["thumbnails"] = throughput(exe, "256² thumb", a.thumbs, 256, 15, a.jobs, work)
        results["large"] = throughput(exe, "1024²", a.large, 1024, 14, a.jobs, work)
        if a.memory:
            results["memory"] = memory(exe, a.memory, work)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
