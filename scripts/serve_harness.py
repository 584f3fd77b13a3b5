"""The `mapsnap serve` process the server scripts talk to
(scripts/test-serve.py, scripts/bench-serve.py, scripts/test-serve-browser.py):
started on a free loopback port over Examples/, waited for on /health,
stopped with SIGTERM."""
import http.client, os, signal, socket, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Server:
    def __init__(self, exe, *args):
        self.port = free_port()
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([exe, "serve", os.path.join(ROOT, "Examples"), "--port", str(self.port), *args],
                                     stdout=self.log, stderr=self.log)
        for _ in range(300):
            try:
                if self.get("/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        sys.exit("mapsnap serve did not start:\n" + self.output())

    def request(self, method, path, body=None, headers=None, timeout=60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.putrequest(method, path, skip_accept_encoding=True)
            for k, v in (headers or {}).items():
                c.putheader(k, v)
            if body is not None:
                c.putheader("Content-Type", "application/json")
                c.putheader("Content-Length", str(len(body)))
            c.endheaders(body)
            r = c.getresponse()
            return r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
        finally:
            c.close()

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def output(self):
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait()
