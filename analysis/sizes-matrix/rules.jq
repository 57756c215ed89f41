# rules.jq: the rules of the DNSSEC sizing matrix (analysis/sizes-matrix/run,
# docs/sizes-matrix.md), in one place, tested against fixture points
# (analysis/sizes-matrix/tests/74-sizes-matrix-rules.test, analysis/sizes-matrix/testdata/).
#
#   cell_derive($links; $ceiling)   one measured cell (.bytes_per_query_out, ...)
#                                   plus its TC share and its ceiling analysis
#   matrix_checks                   the issue's assertions over the cells
#   matrix_summary($links; $ceiling) {cells (derived), checks}
#
# A cell as measured: {zone_state, zone_variant, profile, edns, queries,
# answers, bytes_per_query_in, bytes_per_query_out, frames_out_per_query,
# tc_responses, responses, dnskey: {bytes, ...}, ...}.
# $links: [bits per second]; $ceiling: {qps: number|null, caused_by, ...}
# (the server's unshaped UDP ceiling; qps null = not measured).

# Ethernet's per-frame cost on the wire that SNMP octets (frames without
# FCS) leave out: frame_overhead_bytes.
include "wire";
# The unshaped UDP ceiling is read through udp's accessors, which check its
# schema (found from this folder: jq 1.6 would look in the current directory first).
import "udpreplay/udp/rules" as udp {search: "../.."};

# The checks' thresholds.
def roll_dnskey_min_bytes: 1400;      # the KSK-roll DNSKEY answer is at least this
def steady_dnskey_max_bytes: 1000;    # the steady-state one is below this
def almost_none_tc_share: 0.01;       # "almost none" truncated at 4096

def r1: . * 10 | round / 10;
def r4: . * 10000 | round / 10000;

