"""rootbench.rules.players prints what scripts/lib/players.jq prints: every
split of scripts/tests/23-player-shares-split-rate-and-sources.test (1 to
8 players, whole and fractional rates, IPv4 and IPv6 blocks from a /23 to
one address, and none) and its refused input, the CIDRs read and written
back, the start skews and the sweep's players, with edge cases."""

import functools
import ipaddress

import pytest

from rootbench.rules import players as PL
from rootbench.tests.jqagree import Case, check_names, run_jq, assert_agree

SRCS = ["198.18.4.0/23", "198.18.1.20/32", "198.18.4.0/30", "2001:2:0:4::/64", "2001:2:0:4::200/119",
        "2001:2:0:1::20/128", None]
SHARES = "player_shares($args[0]; $args[1]; $args[2])"


def shares(name, players, rate, src):
    # a refusal is the rule's own error: its words must be the jq's
    return Case("shares-" + name, SHARES, lambda _, p, r, s: PL.player_shares(p, r, s), None, players, rate, src,
                message=name.endswith("-error"))


CASES = [shares("%d-%s-%s" % (n, src, rate), ["player%d" % (i + 1) for i in range(n)], rate, src)
         for n in [1, 2, 3, 4, 5, 8] for src in SRCS for rate in [0, 1, 7, 1000, 99999, 2.5]] + [
    shares("no-players-error", [], 5, "198.18.4.0/23"),
    shares("null-players-error", None, 5, None),
    shares("negative-rate-error", ["player1"], -1, "198.18.4.0/23"),
    shares("string-rate-error", ["player1"], "5", None),
    shares("null-rate-error", ["player1"], None, None),
    shares("short-ipv4-error", ["player1"], 5, "198.18.4/23"),
    shares("two-double-colons-error", ["player1"], 5, "2001:2::4::/64"),
    shares("len-33-error", ["player1"], 5, "198.18.4.0/33"),
    shares("octet-256-error", ["player1"], 5, "198.18.4.256/24"),
    shares("no-len-error", ["player1"], 5, "198.18.4.0"),
    shares("len-newline", ["player1", "player2"], 5, "198.18.4.0/24\n"),
    shares("huge-rate", ["a", "b", "c"], 1e20, None),
    shares("rate-2-63", ["a", "b", "c"], 2.0 ** 63, None),
    shares("tiny-rate", ["a", "b", "c"], 1e-9, None),
    shares("one-third", ["a", "b", "c"], 1, None),
    shares("ipv6-full", ["a", "b", "c"], 3, "2001:0db8:0000:0000:0000:ff00:0042:8329/112"),
    shares("ipv6-upper", ["a", "b"], 3, "2001:DB8::/32"),
    shares("ipv6-zero-runs", ["a", "b"], 3, "2001:0:0:1:0:0:0:1/127"),
    shares("ipv6-all", ["a", "b", "c", "d", "e"], 3, "::/0"),
    shares("ipv4-all", ["a", "b", "c"], 3, "0.0.0.0/0"),
    shares("ipv4-host-bits-kept-out", ["a", "b"], 3, "198.18.4.77/24"),
] + [Case("bits-" + c, "cidr_bits($args[0])", lambda _, c: PL.cidr_bits(c), None, c) for c in [
    "198.18.4.0/23", "10.0.0.1/8", "::1/128", "fe80::/10", "1::/16", "2001:db8::ab:0:0:1/64",
]] + [Case("bits-%s-error" % name, "cidr_bits($args[0])", lambda _, c: PL.cidr_bits(c), None, c, message=True)
      for name, c in [
    ("empty", ""), ("ipv6-9-groups", "1:2:3:4:5:6:7:8:9/64"), ("ipv6-5-hex", "12345::/64"),
    ("len-129", "::/129"), ("len-4-digits", "1.2.3.4/0032"), ("slash-twice", "1.2.3.4/8/8"),
]] + [Case("bits-number-error", "cidr_bits($args[0])", lambda _, c: PL.cidr_bits(c), None, 5)] + [Case("text-" + name, "cidr_text($args[0])", lambda _, c: PL.cidr_text(c), None, c) for name, c in [
    ("ipv4", {"width": 32, "len": 23, "bits": [1] * 8 + [0] * 24}),
    ("ipv6-two-runs-first-longest", {"width": 128, "len": 64, "bits": [0] * 15 + [1] + [0] * 32 + [1] * 16 + [0] * 32 + [1] * 16 + [0] * 16}),
    ("ipv6-one-zero-group-not-shortened", {"width": 128, "len": 128, "bits": ([0] * 15 + [1]) * 3 + [0] * 16 + ([0] * 15 + [1]) * 4}),
    ("ipv6-all-zero", {"width": 128, "len": 0, "bits": [0] * 128}),
]] + [Case("split-" + name, "cidr_split($args[0]; $args[1])", lambda _, c, n: PL.cidr_split(c, n), None, c, n)
      for name, c, n in [
    ("zero", "198.18.4.0/23", 0), ("negative", "198.18.4.0/23", -2), ("fraction", "198.18.4.0/23", 2.5),
    ("too-many", "198.18.4.0/30", 5), ("exactly", "198.18.4.0/30", 4), ("huge-n-error", "198.18.4.0/23", 1e20),
    ("ipv6-17", "2001:2:0:4::/64", 17),
]] + [Case("skew-" + name, "start_skew($args[0]; $args[1])", lambda _, a, s: PL.start_skew(a, s), None, at, st)
      for name, at, st in [
    ("two", 1700000000, [{"player": "player1", "start": 1700000000.0015}, {"player": "player2", "start": 1700000000.0102}]),
    ("not-absolute", None, [{"player": "player1", "start": 5.25}, {"player": "player2", "start": 5.5}]),
    ("one-unmeasured", 100, [{"player": "player1", "start": None}, {"player": "player2", "start": 100.25}]),
    ("none-measured", 100, [{"player": "player1"}]),
    ("empty", 100, []),
    ("early", 100, [{"player": "p", "start": 99.9994999}]),
    ("rounding-half", 0, [{"player": "p", "start": 0.0000005}, {"player": "q", "start": -0.0000005}]),
    ("extra-keys-dropped", 1, [{"player": "p", "start": 2, "host": "x"}]),
    ("null-starts-error", 1, None),
]] + [Case("sweep-" + name, "players_sweep($args[0]; $args[1]; $args[2])",
           lambda _, s, l, st: PL.players_sweep(s, l, st), None, src, lead, st) for name, src, lead, st in [
    ("measured", [{"player": "player1", "sources": "198.18.4.0/24", "shared": False},
                  {"player": "player2", "sources": "198.18.5.0/24", "shared": False}], 2,
     [PL.start_skew(100, [{"player": "player1", "start": 100.001}, {"player": "player2", "start": 100.004}]),
      PL.start_skew(200, [{"player": "player1", "start": 200.002}, {"player": "player2", "start": None}]), None]),
    ("shared-not-absolute", [{"player": "player1", "sources": "x", "shared": True}], None,
     [PL.start_skew(None, [{"player": "player1", "start": 5}])]),
    ("nothing", [], None, []),
    ("null-sources-error", None, None, []),
]]
check_names(CASES)


