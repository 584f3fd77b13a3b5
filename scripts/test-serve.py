#!/usr/bin/env python3
"""`mapsnap serve` tested as users run it: the release binaries, a real
HTTP server on loopback, real clients (`make test-serve`, a CI step).

1. the README's example URLs answer 200 with an image of the asked format
   and size;
2. bad URLs, bodies and methods get the documented status (docs/serve.md),
   as JSON naming the bad part; ETag and 304; POST bodies; /health,
   /metrics, /scenes;
3. a fuzz of URLs and bodies (mutations of good ones, seeded): no 5xx other
   than 503, and the server still answers;
4. overload: wrk with 64 connections against a queue of 4 for a fixed
   time, distinct 1024² frames: only 200 and 503, no socket error;
5. SIGTERM while a large frame is drawn: the frame is answered 200, the
   server exits 0 and then refuses connections;
6. nginx (docs/serve/nginx.conf) in front, on loopback: a second request
   is a cache HIT with the same bytes, errors are not cached;
7. the Kubernetes manifests (docs/serve/k8s.yaml) pass kubernetes-validate,
   and the systemd unit (docs/serve/mapsnap.service) passes
   systemd-analyze verify when systemd is there;
8. the preview page at / in headless Chromium (scripts/test-serve-browser.py).

Usage: scripts/test-serve.py path/to/mapsnap [--skip-browser]
Needs: wrk, nginx, chromium (make serve-deps), kubernetes-validate and selenium (PyPI).
"""
import http.client, json, os, random, re, shutil, signal, socket, struct, subprocess, sys, tempfile, threading, time, urllib.parse

from serve_harness import Server, free_port

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def image_size(body):
    """(format, width, height) of a PNG, JPEG or WebP."""
    if body[:8] == b"\x89PNG\r\n\x1a\n":
        return ("png",) + struct.unpack(">II", body[16:24])
    if body[:4] == b"RIFF" and body[8:12] == b"WEBP":
        kind = body[12:16]
        if kind == b"VP8X":
            return ("webp", 1 + int.from_bytes(body[24:27], "little"), 1 + int.from_bytes(body[27:30], "little"))
        if kind == b"VP8L":
            b = int.from_bytes(body[21:25], "little")
            return ("webp", 1 + (b & 0x3FFF), 1 + ((b >> 14) & 0x3FFF))
        return ("webp", int.from_bytes(body[26:28], "little") & 0x3FFF, int.from_bytes(body[28:30], "little") & 0x3FFF)
    if body[:2] == b"\xff\xd8":
        i = 2
        while i < len(body) - 9:
            if body[i] != 0xFF:
                i += 1
                continue
            marker = body[i + 1]
            if marker in (0xC0, 0xC1, 0xC2):
                h, w = struct.unpack(">HH", body[i + 5:i + 9])
                return ("jpeg", w, h)
            i += 2 + struct.unpack(">H", body[i + 2:i + 4])[0]
    return (None, 0, 0)


def expected_size(path):
    m = re.search(r"/(\d+)x(\d+)(@2x)?(\.\w+)?(\?|$)", path)
    k = 2 if m.group(3) else 1
    return int(m.group(1)) * k, int(m.group(2)) * k


def readme_urls():
    text = open(os.path.join(ROOT, "README.md")).read()
    return sorted(set(re.findall(r"http://127\.0\.0\.1:8080(/[^\s'\"`]+)", text)))


def test_readme(s):
    urls = readme_urls()
    check(len(urls) >= 3, "the README gives example URLs (%d)" % len(urls))
    for path in urls:
        status, headers, body = s.get(path)
        if "/report/" in path or "/explain/" in path:
            check(status == 200 and headers.get("content-type") == "application/json", "README %s: %d JSON" % (path, status))
            continue
        fmt, w, h = image_size(body)
        check(status == 200 and (w, h) == expected_size(path), "README %s: %d %s %dx%d" % (path, status, fmt, w, h))


