# rules.jq -- the attack experiment's rules (docs/attack.md): what the
# legitimate client saw at each attack step, the attack rate at which it
# first failed RSSAC047's thresholds per server, defence and attack, what
# each defence changed, the amplification and RRL's collateral damage.
# Pure: scripts/attack/run stores what attack_judged returns as its
# summary; the report reads the summary; the fixture test
# (scripts/attack/tests/10-attack-rules.test) checks these on steps made
# by hand. No other file restates them.
#
# A step (one line of steps.jsonl, schema rootbench.attack-step/1):
#   {schema, server, defence ("off"|"on"), kind, rate (requested/s), seconds,
#    flood: flood.json (rootbench.attack-flood/1: sent, achieved_rate,
#           answers, answered_rate, amplification, servers.tcp, sink),
#    probe: rbprobe's result (rootbench.probe/1) from the probe's block during
#           the flood, or null (PROBE=off),
#    collateral: rbprobe's result from the victims' /24 (UDP), or null,
#    background: {sent, answered} (the trace from player2: the router's
#           count of its queries, the Listener's of its answers), or null,
#    server_cpu_pct: the servers' CPU busy share during the flood, or null}
# A group (one testbed set-up: a server with its defences off or on):
#   {server, defence, defences (status --json .server.defences), idle: rbprobe's idle result}

include "probe-stats" {search: "../lib"};
include "probe-sweep" {search: "../lib"};
import "probe" as probe {search: "../lib"};

def attack_schema: "rootbench.attack/1";
def attack_step_schema: "rootbench.attack-step/1";
def attack_kinds: ["random-subdomain", "reflection-dnskey", "reflection-any", "syn-flood", "conn-hold"];

# attack_protocol($kind): the protocol the attack loads ("udp" or "tcp");
# the legitimate client's figures that matter first are that protocol's.
def attack_protocol($kind): if $kind == "syn-flood" or $kind == "conn-hold" then "tcp" else "udp" end;

# attack_defence_name($kind): the defence that "on" switches for an attack
# (the testbed's settings: docs/attack.md, "Defences per server").
def attack_defence_name($kind):
  if attack_protocol($kind) == "udp" then "response rate limiting (SERVER_RRL)"
  elif $kind == "syn-flood" then "SYN cookies (SERVER_SYNCOOKIES)"
  else "a short TCP idle timeout (SERVER_TCP_TIMEOUT)" end;

# attack_step_checked: a step (input) of this schema with what the rules
# read, or an error naming what is wrong.
def attack_step_checked:
  if type != "object" or .schema != attack_step_schema then
    error("an attack step of schema \(attack_step_schema) was expected; this one's schema is \(.schema? // type)")
  elif (.kind as $k | attack_kinds | index($k)) == null then error("attack step: unknown kind \(.kind)")
  elif (.defence != "off" and .defence != "on") then error("attack step: defence must be off or on, not \(.defence)")
  elif (.flood | type) != "object" or .flood.schema != "rootbench.attack-flood/1" then
    error("attack step \(.server)/\(.defence)/\(.kind)/\(.rate): no flood result of schema rootbench.attack-flood/1")
  elif (.flood.achieved_rate | type) != "number" then error("attack step \(.kind)/\(.rate): the flood has no achieved_rate")
  else . end;

