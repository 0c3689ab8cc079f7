"""What the trials that stress a vault share (scripts/crash-test.py, scripts/concurrency-trial.py):
its notes' bytes, the lines its logs hold, git run with a fixed author, a `quire serve` and its API."""
import http.client
import json
import os
import re
import signal
import socket
import subprocess

GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")


def notes(vault, settings=False):
    """Every note's bytes by its path in the vault (hidden folders left out); with `settings`,
    `.quire/config.yaml`'s too, under that path."""
    out = {}
    for base, dirs, files in os.walk(vault):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            if f.endswith(".md"):
                path = os.path.join(base, f)
                out[os.path.relpath(path, vault)] = open(path, "rb").read()
    config = os.path.join(vault, ".quire", "config.yaml")
    if settings and os.path.exists(config):
        out[".quire/config.yaml"] = open(config, "rb").read()
    return out


def logged(vault, action):
    """The log lines of an action (`grade`, `set`) in every log file of the vault."""
    n = 0
    folder = os.path.join(vault, ".quire", "log")
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        with open(os.path.join(folder, name), "rb") as f:
            n += sum(1 for line in f if f" {action} ".encode() in line)
    return n


def git(cwd, *args):
    """Runs git in `cwd`, failing on an error."""
    subprocess.run(["git", "-C", cwd] + list(args), check=True, capture_output=True, env=GIT_ENV)


class Page:
    """A `quire serve` of `vault` on a free port, and its API as the page calls it."""

    def __init__(self, quire, vault, env):
        self.process = subprocess.Popen([quire, "-C", vault, "serve", "--port", "0"], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env, start_new_session=True)
        url = None
        while url is None:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError("quire serve printed no address")
            found = re.search(r"http://(127\.0\.0\.1):(\d+)/#token=(\w+)", line)
            if found:
                url = found.group(0)
                self.host, self.port, token = found.group(1), int(found.group(2)), found.group(3)
        self.url = url
        self.headers = {"X-Quire-Token": token, "X-Quire-Page": "1",
                        "Content-Type": "application/json", "Host": f"{self.host}:{self.port}"}

    def post(self, path, body):
        """POSTs `body` as JSON; the status and the reply's JSON object ({} when it is none)."""
        c = http.client.HTTPConnection(self.host, self.port, timeout=30)
        c.request("POST", path, body=json.dumps(body), headers=self.headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, (json.loads(data) if data[:1] == b"{" else {})

    def send(self, path, body):
        """Sends a POST of `body` without waiting for the reply; the open socket."""
        data = json.dumps(body).encode()
        head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in self.headers.items())
        s = socket.create_connection((self.host, self.port), timeout=30)
        s.sendall(head.encode() + f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
        return s

    def stop(self, sig=None):
        """Stops the server (SIGINT, or `sig`) with its process group and waits for it."""
        try:
            os.killpg(self.process.pid, sig or signal.SIGINT)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=60)
