# findings.jq: the report's first section, Findings: a few sentences a
# manager can read, made from the same results as the rest of the page.
# Each rule below says what it looks at; each sentence appears only when
# its experiment ran, and every number in it is a tagged value (data-src)
# that analysis/report-check verifies. An experiment that did not run or
# failed is named in the last sentence, never described from nothing.
# Tested against the fixture results (analysis/tests/53-findings.test).

include "report-lib";

# ok($e): the experiment ran and finished (interrupted results are partial:
# they are shown in their section, not summarised here).
def ok($e): ($e.summary.status // null) == "ok";

# limit_owner($s; $f; $path): "the servers' own limit" when the verdict
# at $path blames the server, else says the rig set it.
def limit_owner($s; $f; $path):
  ($s | getpath($path)) as $v
  | if ($v | type) != "object" then ""
    elif $v.caused_by == "server" then " This is the servers' own limit."
    else " This limit is the test rig's (" + val($s; $f; $path + ["caused_by"]) + "), not the servers' capacity." end;

# per_cpu_sentence($s; $f): the ceiling per CPU of the server, when the
# summary has one (the server limited, its receive path on its CPU), with
# the daemons' budget: a budgeted rate is never the unbudgeted server's.
def per_cpu_sentence($s; $f):
  if ($s.per_cpu.qps_per_cpu | type) == "number" then
    " Per CPU of the server that is " + val($s; $f; ["per_cpu","qps_per_cpu"]; 0; null)
    + " answers/s (the ceiling over the server CPU's " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null) + " % busy"
    + (if ($s.per_cpu.budget | type) == "number"
       then ", the daemons limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each; a whole CPU's figure is this projection, not a measurement)."
       else ")." end)
  else "" end;

