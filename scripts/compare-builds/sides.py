"""sides: what A and B of make compare-builds name, read and checked
before anything starts.

A side is one of:
  debian12, current          a release of the suite's table
                             (scripts/servers/releases.json: SERVER_RELEASE),
                             of the kind SERVER, or of the other side's kind
  DIR                        a built server: DIR (or DIR/sbin, DIR/bin) holds
                             the daemon and its tools (nsd, nsd-control,
                             nsd-checkconf; knotd, knotc; named,
                             named-checkconf)
  DIR                        a source tree of NSD, Knot DNS or BIND, which the
                             suite configures and builds (build.py: cached
                             by its inputs)
  DIR@REF                    a git checkout's commit REF (a branch, a tag, a
                             commit), built as a source tree
Each may start with KIND: (nsd:, knot:, bind:) to name the kind, which a
release name needs when the other side does not set it and SERVER is not it.
"""

import json
import os
import re
import subprocess

KINDS = ("nsd", "knot", "bind")
# The programs a built side must hold, the daemon first: what the testbed
# runs and asks (scripts/lib/server-*.sh), where make install puts them.
PROGRAMS = {
    "nsd": [("sbin", "nsd"), ("sbin", "nsd-control"), ("sbin", "nsd-checkconf")],
    "knot": [("sbin", "knotd"), ("sbin", "knotc")],
    "bind": [("sbin", "named"), ("bin", "named-checkconf")],
}
DAEMONS = {k: v[0][1] for k, v in PROGRAMS.items()}
KIND_NAMES = {"nsd": "NSD", "knot": "Knot DNS", "bind": "BIND"}
KIND_PREFIX = re.compile(r"^(nsd|knot|bind):(.*)$")


class SideError(Exception):
    """A side that cannot be compared: its message says why."""


def release_names(top):
    with open(os.path.join(top, "scripts", "servers", "releases.json"), encoding="utf-8") as f:
        return list(json.load(f)["releases"])


def find_program(d, sub, name):
    """DIR/SUB/NAME, else DIR/NAME (a build directory holding the programs
    flat), when executable; else None."""
    for p in (os.path.join(d, sub, name), os.path.join(d, name)):
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def built_kind(d):
    """The kinds whose daemon DIR holds."""
    return [k for k in KINDS if find_program(d, PROGRAMS[k][0][0], DAEMONS[k])]


def source_kind(d):
    """The kind of a source tree (None when DIR is none of the three):
    NSD's nsd.c and its configure.ac, Knot's src/knot/, BIND's bin/named/."""
    if os.path.isfile(os.path.join(d, "nsd.c")) and os.path.isfile(os.path.join(d, "configure.ac")):
        return "nsd"
    if os.path.isdir(os.path.join(d, "src", "knot")) and os.path.isfile(os.path.join(d, "configure.ac")):
        return "knot"
    if os.path.isdir(os.path.join(d, "bin", "named")) and os.path.isfile(os.path.join(d, "configure.ac")):
        return "bind"
    return None


def git_commit(repo, ref):
    """The commit REF names in the checkout REPO, or SideError."""
    p = subprocess.run(["git", "-C", repo, "rev-parse", "--verify", "--quiet", ref + "^{commit}"],
                       capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout.strip():
        raise SideError("%s@%s: unknown ref '%s' in the git checkout %s" % (repo, ref, ref, repo))
    return p.stdout.strip()


def git_kind(repo, commit):
    """The kind of the tree at COMMIT (source_kind's files, asked of git)."""
    p = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", commit, "nsd.c", "configure.ac", "src/knot", "bin/named"],
                       capture_output=True, text=True)
    names = set(p.stdout.split())
    if "configure.ac" in names:
        if "nsd.c" in names:
            return "nsd"
        if "src/knot" in names:
            return "knot"
        if "bin/named" in names:
            return "bind"
    return None


