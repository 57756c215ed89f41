# section.jq -- under attack: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).
# It reads the summary (scripts/attack/rules.jq's attack_judged) only.

include "report-lib";
include "report-probe";
import "rules" as rules {search: "../../scripts/attack"};

def attack_kind_words($k):
  {"random-subdomain": "random-subdomain flood", "reflection-dnskey": "DNSKEY reflection", "reflection-any": "ANY reflection",
   "syn-flood": "SYN flood", "conn-hold": "connection hold"}[$k] // $k;
def attack_server_name($k): {"nsd": "NSD", "knot": "Knot DNS", "bind": "BIND 9"}[$k] // $k;

# attack_step_cells($s; $f; $i; $j): the cells of step $j of series $i.
def attack_step_cells($s; $f; $i; $j):
  ["series",$i,"steps",$j] as $p | $s.series[$i].protocol as $x
  | [val($s; $f; $p + ["requested_rate"]; 0; null), val($s; $f; $p + ["achieved_rate"]; 0; null)
       + (if $s.series[$i].steps[$j].generator_limited then " <small>(generator-limited)</small>" else "" end),
     val($s; $f; $p + ["answered_rate"]; 0; null), val($s; $f; $p + ["amplification"]; 1; null),
     val($s; $f; $p + ["legit",$x,"availability"]; 3; null), val($s; $f; $p + ["legit",$x,"p50_ms"]; 2; null),
     val($s; $f; $p + ["legit",$x,"p99_ms"]; 2; null),
     val($s; $f; $p + ["collateral","full_share"]; 3; null), val($s; $f; $p + ["collateral","slipped"]; 0; null),
     val($s; $f; $p + ["background","answered_share"]; 3; null), val($s; $f; $p + ["server_cpu_pct"]; 1; null)];

