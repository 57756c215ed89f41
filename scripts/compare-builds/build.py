"""build: a source side of make compare-builds (a source tree, or a git
checkout's commit) configured, compiled and installed into a prefix kept in
the suite's cache (RB_CACHE_DIR, default /var/cache/rootbench, as NSD's
rebuilt build and the releases), keyed by everything that makes it:

  compare-builds/<kind>-<key>/   the prefix (sbin/nsd, ...; Knot's and
                                 BIND's libraries under lib/), build-info.json
                                 (what was built, from where, with which
                                 configure options and CFLAGS, when, how
                                 long) and build.log

key: SHA-256 of the kind, the source (a commit's id; a tree's every file,
its path and content, .git left out), the configure options, CFLAGS and
this file. A second comparison of the same source and options takes the
prefix as it is; anything else builds anew. The source is copied (a tree)
or exported (git archive) into scratch first: the user's tree is never
written to.
"""

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time

# What each kind needs to be built besides configure (a git tree has no
# configure yet: autoreconf makes it).
KIND_TARGETS = {
    # NSD's make install also writes its configuration and state folders
    # under the prefix; the testbed's configuration names its own paths.
    "nsd": ["install"],
    "knot": ["install"],
    "bind": ["install"],
}


class BuildError(Exception):
    pass


def cache_root(env=None):
    env = os.environ if env is None else env
    return env.get("RB_CACHE_DIR") or "/var/cache/rootbench"


def tree_digest(root):
    """SHA-256 over every file of a tree (path and content; links by their
    target), .git left out, in a fixed order."""
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != ".git")
        for name in sorted(files):
            p = os.path.join(d, name)
            rel = os.path.relpath(p, root)
            h.update(rel.encode() + b"\0")
            if os.path.islink(p):
                h.update(b"L" + os.readlink(p).encode() + b"\0")
                continue
            with open(p, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
            h.update(b"\0")
    return h.hexdigest()


def build_key(side, configure, cflags):
    """The cache key of a source side with these options."""
    h = hashlib.sha256()
    h.update(("kind=%s\n" % side["kind"]).encode())
    if side["type"] == "git":
        h.update(("commit=%s\n" % side["commit"]).encode())
    else:
        h.update(("tree=%s\n" % tree_digest(side["dir"])).encode())
    h.update(("configure=%s\ncflags=%s\n" % (configure, cflags)).encode())
    with open(os.path.abspath(__file__), "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def cache_entry(side, configure, cflags, env=None):
    return os.path.join(cache_root(env), "compare-builds", "%s-%s" % (side["kind"], build_key(side, configure, cflags)))


def is_built(entry):
    return os.path.isfile(os.path.join(entry, "build-info.json"))


def run_logged(argv, cwd, log, env):
    log.write("$ %s\n" % " ".join(shlex.quote(a) for a in argv))
    log.flush()
    p = subprocess.run(argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env=env)
    if p.returncode != 0:
        raise BuildError("%s failed (exit %d) in %s" % (argv[0], p.returncode, cwd))


def log_tail(path, n=15):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def build(side, configure, cflags, say, env=None):
    """The side built into its cache entry (or taken from it); sets
    side["prefix"] and side["build"] (build-info.json) and returns the entry."""
    entry = cache_entry(side, configure, cflags, env)
    if is_built(entry):
        with open(os.path.join(entry, "build-info.json"), encoding="utf-8") as f:
            side["build"] = json.load(f)
        side["build"]["from_cache"] = True
        side["prefix"] = entry
        say("%s: from the cache %s (built %s)" % (side["label"], entry, side["build"].get("built")))
        return entry
    parent = os.path.dirname(entry)
    os.makedirs(parent, exist_ok=True)
    work = tempfile.mkdtemp(prefix=".build-", dir=parent)
    t0 = time.monotonic()
    try:
        src = os.path.join(work, "src")
        if side["type"] == "git":
            os.makedirs(src)
            arch = subprocess.run(["git", "-C", side["repo"], "archive", side["commit"]], capture_output=True)
            if arch.returncode != 0:
                raise BuildError("git archive %s failed: %s" % (side["commit"], arch.stderr.decode(errors="replace").strip()))
            subprocess.run(["tar", "-x", "-C", src], input=arch.stdout, check=True)
        else:
            shutil.copytree(side["dir"], src, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        logpath = os.path.join(work, "build.log")
        benv = dict(os.environ if env is None else env)
        benv["CFLAGS"] = cflags
        stage = os.path.join(work, "stage")
        say("%s: building %s in %s (configure %s; CFLAGS=%s; log %s)" % (
            side["label"], side["kind"], work, configure or "(no options)", cflags, logpath))
        with open(logpath, "w", encoding="utf-8") as log:
            if not os.path.isfile(os.path.join(src, "configure")):
                if os.path.isfile(os.path.join(src, "autogen.sh")):
                    run_logged(["sh", "autogen.sh"], src, log, benv)
                else:
                    run_logged(["autoreconf", "-fi"], src, log, benv)
            # the prefix is the cache entry itself: Knot and BIND find their
            # libraries there (their run path)
            run_logged(["./configure", "--prefix=" + entry] + shlex.split(configure), src, log, benv)
            run_logged(["make", "-j%d" % (os.cpu_count() or 1)], src, log, benv)
            run_logged(["make", "DESTDIR=" + stage] + KIND_TARGETS[side["kind"]], src, log, benv)
        built = stage + entry
        if not os.path.isdir(built):
            raise BuildError("make install put nothing under %s" % built)
        info = {"kind": side["kind"], "source": side.get("repo") or side.get("dir"),
                "ref": side.get("ref"), "commit": side.get("commit"),
                "configure": configure, "cflags": cflags,
                "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "build_s": round(time.monotonic() - t0, 1)}
        with open(os.path.join(built, "build-info.json"), "w", encoding="utf-8") as f:
            json.dump(info, f, indent=2)
            f.write("\n")
        shutil.copy(logpath, os.path.join(built, "build.log"))
        # whole or not at all: the entry appears in one rename
        if os.path.exists(entry):
            shutil.rmtree(entry)
        os.rename(built, entry)
    except BuildError as e:
        raise BuildError("%s=%s: %s; the build log's last lines:\n%s" % (
            side["label"], side["spec"], e, log_tail(os.path.join(work, "build.log")))) from e
    finally:
        shutil.rmtree(work, ignore_errors=True)
    info["from_cache"] = False
    side["build"] = info
    side["prefix"] = entry
    say("%s: built in %.0f s into %s" % (side["label"], info["build_s"], entry))
    return entry