STATUS_CASES = [
    ("GET", "/helsinki/static/24.94,60.17,13/600x400x", None, 400, "600x400x"),
    ("GET", "/helsinki/static/24.94,60.17,13/400x300?paddng=4", None, 400, "paddng"),
    ("GET", "/nosuch/static/24.94,60.17,13/400x300", None, 404, "nosuch"),
    ("GET", "/helsinki/tiles/1/2/3", None, 404, None),
    ("GET", "/helsinki/static/24.94,60.17,13/4000x300", None, 413, "4000x300"),
    ("GET", "/helsinki/static/" + ",".join(["pin-s(24.94,60.17)"] * 600) + "/24.94,60.17,13/400x300", None, 414, None),
    ("GET", "/helsinki/static/24.94,60.17,13,45/400x300", None, 422, "bearing"),
    ("GET", "/helsinki/static/24.94,60.17,13,0,40/400x300", None, 422, "24.94,60.17,13,0,40"),
    ("GET", "/helsinki/static/pin-s-cafe(24.94,60.17)/24.94,60.17,13/400x300", None, 422, "cafe"),
    ("GET", "/helsinki/static/url-https%3A%2F%2Fexample.com%2Fm.png(24.94,60.17)/24.94,60.17,13/400x300", None, 422, None),
    ("GET", "/helsinki/static/auto/400x300", None, 422, "auto"),
    ("POST", "/helsinki/static", b"{", 400, "body"),
    ("POST", "/helsinki/static", b'{"center":[24.94,60.17],"zoom":13,"size":[400,300],"colour":1}', 400, "$.colour"),
    ("POST", "/helsinki/static", b'{"auto":true,"size":[400,300],"overlays":[' + b",".join([b'"pin-s(24.9,60.1)"'] * 300) + b"]}", 413, None),
    ("POST", "/helsinki/static", b" " * (2 << 20), 413, None),
    ("POST", "/helsinki/tiles", b"{}", 404, None),
    ("DELETE", "/helsinki/static/24.94,60.17,13/400x300", None, 405, None),
]


def test_statuses(s):
    for method, path, body, status, part in STATUS_CASES:
        got, headers, data = s.request(method, path, body=body)
        try:
            error = json.loads(data)["error"]
        except (ValueError, KeyError):
            error = {}
        ok = got == status and headers.get("content-type") == "application/json" and error.get("status") == status
        if part is not None:
            ok = ok and error.get("part") == part
        check(ok, "%s %s → %d (%s)" % (method, path[:80], got, error.get("message", "")[:100]))


def test_http(s):
    path = "/world/static/pin-l-a+e01e5a(24.94,60.17)/10,50,2/320x200"
    status, headers, body = s.get(path)
    tag = headers.get("etag", "")
    check(status == 200 and tag.startswith('"') and headers.get("cache-control") == "public, max-age=3600", "an image has an ETag and Cache-Control")
    status2, headers2, _ = s.get(path, headers={"If-None-Match": tag})
    check(status2 == 304 and headers2.get("etag") == tag, "If-None-Match with its ETag → 304")
    status3, _, body3 = s.get(path)
    check(status3 == 200 and body3 == body, "the same URL again gives the same bytes")
    status4, headers4, body4 = s.request("HEAD", path)
    check(status4 == 200 and body4 == b"" and headers4.get("etag") == tag, "HEAD answers the headers only")
    post = json.dumps({"center": [10, 50], "zoom": 2, "size": [320, 200], "overlays": ["pin-l-a+e01e5a(24.94,60.17)"]}).encode()
    status5, headers5, body5 = s.request("POST", "/world/static", body=post)
    check(status5 == 200 and body5 == body and headers5.get("etag") == tag, "the POST body form gives the URL form's image")
    for fmt, suffix in (("jpeg", ".jpg"), ("webp", ".webp"), ("png", "?format=png8")):
        st, hd, b = s.get("/world/static/10,50,2/320x200" + suffix)
        check(st == 200 and image_size(b) == (fmt, 320, 200), "format %s: %s" % (suffix, image_size(b)))
    st, _, b = s.get("/helsinki/report/scale/24.94,60.17,8000/400x300")
    check(st == 200 and "layers" in json.loads(b), "/report is the frame's report")
    st, _, b = s.get("/helsinki/explain/24.94,60.17,13/400x300")
    check(st == 200 and len(json.loads(b)["explanation"]) > 3, "/explain is the frame's explanation")
    st, _, b = s.get("/health")
    check(st == 200 and json.loads(b)["status"] == "ok", "/health")
    st, _, b = s.get("/scenes")
    names = [x["name"] for x in json.loads(b)["scenes"]]
    check(st == 200 and "helsinki" in names and "bright" in names, "/scenes lists the served names")
    st, hd, b = s.get("/metrics")
    text = b.decode()
    check(st == 200 and "mapsnap_requests_total{status=\"200\"}" in text and "mapsnap_request_duration_seconds_bucket" in text
          and "mapsnap_image_cache_hits_total" in text and "mapsnap_render_queue_depth" in text, "/metrics in Prometheus's text format")
    st, hd, b = s.get("/")
    check(st == 200 and hd.get("content-type", "").startswith("text/html") and b"<form" in b, "/ is the preview page")