# tc_share: the share of answers with TC=1, i.e. of queries that come back
# over TCP (the TCP fallback rate per query).
def tc_share: if (.responses // 0) > 0 then (.tc_responses / .responses | r4) else null end;

# wire bytes per query in one direction: SNMP octets plus the frame overhead.
def wire_out: if .bytes_per_query_out == null then null
              else .bytes_per_query_out + frame_overhead_bytes * (.frames_out_per_query // 1) end;
def wire_in: if .bytes_per_query_in == null then null
             else .bytes_per_query_in + frame_overhead_bytes * (.frames_in_per_query // 1) end;

# link_analysis($bps; $ceiling): for one link speed, the query rate that
# fills the link (the busier direction), which ceiling an instance hits
# first, and the rate where it turns from query-bound to byte-bound.
def link_analysis($bps; $ceiling):
  ([wire_out, wire_in] | map(select(. != null)) | max) as $w
  | (if $w == null or $w <= 0 then null else ($bps / 8 / $w | floor) end) as $lq
  | ($ceiling.qps // null) as $c
  | {link_bps: $bps,
     wire_bytes_per_query: (if $w == null then null else ($w | r1) end),
     link_qps: $lq,
     first_ceiling: (if $lq == null then "not measured"
                     elif $c == null then "not measured (server ceiling unknown)"
                     elif $lq < $c then "link" else "server" end),
     first_ceiling_qps: (if $lq == null then null elif $c == null then null
                         elif $lq < $c then $lq else $c end),
     # below this query rate the instance is query-bound, above it byte-bound
     # (null when the server's ceiling comes first: it never turns byte-bound)
     crossover_qps: (if $lq == null then null elif $c == null then $lq
                     elif $lq < $c then $lq else null end),
     # the TCP connections per second the instance must absorb at that point
     tcp_fallback_per_s: (tc_share as $t | if $t == null or $lq == null then null
                          else ((if $c == null or $lq < $c then $lq else $c end) * $t | round) end)};

def cell_derive($links; $ceiling):
  . + {tc_share: tc_share,
       answered_share: (if (.queries // 0) > 0 then (.answers / .queries | r4) else null end),
       links: [ $links[] as $bps | link_analysis($bps; $ceiling) ],
       # the link speed at which the link and the server ceiling coincide
       breakeven_link_bps: (([wire_out, wire_in] | map(select(. != null)) | max) as $w
                            | if $w == null or ($ceiling.qps // null) == null then null
                              else ($ceiling.qps * $w * 8 | round) end)};

# find($z; $p; $e): the cell of zone state $z, profile $p, buffer $e, or null.
def find($z; $p; $e): [.[] | select(.zone_state == $z and .profile == $p and .edns == $e)] | .[0];

# dnskey($z): the measured DNSKEY answer of a zone state (any cell of it).
def dnskey_of($z): [.[] | select(.zone_state == $z and .dnskey != null) | .dnskey] | .[0];

def check($rule; $value; $pass): {rule: $rule, value: $value, pass: $pass};

# matrix_checks: over an array of derived cells. pass null = not measured.
# The baseline profile of the TC comparisons is the first one that has both
# the unsigned and the signed cell at the buffer.
def matrix_checks:
  . as $cells
  | ($cells | dnskey_of("ksk-roll")) as $roll
  | ($cells | dnskey_of("root")) as $steady
  | ([$cells[] | .profile] | unique) as $profiles
  | ([$profiles[] as $p | select(($cells | find("unsigned"; $p; "512")) != null and ($cells | find("root"; $p; "512")) != null) | $p] | .[0]) as $p512
  | ([$profiles[] as $p | select(($cells | find("root"; $p; "4096")) != null) | $p] | .[0]) as $p4096
  | {ksk_roll_dnskey: check("the KSK-roll DNSKEY answer is at least \(roll_dnskey_min_bytes) bytes";
                            $roll.bytes // null;
                            (if $roll == null then null else $roll.bytes >= roll_dnskey_min_bytes end)),
     steady_dnskey: check("the steady-state (root) DNSKEY answer is below \(steady_dnskey_max_bytes) bytes";
                          $steady.bytes // null;
                          (if $steady == null then null else $steady.bytes < steady_dnskey_max_bytes end)),
     tc_512_signed_more: (if $p512 == null then check("at a forced 512-byte buffer the signed zone truncates more answers than the unsigned one"; null; null)
                          else ($cells | find("root"; $p512; "512").tc_share) as $s
                             | ($cells | find("unsigned"; $p512; "512").tc_share) as $u
                             | check("at a forced 512-byte buffer the signed zone truncates more answers than the unsigned one";
                               {profile: $p512, signed: $s, unsigned: $u};
                                     (if $s == null or $u == null then null else $s > $u end)) end),
     tc_4096_almost_none: (if $p4096 == null then check("at a forced 4096-byte buffer the signed zone truncates almost no answers (share below "
       + "\(almost_none_tc_share))"; null; null)
                           else ($cells | find("root"; $p4096; "4096").tc_share) as $s
                              | check("at a forced 4096-byte buffer the signed zone truncates almost no answers (share below \(almost_none_tc_share))";
                                {profile: $p4096, signed: $s};
                                      (if $s == null then null else $s < almost_none_tc_share end)) end)};

def matrix_summary($links; $ceiling):
  (map(cell_derive($links; $ceiling))) as $cells
  | {cells: $cells, checks: ($cells | matrix_checks)};

# server_ceiling($source; $shown): the server's unshaped UDP ceiling from
# the udp-unshaped summary (the input, read through udp's accessors), as
# the matrix records it: qps null ("not measured") when that experiment
# failed or found none, and not used when it ran under a server CPU budget
# (the budget's ceiling, not the instance's). $shown: the file as the
# summary names it. Never a number of our own.
def server_ceiling($shown):
  . as $s | (.status // null) as $st
  | udp::udp_ceiling_qps($s) as $q | udp::udp_testbed($s) as $tb | udp::udp_verdict($s) as $v
  | ($tb.server.cpu_budget.budget // null) as $budget
  | if $budget != null and $st == "ok" and $q != null then
      {qps: null, budgeted_qps: $q, budget: $budget,
       status: "not used (udp-unshaped ran with its servers limited to \($budget) CPU each: the budget's ceiling, not the instance's)",
       source: $shown}
    else
      {qps: (if $st == "ok" then $q else null end),
       low_qps: (if $st == "ok" then udp::udp_ceiling_low_qps($s) else null end),
       high_qps: (if $st == "ok" and $q != null then udp::udp_ceiling_high_qps($s) else null end),
       status: (if $st != "ok" then "not measured (udp-unshaped \($st))"
                elif $q == null then "not measured (udp-unshaped found no ceiling: \(udp::udp_ceiling_text($s) // "?"))"
                else "measured" end),
       caused_by: ($v.caused_by // null),
       source: $shown,
       zone: ($tb.zones.variant // ($tb.zones.dir // null | if . then split("/") | last else null end)),
       note: (if $st == "ok" and $q != null and ($v.caused_by // "") != "server"
              then "the unshaped ceiling was set by \($v.caused_by // "an undetermined layer"), not shown to be the server's: a lower bound of the server's"
              else null end)} end;