def parse_side(spec, label, releases):
    """A side's spec read, without the other side: {label, spec, type,
    kind (None for a release without KIND:), ...}; SideError when it names
    nothing the suite can run."""
    if not spec:
        raise SideError("%s is not set: make compare-builds A=... B=... (a release name: %s; a directory holding a built server; "
                        "a source tree; DIR@REF of a git checkout)" % (label, ", ".join(releases)))
    kind, rest = None, spec
    m = KIND_PREFIX.match(spec)
    if m:
        kind, rest = m.group(1), m.group(2)
    side = {"label": label, "spec": spec, "kind": kind}
    if rest in releases:
        side.update(type="release", release=rest)
        return side
    if "@" in rest and not os.path.isdir(rest):
        repo, _, ref = rest.rpartition("@")
        if not os.path.isdir(repo):
            raise SideError("%s=%s: no directory %s (DIR@REF names a commit of a git checkout)" % (label, spec, repo))
        if not os.path.exists(os.path.join(repo, ".git")):
            raise SideError("%s=%s: %s is not a git checkout (DIR@REF names a commit of one)" % (label, spec, repo))
        commit = git_commit(repo, ref)
        k = git_kind(repo, commit)
        if k is None:
            raise SideError("%s=%s: commit %s of %s is not a source tree of NSD, Knot DNS or BIND" % (label, spec, commit[:12], repo))
        if kind and kind != k:
            raise SideError("%s=%s: names %s but the tree is %s's" % (label, spec, kind, KIND_NAMES[k]))
        side.update(type="git", kind=k, repo=os.path.realpath(repo), ref=ref, commit=commit)
        return side
    if not os.path.isdir(rest):
        raise SideError("%s=%s: neither a release (%s) nor a directory nor DIR@REF" % (label, spec, ", ".join(releases)))
    d = os.path.realpath(rest)
    built = built_kind(d)
    if kind:
        built = [k for k in built if k == kind]
    if built:
        k = built[0]
        missing = [n for sub, n in PROGRAMS[k] if not find_program(d, sub, n)]
        if missing:
            raise SideError("%s=%s: has %s's daemon but not %s (a built %s: %s)" % (
                label, spec, KIND_NAMES[k], ", ".join(missing), KIND_NAMES[k], ", ".join(n for _, n in PROGRAMS[k])))
        side.update(type="dir", kind=k, dir=d, programs={n: find_program(d, sub, n) for sub, n in PROGRAMS[k]})
        return side
    k = source_kind(d)
    if k and (kind is None or kind == k):
        side.update(type="source", kind=k, dir=d)
        return side
    want = "; ".join("%s: %s" % (KIND_NAMES[k], ", ".join(n for _, n in PROGRAMS[k])) for k in ([kind] if kind else KINDS))
    raise SideError("%s=%s: no daemon in %s (looked in it and in its sbin/ and bin/ for %s) and not a source tree of %s" % (
        label, spec, d, want, KIND_NAMES[kind] if kind else "NSD, Knot DNS or BIND"))


def parse_sides(a, b, releases, server=""):
    """Both sides, their kind agreed: a release takes the other side's kind
    (else KIND:, else SERVER, else nsd); two kinds refused."""
    sa = parse_side(a, "A", releases)
    sb = parse_side(b, "B", releases)
    kinds = {s["kind"] for s in (sa, sb) if s["kind"]}
    if len(kinds) > 1:
        raise SideError("A=%s is %s and B=%s is %s: compare-builds compares two builds of one server (make compare-servers compares the kinds)" % (
            a, KIND_NAMES[sa["kind"]], b, KIND_NAMES[sb["kind"]]))
    kind = kinds.pop() if kinds else (server or "nsd")
    if server and server != kind:
        raise SideError("SERVER=%s but the sides are %s's: leave SERVER unset or name the same kind" % (server, KIND_NAMES[kind]))
    if kind not in KINDS:
        raise SideError("SERVER=%s: not a server kind (%s)" % (kind, ", ".join(KINDS)))
    for s in (sa, sb):
        s["kind"] = kind
    return sa, sb


def testbed_settings(side):
    """The testbed's settings that run this side (its prefix set once it
    is built or viewed: side["prefix"])."""
    out = ["SERVER=%s" % side["kind"]]
    if side["type"] == "release":
        out.append("SERVER_RELEASE=%s" % side["release"])
        out.append("SERVER_PREFIX=")
    else:
        out.append("SERVER_RELEASE=")
        out.append("SERVER_PREFIX=%s" % side["prefix"])
    if side["kind"] == "nsd":
        out.append("NSD_BUILD=debian")
    return out


def make_view(side, root):
    """A prefix of links to a built side's programs (ROOT/sbin/nsd, ...),
    laid out where the testbed looks for them (SERVER_PREFIX): a build
    directory that holds them flat runs as it is."""
    for sub, name in PROGRAMS[side["kind"]]:
        os.makedirs(os.path.join(root, sub), exist_ok=True)
        link = os.path.join(root, sub, name)
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(side["programs"][name], link)
    side["prefix"] = root
    return root


def describe(side):
    """One line that says what the side is."""
    t = side["type"]
    if t == "release":
        return "%s of release %s" % (KIND_NAMES[side["kind"]], side["release"])
    if t == "dir":
        return "%s built in %s" % (KIND_NAMES[side["kind"]], side["dir"])
    if t == "source":
        return "%s from the source tree %s" % (KIND_NAMES[side["kind"]], side["dir"])
    return "%s from %s at %s (%s)" % (KIND_NAMES[side["kind"]], side["repo"], side["ref"], side["commit"][:12])