SEEDS = [
    "/helsinki/static/24.9414,60.1719,13/300x200",
    "/bright/static/pin-l-a+e01e5a(24.9414,60.1719),path-4+1565c0-0.8(g~enJocdwCwj%40w%7CA~Wo%7D%40)/auto/300x200@2x.png",
    "/styles/v1/u/bright/static/24.94,60.17,12,30/200x200.jpg?padding=4&access_token=x",
    "/world/static/%5B-10,30,40,60%5D/300x200.webp?padding=10,20",
    "/helsinki/scale/24.94,60.17,8000/200x150",
    "/world/static/geojson(%7B%22type%22%3A%22Point%22%2C%22coordinates%22%3A%5B10%2C50%5D%7D)/10,50,3/200x100",
    "/helsinki/report/24.94,60.17,13/100x100",
]
BODY_SEEDS = [
    {"center": [24.94, 60.17], "zoom": 13, "size": [200, 150], "overlays": ["pin-s(24.94,60.17)", {"marker": [24.95, 60.16], "label": "x"}]},
    {"bounds": [24.9, 60.15, 24.98, 60.19], "size": "200x150@2x", "padding": [5, 10], "format": "webp"},
    {"auto": True, "size": [200, 150], "overlays": [{"geojson": {"type": "LineString", "coordinates": [[24.9, 60.1], [25, 60.2]]}}]},
]
CHARS = "0123456789,.-+()[]/%@x?&=#abcdefgpinslauto{}\"':;~_ \x00\xff"


def mutate(rng, text):
    t = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        i = rng.randrange(len(t) + 1)
        if op == 0 and t:
            del t[min(i, len(t) - 1)]
        elif op == 1:
            t.insert(i, rng.choice(CHARS))
        elif op == 2 and t:
            t[min(i, len(t) - 1)] = rng.choice(CHARS)
        elif op == 3:
            t.insert(i, rng.choice(["9" * 40, "1e308", "-0", "NaN", "%", "%%", "..", "//", "@2x", "99999x99999", "\u00e9"]))
        else:
            t = t[:i]
    return "".join(t)


def encode_target(text):
    # What a client could send: printable ASCII as is, the rest percent-encoded.
    return "".join(c if 0x21 <= ord(c) < 0x7F and c != "#" else urllib.parse.quote(c, safe="") for c in text) or "/"


def test_fuzz(s, count):
    rng = random.Random(42)
    bad = []
    statuses = {}
    for n in range(count):
        if n % 4 == 3:
            seed = json.dumps(rng.choice(BODY_SEEDS))
            body = mutate(rng, seed).encode("utf-8", "surrogatepass")
            st, _, data = s.request("POST", "/helsinki/static", body=body)
            what = "POST " + body[:120].decode(errors="replace")
        else:
            path = encode_target(mutate(rng, rng.choice(SEEDS)))
            if not path.startswith("/"):
                path = "/" + path
            st, _, data = s.get(path)
            what = "GET " + path[:160]
        statuses[st] = statuses.get(st, 0) + 1
        if st >= 500 and st != 503:
            bad.append("%d %s: %s" % (st, what, data[:200]))
    print("     fuzz statuses: %s" % dict(sorted(statuses.items())))
    check(not bad, "fuzz: %d URLs and bodies, no 5xx but 503%s" % (count, "".join("\n       " + b for b in bad[:10])))
    check(s.get("/health")[0] == 200, "the server answers after the fuzz")


WRK_STATUS = r"""
local threads = {}
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
function init(args)
  statuses = {}
  n = 0
end
function request()
  n = n + 1
  -- A distinct 1024² frame each time: a centre moved by a metre or so.
  local lon = 24.90 + (id * 100000 + n) % 5000 * 0.00001
  return wrk.format("GET", string.format("/helsinki/static/%.5f,60.17,13/1024x1024", lon))
end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do total[k] = (total[k] or 0) + v end
  end
  for k, v in pairs(total) do io.write(string.format("status %d %d\n", k, v)) end
  local e = summary.errors
  io.write(string.format("errors %d %d %d %d\n", e.connect, e.read, e.write, e.timeout))
end
"""


def test_overload(exe, seconds):
    s = Server(exe, "--queue", "4", "--workers", "1")
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
            f.write(WRK_STATUS)
        r = subprocess.run(["wrk", "-t2", "-c64", "-d%ds" % seconds, "--timeout", "60s", "-s", f.name,
                            "http://127.0.0.1:%d/" % s.port], capture_output=True, text=True)
        os.unlink(f.name)
        statuses = {int(a): int(b) for a, b in re.findall(r"^status (\d+) (\d+)$", r.stdout, re.M)}
        errors = [int(x) for x in re.search(r"^errors (\d+) (\d+) (\d+) (\d+)$", r.stdout, re.M).groups()]
        print("     wrk: %s, socket errors (connect, read, write, timeout) %s" % (statuses, errors))
        check(set(statuses) <= {200, 503} and statuses.get(503, 0) > 0 and statuses.get(200, 0) > 0,
              "overload: only 200 and 503 (%s)" % statuses)
        check(errors == [0, 0, 0, 0], "overload: no socket error (%s)" % errors)
        check(s.get("/health")[0] == 200, "the server answers after the overload")
    finally:
        s.stop()