@functools.lru_cache()
def jq():
    return run_jq("players", CASES)


def test_python_prints_what_the_jq_prints():
    assert_agree(CASES, jq())


def test_the_sweeps_split_in_words():
    out = PL.player_shares(["player1", "player2", "player3"], 1000, "198.18.4.0/23")
    assert [(s["rate"], s["sources"], s["sources_shared"]) for s in out] == [
        (334, "198.18.4.0/25", False), (333, "198.18.4.128/25", False), (333, "198.18.5.0/25", False)]
    assert {(s["sources"], s["sources_shared"]) for s in PL.player_shares(["a", "b", "c"], 1000, "198.18.1.20/32")} \
        == {("198.18.1.20/32", True)}
    assert [s["sources"] for s in PL.player_shares(["a", "b"], 10, "2001:2:0:4::/64")] == [
        "2001:2:0:4::/65", "2001:2:0:4:8000::/65"]


def test_blocks_are_disjoint_of_one_size_inside_in_order_checked_by_ipaddress():
    for n in [2, 3, 5, 8]:
        for src in ["198.18.4.0/23", "2001:2:0:4::200/119"]:
            nets = [ipaddress.ip_network(s["sources"]) for s in PL.player_shares(["p"] * n, 7, src)]
            whole = ipaddress.ip_network(src, strict=False)
            assert len({x.prefixlen for x in nets}) == 1 and nets[0].prefixlen == whole.prefixlen + (n - 1).bit_length()
            assert all(x.subnet_of(whole) for x in nets)
            assert all(a.network_address < b.network_address and not a.overlaps(b) for a, b in zip(nets, nets[1:]))


@pytest.mark.parametrize("players,rate,src", [([], 5, "198.18.4.0/23"), (["p"], -1, "198.18.4.0/23"),
                                              (["p"], 5, "198.18.4/23"), (["p"], 5, "2001:2::4::/64"),
                                              (["p"], 5, "198.18.4.0/33")])
def test_control_bad_input_is_refused(players, rate, src):
    with pytest.raises(Exception):
        PL.player_shares(players, rate, src)
