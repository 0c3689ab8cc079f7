"""What the trials that stress a vault share (scripts/crash-test.py, scripts/concurrency-trial.py):
its notes' bytes, the lines its logs hold, git run with a fixed author."""
import os
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