def test_sigterm(exe):
    s = Server(exe)
    result = {}

    def slow():
        result["r"] = s.get("/helsinki/static/24.9414,60.1719,12/1280x1280@2x", timeout=120)

    t = threading.Thread(target=slow)
    t.start()
    time.sleep(0.3)
    s.proc.send_signal(signal.SIGTERM)
    t.join(120)
    status = result.get("r", (None,))[0]
    code = s.proc.wait(60)
    check(status == 200, "SIGTERM: the frame being drawn is answered (%s)" % status)
    check(code == 0, "SIGTERM: the server exits 0 (%s)" % code)
    try:
        socket.create_connection(("127.0.0.1", s.port), timeout=2).close()
        check(False, "SIGTERM: the port is closed after exit")
    except OSError:
        check(True, "SIGTERM: the port is closed after exit")


def test_nginx(s):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        check(False, "nginx is installed (make serve-deps)")
        return
    work = tempfile.mkdtemp(prefix="mapsnap-nginx-")
    port = free_port()
    site = open(os.path.join(ROOT, "docs/serve/nginx.conf")).read()
    site = site.replace("127.0.0.1:8080", "127.0.0.1:%d" % s.port).replace("listen 80;", "listen 127.0.0.1:%d;" % port)
    site = site.replace("/var/cache/nginx/mapsnap", os.path.join(work, "cache"))
    conf = os.path.join(work, "nginx.conf")
    with open(conf, "w") as f:
        f.write("daemon off;\nmaster_process off;\nerror_log %s/error.log;\npid %s/nginx.pid;\nevents {}\nhttp {\n"
                "access_log off;\nclient_body_temp_path %s/body;\nproxy_temp_path %s/proxy;\n%s\n}\n"
                % (work, work, work, work, site))
    p = subprocess.Popen([nginx, "-p", work, "-c", conf], stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        def get(path):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.getheader("X-Cache-Status"), r.read()
        path = "/helsinki/static/24.95,60.17,14/300x200?_n=%d" % random.randrange(10**9)
        a = get(path)
        b = get(path)
        check(a[0] == 200 and a[1] == "MISS" and b[0] == 200 and b[1] == "HIT" and a[2] == b[2],
              "nginx in front: MISS then HIT with the same bytes (%s, %s)" % (a[1], b[1]))
        e1 = get("/nosuch/static/1,2,3/10x10")
        e2 = get("/nosuch/static/1,2,3/10x10")
        check(e1[0] == 404 and e2[1] != "HIT", "nginx in front: errors are not cached (%s)" % e2[1])
    finally:
        p.terminate()
        p.wait(10)
        shutil.rmtree(work, ignore_errors=True)


def test_manifests():
    r = subprocess.run([sys.executable, "-m", "kubernetes_validate", "--strict", os.path.join(ROOT, "docs/serve/k8s.yaml")],
                       capture_output=True, text=True)
    check(r.returncode == 0, "kubernetes-validate docs/serve/k8s.yaml: %s" % (r.stdout + r.stderr).strip().replace("\n", "; ")[:400])
    if shutil.which("systemd-analyze") and os.path.isdir("/run/systemd/system"):
        r = subprocess.run(["systemd-analyze", "verify", os.path.join(ROOT, "docs/serve/mapsnap.service")], capture_output=True, text=True)
        check(r.returncode == 0, "systemd-analyze verify docs/serve/mapsnap.service: %s" % r.stderr.strip()[:300])
    else:
        print("     (systemd is not running here: the unit is checked by its keys only)")
        unit = open(os.path.join(ROOT, "docs/serve/mapsnap.service")).read()
        check(all(k in unit for k in ("[Service]", "ExecStart=/usr/local/bin/mapsnap serve", "KillSignal=SIGTERM", "[Install]")),
              "docs/serve/mapsnap.service has its sections")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    exe = os.path.abspath(args[0])
    fuzz = int(os.environ.get("MAPSNAP_SERVE_FUZZ", "1500"))
    start = time.time()
    s = Server(exe)
    try:
        test_readme(s)
        test_statuses(s)
        test_http(s)
        test_fuzz(s, fuzz)
        test_nginx(s)
    finally:
        code = s.stop()
    check(code == 0, "the server stopped with status 0 (%s)" % code)
    if failures and not s.proc.returncode == 0:
        print(s.output()[-3000:])
    test_overload(exe, int(os.environ.get("MAPSNAP_SERVE_OVERLOAD_SECONDS", "8")))
    test_sigterm(exe)
    test_manifests()
    if "--skip-browser" not in sys.argv:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/test-serve-browser.py"), exe])
        check(r.returncode == 0, "the preview page in headless Chromium")
    print("test-serve: %d checks failed, %.0f s" % (len(failures), time.time() - start))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
