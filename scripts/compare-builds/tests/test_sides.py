"""The sides of a comparison: each kind of side read, and every bad one
refused with a message that says why (nothing runs: these are pure reads
of directories and of git)."""

import os
import subprocess

import pytest

from rootbench.experiment import sibling

sides = sibling(__file__, "../sides")
build = sibling(__file__, "../build")
RELEASES = ["debian12", "current"]


def exe(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
    os.chmod(path, 0o755)


@pytest.fixture
def nsd_prefix(tmp_path):
    for n in ("nsd", "nsd-control", "nsd-checkconf"):
        exe(str(tmp_path / "nsd" / "sbin" / n))
    return str(tmp_path / "nsd")


def test_release_names_take_the_other_sides_kind(nsd_prefix):
    a, b = sides.parse_sides("debian12", nsd_prefix, RELEASES)
    assert a["type"] == "release" and a["release"] == "debian12"
    assert b["type"] == "dir" and a["kind"] == b["kind"] == "nsd"
    assert b["programs"]["nsd"] == os.path.join(nsd_prefix, "sbin", "nsd")


def test_two_releases_are_of_server_or_of_their_kind_prefix():
    a, b = sides.parse_sides("debian12", "current", RELEASES, server="knot")
    assert a["kind"] == b["kind"] == "knot"
    a, b = sides.parse_sides("bind:debian12", "current", RELEASES)
    assert (a["kind"], b["kind"]) == ("bind", "bind")
    assert sides.parse_sides("debian12", "current", RELEASES)[0]["kind"] == "nsd"


def test_a_flat_build_directory_is_a_built_side(tmp_path):
    for n in ("knotd", "knotc"):
        exe(str(tmp_path / n))
    a, _ = sides.parse_sides(str(tmp_path), "debian12", RELEASES)
    assert a["type"] == "dir" and a["kind"] == "knot"
    root = str(tmp_path / "view")
    sides.make_view(a, root)
    assert os.path.realpath(os.path.join(root, "sbin", "knotd")) == str(tmp_path / "knotd")
    assert "SERVER_PREFIX=" + root in sides.testbed_settings(a)


def test_a_directory_without_a_daemon_is_refused(tmp_path):
    with pytest.raises(sides.SideError, match=r"no daemon in .* \(looked in it and in its sbin/ and bin/ for NSD: nsd"):
        sides.parse_sides(str(tmp_path), "debian12", RELEASES)


def test_a_daemon_without_its_tools_is_refused(tmp_path):
    exe(str(tmp_path / "sbin" / "nsd"))
    with pytest.raises(sides.SideError, match="has NSD's daemon but not nsd-control, nsd-checkconf"):
        sides.parse_sides(str(tmp_path), "debian12", RELEASES)


def test_two_kinds_are_refused(nsd_prefix):
    with pytest.raises(sides.SideError, match="is NSD and B=knot:debian12 is Knot DNS"):
        sides.parse_sides(nsd_prefix, "knot:debian12", RELEASES)
    with pytest.raises(sides.SideError, match="SERVER=bind but the sides are NSD's"):
        sides.parse_sides(nsd_prefix, "debian12", RELEASES, server="bind")


def test_an_unset_or_unknown_side_is_refused():
    with pytest.raises(sides.SideError, match="B is not set"):
        sides.parse_sides("debian12", "", RELEASES)
    with pytest.raises(sides.SideError, match="neither a release .* nor a directory nor DIR@REF"):
        sides.parse_sides("debian11", "debian12", RELEASES)


def source_tree(d):
    os.makedirs(d, exist_ok=True)
    for n in ("nsd.c", "configure.ac"):
        with open(os.path.join(d, n), "w") as f:
            f.write("/* %s */\n" % n)


def test_a_source_tree_is_a_source_side_and_its_key_follows_its_inputs(tmp_path):
    d = str(tmp_path / "src")
    source_tree(d)
    a, _ = sides.parse_sides(d, "debian12", RELEASES)
    assert a["type"] == "source" and a["kind"] == "nsd"
    k1 = build.build_key(a, "", "-O2 -g")
    assert k1 == build.build_key(a, "", "-O2 -g")
    assert k1 != build.build_key(a, "", "-O0 -g")
    assert k1 != build.build_key(a, "--enable-recvmmsg", "-O2 -g")
    with open(os.path.join(d, "nsd.c"), "a") as f:
        f.write("int changed;\n")
    assert k1 != build.build_key(a, "", "-O2 -g")


def git(repo, *args):
    subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", *args],
                   check=True, capture_output=True)


def test_a_git_ref_is_resolved_and_an_unknown_one_refused(tmp_path):
    repo = str(tmp_path / "repo")
    source_tree(repo)
    subprocess.run(["git", "init", "-q", repo], check=True)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    a, _ = sides.parse_sides(repo + "@HEAD", "debian12", RELEASES)
    assert a["type"] == "git" and a["kind"] == "nsd" and len(a["commit"]) == 40
    with pytest.raises(sides.SideError, match="unknown ref 'no-such-branch'"):
        sides.parse_sides(repo + "@no-such-branch", "debian12", RELEASES)
    with pytest.raises(sides.SideError, match="is not a git checkout"):
        sides.parse_sides(str(tmp_path) + "@HEAD", "debian12", RELEASES)