def attack_frac($a; $b): if ($b // 0) > 0 and ($a | type) == "number" then ($a / $b * 1e6 | round / 1e6) else null end;

# attack_offered($s): the attack rate a step is judged at: what the router
# counted (achieved), not what was asked of the generator.
def attack_offered($s): $s.flood.achieved_rate | round;

# attack_collateral($c): the legitimate client inside a victim's prefix:
# its UDP queries, full answers, answers slipped (TC set: RRL's slip),
# timeouts (dropped), and the share answered in full.
def attack_collateral($c):
  if $c == null then null
  else ($c | probe_raw_checked | .udp) as $u
    | {sent: $u.sent, answered_full: ($u.answers_by_verdict.correct // 0),
       slipped: ($u.answers_by_verdict.truncated // 0), dropped: $u.timeouts,
       full_share: attack_frac($u.answers_by_verdict.correct // 0; $u.sent)} end;

# attack_step_figures($s): one step's figures, as the summary and the report show them.
def attack_step_figures($s):
  ($s | attack_step_checked) as $s
  | attack_protocol($s.kind) as $proto
  | ($s.probe | if . == null then null else probe_raw_checked end) as $p
  | {server: $s.server, defence: $s.defence, kind: $s.kind, protocol: $proto,
     requested_rate: $s.rate, seconds: $s.seconds,
     achieved_rate: $s.flood.achieved_rate, generator_limited: ($s.flood.achieved_rate < 0.9 * $s.rate),
     answered_rate: ($s.flood.answered_rate // null),
     answered_share: attack_frac($s.flood.answers; $s.flood.sent),
     answer_bytes: ($s.flood.answer_bytes // null),
     amplification: ($s.flood.amplification.bytes // null),
     sink_packets: (($s.flood.sink.reflected_udp.packets // 0) + ($s.flood.sink.reflected_tcp.packets // 0)),
     tcp: ($s.flood.servers.tcp // null),
     server_cpu_pct: ($s.server_cpu_pct // null),
     legit: (if $p == null then null else {udp: ($p.udp | probe_protocol), tcp: ($p.tcp | probe_protocol)} end),
     collateral: attack_collateral($s.collateral),
     background: (if $s.background == null then null
                  else $s.background + {answered_share: attack_frac($s.background.answered; $s.background.sent)} end)};

# attack_series($groups; $steps): one series per server, defence and
# attack: its steps' figures by rate and the legitimate client's probe
# block (scripts/lib/probe-sweep.jq: a point per step, the attack's
# achieved rate as the offered load, the group's idle probe as idle),
# judged by RSSAC047's thresholds (probe.jq): its rssac047.held_up_to is
# the highest attack rate at which the legitimate client kept every
# threshold, first_fail the lowest at which it did not.
def attack_series($groups; $steps):
  [$steps[] | attack_step_checked] | group_by([.server, .defence, .kind])
  | map(.[0] as $f
        | ([$groups[] | select(.server == $f.server and .defence == $f.defence)] | first // null) as $g
        | (if all(.[]; .probe == null) then null
           else probe_sweep($g.idle // null;
                  [.[] | . as $s | $s.probe | probe_point(attack_offered($s); 1; $s.flood.sent; attack_protocol($s.kind))];
                  null) end) as $pb
        | {server: $f.server, defence: $f.defence, kind: $f.kind, protocol: attack_protocol($f.kind),
           defence_name: (if $f.defence == "on" then attack_defence_name($f.kind) else "none" end),
           steps: (sort_by(.rate) | map(attack_step_figures(.))),
           probe: $pb});

# attack_held_words($ser): the legitimate client's verdict in words.
def attack_held_words($ser):
  if $ser.probe == null then "the legitimate client was not probed (PROBE=off)"
  else $ser.probe.rssac047 as $r
    | if $r.held_up_to == null and $r.first_fail == null then $r.words
      elif $r.held_to_highest then "the legitimate client kept RSSAC047's thresholds up to the highest attack rate, \($r.highest)/s"
      elif $r.held_up_to == null then
        "the legitimate client failed RSSAC047 already at the lowest attack rate, \($r.first_fail.offered)/s (\($r.first_fail.failed | join(", ")))"
      else "the legitimate client kept RSSAC047's thresholds up to \($r.held_up_to)/s of attack and failed at \($r.first_fail.offered)/s "
        + "(\($r.first_fail.failed | join(", ")))" end
  end;

# attack_effect($off; $on): what switching the defence on changed for one
# server and attack, at the rates both measured: the attack's answers out
# (on over off: RRL should cut them), the amplification, the legitimate
# client's availability in the attack's protocol, the servers' SYN
# counters (SYN cookies), and where RSSAC047 stopped holding.
def attack_effect($off; $on):
  ([$off.steps[] | .requested_rate] - ([$off.steps[] | .requested_rate] - [$on.steps[] | .requested_rate])) as $common
  | $off.protocol as $x
  | {server: $off.server, kind: $off.kind, defence_name: attack_defence_name($off.kind),
     held_up_to: {off: ($off.probe.rssac047.held_up_to // null), on: ($on.probe.rssac047.held_up_to // null)},
     held_to_highest: {off: ($off.probe.rssac047.held_to_highest // null), on: ($on.probe.rssac047.held_to_highest // null)},
     rates: [$common[] as $r
             | ([$off.steps[] | select(.requested_rate == $r)] | first) as $a
             | ([$on.steps[] | select(.requested_rate == $r)] | first) as $b
             | {rate: $r,
                answers_out: {off: $a.answered_rate, on: $b.answered_rate, on_over_off: attack_frac($b.answered_rate; $a.answered_rate)},
                bytes_out: {off: $a.answer_bytes, on: $b.answer_bytes, on_over_off: attack_frac($b.answer_bytes; $a.answer_bytes)},
                amplification: {off: $a.amplification, on: $b.amplification},
                legit_availability: {off: ($a.legit[$x].availability // null), on: ($b.legit[$x].availability // null)},
                collateral_full_share: {off: ($a.collateral.full_share // null), on: ($b.collateral.full_share // null)},
                syn: (if $off.kind == "syn-flood" then
                        {syn_queue_drops: {off: ($a.tcp.req_q_full_drops // null), on: ($b.tcp.req_q_full_drops // null)},
                         listen_drops: {off: ($a.tcp.listen_drops // null), on: ($b.tcp.listen_drops // null)},
                         syncookies_sent: {off: ($a.tcp.syncookies_sent // null), on: ($b.tcp.syncookies_sent // null)}}
                      else null end)}]}
  # recovered (SYN floods): at every rate where the client's TCP
  # availability fell under RSSAC047's 96 % with the defence off, it is at
  # least that with it on; null when the flood never pushed it under.
  | probe::probe_thresholds.availability_min as $min
  | .availability_min = $min
  | .recovered = (
      if $off.kind != "syn-flood" then null
      else [.rates[] | select((.legit_availability.off | type) == "number" and .legit_availability.off < $min)] as $hurt
        | if ($hurt | length) == 0 then null
          else all($hurt[]; (.legit_availability.on | type) == "number" and .legit_availability.on >= $min) end end);

# attack_effects($series): attack_effect for every server and attack
# measured with the defence off and on.
def attack_effects($series):
  [$series | group_by([.server, .kind])[]
   | ([.[] | select(.defence == "off")] | first) as $off | ([.[] | select(.defence == "on")] | first) as $on
   | select($off != null and $on != null) | attack_effect($off; $on)];

# attack_amplification($series): per reflection attack and server, the
# bytes out per byte in at each rate, defence off and on (switch counters).
def attack_amplification($series):
  [$series[] | select(.kind | startswith("reflection-"))
   | {server, defence, kind, by_rate: [.steps[] | {rate: .requested_rate, achieved_rate, amplification}],
      median: ([.steps[] | .amplification | select(type == "number")] | sort | if length == 0 then null else .[length / 2 | floor] end)}];

# attack_judged($settings; $groups; $steps; $status): the summary.
def attack_judged($settings; $groups; $steps; $status):
  attack_series($groups; $steps) as $series
  | {schema: attack_schema, experiment: "attack", status: $status, settings: $settings,
     groups: $groups,
     series: [$series[] | . + {words: attack_held_words(.)}],
     effects: attack_effects($series),
     amplification: attack_amplification($series),
     steps_measured: ($steps | length)};

# attack_plot_rows($series; $kind): the figure's data for one attack: a
# block per server and defence (two blank lines between blocks: gnuplot's index), each line
# the attack rate (achieved) and the legitimate client's availability in
# the attack's protocol, in percent; the block's title first as a comment.
def attack_plot_rows($series; $kind):
  [$series[] | select(.kind == $kind) | . as $ser
   | "# \(.server) \(if .defence == "on" then "with \(.defence_name | sub(" \\(.*"; ""))" else "no defence" end)",
     (.steps[] | select(.legit != null) | .legit[$ser.protocol].availability as $a
      | "\(.achieved_rate | round)\t\(if ($a | type) == "number" then ($a * 1000 | round / 10) else "NaN" end)"),
     "", ""] | .[];