# attack_table($s; $f): one row per series (server, defences, attack):
# where the legitimate client held RSSAC047, and its highest step's figures.
def attack_table($s; $f):
  "<table class=\"cmp\">" + head_row(["server", "defences", "attack", "legitimate client: " + rssac047_name + " held up to, attack/s", "first failure",
     "highest step: asked, /s", "counted at the router, /s", "attack answered, /s", "amplification, bytes out / in", "legitimate availability",
     "legitimate median, ms", "legitimate " + p99_name + ", ms", "collateral client answered in full", "collateral slipped (TC)",
     "background answered", "server CPU, %"])
  + ([$s.series // [] | to_entries[] | .key as $i | .value as $ser | (($ser.steps | length) - 1) as $j
      | "<tr><th>" + val($s; $f; ["series",$i,"server"]) + "</th><td>" + val($s; $f; ["series",$i,"defence_name"]) + "</td><td>"
        + val($s; $f; ["series",$i,"kind"]) + "</td><td>"
        + (if $ser.probe == null then nm
           elif $ser.probe.rssac047.held_to_highest then "held to the highest, " + val($s; $f; ["series",$i,"probe","rssac047","highest"]; 0; null)
           else val($s; $f; ["series",$i,"probe","rssac047","held_up_to"]; 0; null) end) + "</td><td>"
        + (if ($ser.probe.rssac047.first_fail // null) == null then "none"
           else val($s; $f; ["series",$i,"probe","rssac047","first_fail","offered"]; 0; null) + "/s: " + probe_failed_text($s; $f; ["series",$i,"probe"]) end)
        + "</td>" + (attack_step_cells($s; $f; $i; $j) | map("<td>\(.)</td>") | join("")) + "</tr>"] | join(""))
  + "</table>";

def attack_section($b; $key; $heading):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if ($e.dir_exists | not) then "" else
    "<section id=\"\($key)\"><h2>\($heading) \(status_badge($e))</h2>"
    + status_text($e; "the attack experiment")
    + (if $s == null then "" else
        rules::attack_summary_checked($s) as $_
        | figures($e)
        + attack_table($s; $f)
        + "<p>Each step is one flood from the testbed's own ranges (kxdpgun), bounded in time and count, while the legitimate client (the "
          + rssac047_name + " probe, UDP and TCP <code>. SOA</code> at " + val($s; $f; ["settings","probe_udp_rate"]) + " queries/s each) measures "
          + "what is left: it is judged in the attack's protocol, at the attack rate the router counted. With the defences on the servers run "
          + "response rate limiting (" + val($s; $f; ["settings","rrl_rate"]) + " answers/s per prefix, slip " + val($s; $f; ["settings","rrl_slip"])
          + "), SYN cookies and a short TCP idle timeout. The collateral client asks from inside the victims' <span class=\"meta\">/24</span>, "
          + "the prefix RRL counts them by; "
          + "the background is the root trace from one address (as one busy resolver, which RRL limits too), answered share at the Listener.</p>"
        + "<p>Every step's figures (the attack asked and counted, answered, amplified; the legitimate, collateral and background clients; the "
          + "server CPU; the servers' SYN counters): the data page.</p>"
      end)
    + "<details><summary>What is measured</summary><p>Random-subdomain floods (NXDOMAIN with NSEC proofs on the signed root) come from a player's "
      + "own block; reflections (<code>. DNSKEY</code>, <code>. ANY</code>) from spoofed victim addresses whose answers the router delivers to the "
      + "sink, which counts them; amplification is the switch's octets out on the sink's port over the octets in on the attacker's. SYN floods "
      + "and held connections load the servers' TCP. Nothing leaves the testbed's ranges (docs/attack.md).</p></details>"
    + more_link($key; $e)
    + "</section>"
  end;

# attack_held_clause($s; $f; $p; $x; $d): where the legitimate client held
# under one attack (effect $x at path $p) with the defences $d ("on"/"off").
def attack_held_clause($s; $f; $p; $x; $d):
  attack_kind_words($x.kind) + " "
  + (if $x.held_to_highest[$d] then "to the highest rate, " + val($s; $f; $p + ["held_up_to",$d]; 0; null) + "/s"
     elif $x.held_up_to[$d] == null then "at no rate"
     else "up to " + val($s; $f; $p + ["held_up_to",$d]; 0; null) + "/s" end);

# attack_findings($b; $key): one sentence per server: where its legitimate
# client held RSSAC047 under each attack with the defences on and off,
# whether SYN cookies brought its TCP back, and the amplification of a
# DNSKEY reflection without and with RRL.
def attack_findings($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if $s == null or ($s.schema // null) != rules::attack_schema then [] else
      [$s.effects // [] | to_entries | group_by(.value.server)[] | . as $xs | $xs[0].value.server as $srv
       | ([$s.amplification // [] | to_entries[]
           | select(.value.server == $srv and .value.kind == "reflection-dnskey" and (.value.median | type) == "number")]) as $amp
       | ([$xs[] | select(.value.kind == "syn-flood")] | first // null) as $syn
       | def least($d): ([$xs[] | select(.value.held_up_to[$d] == null)] + ($xs | sort_by(.value.held_up_to[$d])))[0]
                      | if .value.held_up_to[$d] == null then "no rate" else val($s; $f; ["effects",.key,"held_up_to",$d]; 0; null) + "/s" end;
       finding("Under attack, " + attack_server_name($srv) + "'s legitimate client kept " + rssac047_name + "'s thresholds up to "
               + least("on") + " of every attack with the defences on, " + least("off") + " without.";
       ["Under attack, " + attack_server_name($srv) + "'s legitimate client kept " + rssac047_name + "'s thresholds with the defences on under "
         + ([$xs[] | attack_held_clause($s; $f; ["effects",.key]; .value; "on")] | join(", "))
         + "; without them under " + ([$xs[] | attack_held_clause($s; $f; ["effects",.key]; .value; "off")] | join(", "))
         + (if $syn == null then ""
            elif $syn.value.recovered == true then
              "; SYN cookies brought its TCP availability back to at least " + val($s; $f; ["effects",$syn.key,"availability_min"])
            elif $syn.value.recovered == false then
              "; SYN cookies did not bring its TCP availability back to " + val($s; $f; ["effects",$syn.key,"availability_min"])
            else "" end)
         + (if ($amp | length) == 0 then "."
            else "; a DNSKEY reflection was amplified " + ([$amp[] | val($s; $f; ["amplification",.key,"median"]; 1; null) + " times in bytes "
                   + (if .value.defence == "on" then "with RRL" else "without RRL" end)] | join(", ")) + "." end)])]
    end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry)

def section($b; $e): attack_section($b; $e.name; $e.heading // $e.title);
def findings($b; $e): attack_findings($b; $e.name);
def family_rows($b; $e): "";
def family_note($b; $e): "";
def per_cpu_rows($b; $e): [];
def headline($b; $e): "";
# latency_rows: a row per series: the legitimate client against the attack rate.
def latency_rows($b; $e):
  [$b.exps[$e.name] | select(.summary != null) | .summary as $d | .file as $df
   | $d.series // [] | to_entries[] | select(.value.probe != null)
   | {name: "under attack: \(.value.server), \(.value.kind), defences \(.value.defence)", s: $d, f: $df,
      path: ["series",.key,"probe"], unit: "attack packets/s"}];