# UDP unshaped: the ceiling and what stopped it (the verdict in words).
def finding_udp_unshaped($b):
  $b.exps["udp-unshaped"] as $e | $e.summary as $s | $e.file as $f
  | if ok($e) and ($s.ceiling_qps | type) == "number" then
      ["Over UDP the instance answered up to " + val($s; $f; ["ceiling_qps"]; 0; null)
       + " queries/s with no link shaping"
       + (range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"]) | if . != "" then " (its ceiling lies " + . + ")" else "" end)
       + (if ($s.verdict.summary // null) != null then "; what stopped it: " + val($s; $f; ["verdict","summary"]) + "." else "." end)
       + limit_owner($s; $f; ["verdict"])
       + per_cpu_sentence($s; $f)]
    else [] end;

# UDP shaped as in the paper: the ceiling, the answer size, the paper's.
def finding_udp_shaped($b):
  $b.exps.udp as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | if ok($e) and ($s.ceiling_qps | type) == "number" then
      ["With the router&ndash;server link shaped to " + val($s; $f; ["link_bps"]; 0; 0.000001)
       + " Mbit/s as in the paper, the ceiling was " + val($s; $f; ["ceiling_qps"]; 0; null)
       + " queries/s" + (range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"]) | if . != "" then " (" + . + ")" else "" end)
       + " at " + val($s; $f; ["mean_answer_wire_bytes"]; 0; null) + " bytes per answer on the wire"
       + (if $s.physics_check.link_limited == true then ", which is what the link carries: the link, not the servers, set it"
          elif ($s.physics_check.ratio | type) == "number" then " (measured / what the link carries: " + val($s; $f; ["physics_check","ratio"]; 2; null) + ")"
          else "" end)
       + " (the paper: " + val($p; "paper.json"; ["udp","ceiling_qps","juniper"]) + " and "
       + val($p; "paper.json"; ["udp","ceiling_qps","cisco"]) + " queries/s)."]
    else [] end;

# Sizes: the paper's signing against unsigned, then every other variant,
# in one sentence.
def finding_sizes($b):
  $b.exps.sizes as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | if ok($e) and ($s.variants.unsigned.bytes_per_query_out | type) == "number"
       and ($s.variants.signed.bytes_per_query_out | type) == "number" then
      ([$s.variants | to_entries[] | select(.key != "unsigned" and .key != "signed" and (.value.growth_vs_unsigned | type) == "number")
        | val($s; $f; ["variants",.key,"zone_variant"]) + " +" + val($s; $f; ["variants",.key,"growth_vs_unsigned"]; 1; 100) + " %"]) as $others
      | ["Signing the zone as the paper did"
         + (if $s.variants.signed.zone_variant then " (" + val($s; $f; ["variants","signed","zone_variant"]) + ")" else "" end)
         + " raised the bytes sent per query from " + val($s; $f; ["variants","unsigned","bytes_per_query_out"]; 1; null)
         + " to " + val($s; $f; ["variants","signed","bytes_per_query_out"]; 1; null)
         + " (+" + val($s; $f; ["variants","signed","growth_vs_unsigned"]; 1; 100) + " %; the paper: +"
         + val($p; "paper.json"; ["sizes","growth_vs_unsigned"]; 0; 100) + " %), so a link carries that many fewer answers per second"
         + (if ($others | length) > 0 then "; other signings: " + ($others | join(", ")) else "" end) + "."]
    else [] end;

# Sizes matrix: the key-roll DNSKEY answer and truncation at 512 bytes,
# then where the root-like zone turns the instance byte-bound.
def finding_matrix($b):
  $b.exps["sizes-matrix"] as $e | $e.summary as $s | $e.file as $f
  | if ok($e) and ($s.checks | type) == "object" then
      ([$s.cells | to_entries[] | select(.value.zone_state == "root" and .value.edns == "512") | .key][0]) as $j
      | ([$s.cells | to_entries[] | select(.value.zone_state == "unsigned" and .value.edns == "512") | .key][0]) as $u
      | (if ($s.checks.ksk_roll_dnskey.value | type) == "number" then
         ["During a KSK roll the DNSKEY answer grows to " + val($s; $f; ["checks","ksk_roll_dnskey","value"])
          + " bytes (steady state: " + val($s; $f; ["checks","steady_dnskey","value"]) + ")"
          + (if $j != null and $u != null then
               "; resolvers that advertise a " + val($s; $f; ["cells",$j,"edns"]) + "-byte buffer get "
               + val($s; $f; ["cells",$j,"tc_share"]; 1; 100) + " % of the root zone's answers truncated (unsigned: "
               + val($s; $f; ["cells",$u,"tc_share"]; 1; 100) + " %), each one a retry over TCP the instance must absorb"
             else "" end) + "."]
       else [] end)
      + ([$s.cells | to_entries[] | select(.value.zone_state == "root") | .key] as $roots
         | ([$roots[] | select($s.cells[.].edns == "trace")] + $roots)[0] as $i
         | if $i == null or ($s.cells[$i].links[0].link_qps | type) != "number" then [] else
             ["Serving the root's zone (" + val($s; $f; ["cells",$i,"cell"]) + "), a "
              + val($s; $f; ["cells",$i,"links",0,"link_bps"]; 0; 0.000001) + " Mbit/s link is full at "
              + val($s; $f; ["cells",$i,"links",0,"link_qps"]; 0; null) + " queries/s"
              + (if ($s.server_udp_ceiling.qps | type) == "number" then
                   ", below the servers' UDP ceiling of " + val($s; $f; ["server_udp_ceiling","qps"]; 0; null) + " queries/s"
                   + (range_text($s; $f; ["server_udp_ceiling","low_qps"]; ["server_udp_ceiling","high_qps"]) | if . != "" then " (" + . + ")" else "" end)
                   + ": the link is hit first up to about " + val($s; $f; ["cells",$i,"breakeven_link_bps"]; 0; 0.000001) + " Mbit/s."
                 else " (the servers' UDP ceiling was not measured in this run, so which limit comes first is not said)." end)]
           end)
    else [] end;

# LB: the stickiness verdict and the three figures that decide it.
def finding_lb($b):
  $b.exps.lb as $e | $e.summary as $s | $e.file as $f
  | if ok($e) and ($s.verdict // null) != null then
      ["The load balancer's stickiness check gave " + val($s; $f; ["verdict"])
       + (if ($s.verdict | ascii_downcase) == "pass" then "" else " (every TCP connection must stay on one server: DNS over TCP breaks through this balancer)" end)
       + ": of " + val($s; $f; ["sources"]) + " client sources, "
       + val($s; $f; ["overlap_sources"] | in_object($s; "count")) + " reached both servers, "
       + val($s; $f; ["split_connections"] | in_object($s; "count")) + " TCP connections were split across servers and "
       + val($s; $f; ["failed"] | in_object($s; "total")) + " queries failed."]
    else [] end;

# TCP: per configuration, the most answered and the verdict in words; a
# configuration with no valid point says only its verdict.
def finding_tcp($b):
  $b.exps.tcp as $e | ($e.subs // {}) as $subs
  | if ($e.summary != null) then
      [ ["1p1s","2p1s","2p2s"][] as $c | ($subs[$c].summary // null) as $s | "tcp/\($c)/summary.json" as $f
        | select($s != null and (($s.max_qps | type) == "number" or ($s.verdict.summary // null) != null))
        | "Over TCP with " + (if $s.title then val($s; $f; ["title"]) else ($c | esc) end)
          + (if ($s.max_qps | type) == "number" then ", at most " + val($s; $f; ["max_qps"]; 0; null) + " connections/s were answered"
             else ", no rate was measured validly" end)
          + (if ($s.verdict.summary // null) != null then "; " + val($s; $f; ["verdict","summary"]) else "" end)
          + (if $s.verdict.server_capacity == true then " (the servers' capacity on this testbed)." else "." end)
          + (if ($s.per_cpu.conn_per_cpu | type) == "number" then
               " Per CPU of the server that is " + val($s; $f; ["per_cpu","conn_per_cpu"]; 0; null)
               + " connections/s (the knee over the server CPU's " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null) + " % busy"
               + (if ($s.per_cpu.budget | type) == "number"
                  then ", the daemons limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each; a whole CPU's figure is this projection, not a measurement)."
                  else ")." end)
             else "" end) ]
    else [] end;

# Servers compared: each server's median UDP ceiling, TCP knee (and
# whether it is the server's) and signed bytes per query.
def finding_compare($b):
  $b.exps.compare as $e | $e.summary as $s | $e.file as $f
  | def each(what): [$s.servers | to_entries[] | .key as $i | val($s; $f; ["servers",$i,"name"]) + " " + ($i | what)] | join(", ");
  if ($s.servers | type) == "array" and ($s.servers | length) > 0 then
      ["Servers compared on the same testbed (repetitions: " + each(val($s; $f; ["servers",.,"repetitions"]))
       + "), median UDP ceiling: "
       + each(val($s; $f; ["servers",.,"udp","ceiling_qps","median"]; 0; null)) + " queries/s.",
       "Median TCP rate where 0.1 % of connections first failed: "
       + each(. as $i | if ($s.servers[$i].tcp.knee_0_1pct.median | type) == "number" then
                val($s; $f; ["servers",$i,"tcp","knee_0_1pct","median"]; 0; null) + " connections/s"
                + (if $s.servers[$i].tcp.server_capacity | any(. == true) then " (the server's capacity)" else " (not shown to be the server's capacity)" end)
              else "none (" + val($s; $f; ["servers",$i,"tcp","verdicts",0]) + ")" end)
       + ".",
       "Median bytes per query out, unsigned and signed: "
       + each(val($s; $f; ["servers",.,"sizes","bytes_per_query_out_unsigned","median"]; 1; null) + " and "
              + val($s; $f; ["servers",.,"sizes","bytes_per_query_out_signed","median"]; 1; null)) + "."]
    else [] end;

# What this run does not say: experiments absent, failed or interrupted.
def finding_missing($b; $names):
  [$names[] as [$k, $what] | $b.exps[$k] as $e
   | select($e != null and (ok($e) | not))
   | $what + " (" + (if $e.summary == null then "not run" else val($e.summary; $e.file; ["status"])
                     + (if $e.summary.status == "skipped" then ": " + val($e.summary; $e.file; ["error"]) else "" end) end) + ")"]
  | if length > 0 then ["Not measured in this run, so not summarised here: " + join("; ") + "."] else [] end;

def findings_section($b; $names):
  (finding_udp_unshaped($b) + finding_udp_shaped($b) + finding_sizes($b) + finding_matrix($b) + finding_lb($b)
   + finding_tcp($b) + finding_compare($b) + finding_missing($b; $names)) as $f
  | "<section id=\"findings\"><h2>Findings</h2><ul class=\"findings\">"
  + ([$f[] | "<li>" + . + "</li>"] | join(""))
  + "</ul><p><small>Each sentence is read from the results below (hover a number for its file and path); the sections that follow give the evidence.</small></p></section>";
