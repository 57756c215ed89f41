# section.jq -- the DNSSEC sizing matrix: its section of the report and its Findings
# sentences (analysis/report.jq and analysis/findings.jq include this file;
# every value is tagged for analysis/report-check).

include "report-lib";

# sizes_matrix_section: the DNSSEC sizing matrix (analysis/sizes-matrix/run):
# per cell bytes per query, TC share, answer sizes, the DNSKEY
# answer, and against each link speed which ceiling an instance hits first.
def sizes_matrix_section($b):
  $b.exps["sizes-matrix"] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"sizes-matrix\"><h2>DNSSEC sizing matrix: algorithms, key rolls, DO share, EDNS buffer \(status_badge($e))</h2>"
  + status_text($e; "the sizing matrix")
  # a failed run may hold no cells, checks or links: nothing to tabulate
  + if $s == null or ($s.cells | type) != "array" then "</section>" else
      figures($e)
      + "<p>Design: \(val($s; $f; ["settings","design"])); \(val($s; $f; ["settings","queries_per_cell"])) queries per cell at \(val($s; $f; ["settings","pps"])) queries/s.</p>"
      + (if ($s.testbed.server.udp_answer_max | type) == "number" then
           "<p>The servers answer over UDP up to " + val($s; $f; ["testbed","server","udp_answer_max"]) + " bytes (<code>SERVER_EDNS_SIZE</code>): a larger answer comes truncated whatever the query advertises, so a cell's EDNS buffer above that acts as that size.</p>"
         else "" end)
      + "<p>The server's unshaped UDP ceiling: "
      + (if $s.server_udp_ceiling.qps != null then val($s; $f; ["server_udp_ceiling","qps"]) + " queries/s"
           + (range_text($s; $f; ["server_udp_ceiling","low_qps"]; ["server_udp_ceiling","high_qps"]) | if . != "" then " answered, " + . else "" end)
           + " (from " + val($s; $f; ["server_udp_ceiling","source"]) + (if $s.server_udp_ceiling.zone then ", serving the zone " + val($s; $f; ["server_udp_ceiling","zone"]) else "" end) + (if $s.server_udp_ceiling.caused_by then "; its verdict blames the " + val($s; $f; ["server_udp_ceiling","caused_by"]) else "" end) + ")"
         else val($s; $f; ["server_udp_ceiling","qps"]) + (if $s.server_udp_ceiling.status != "not measured" then " (" + val($s; $f; ["server_udp_ceiling","status"]) + ")" else "" end) end)
      + (if $s.server_udp_ceiling.note then "; " + val($s; $f; ["server_udp_ceiling","note"]) else "" end) + ".</p>"
      + "<details><summary>Checks</summary><table class=\"kv\">"
      + ([($s.checks // {}) | keys_unsorted[] as $k
          | "<tr><th>\(val($s; $f; ["checks",$k,"rule"]))</th><td>\(val($s; $f; ["checks",$k,"pass"]))</td><td>"
            + (($s.checks[$k].value) as $v
               | if ($v | type) == "object" then ([$v | keys_unsorted[] as $j | "\($j | esc): \(val($s; $f; ["checks",$k,"value",$j]))"] | join(", "))
                 else val($s; $f; ["checks",$k,"value"]) end)
            + "</td></tr>"] | join(""))
      + "</table></details>"
      + ([$s.cells | to_entries[] | select(.value.zone_state == "paper") | .key][0] as $i
         | if $i == null then "" else
             "<h4>The paper's zone state</h4>" + cmp_head(val($p; "paper.json"; ["sizes","section"]))
             + cmp_row("bytes per query out, cell " + val($s; $f; ["cells",$i,"cell"]); $s; $f; ["cells",$i,"bytes_per_query_out"]; 1; null; $p; ["sizes","tests","signed","bytes_per_query_out"]; "the paper's own traffic mix")
             + "</table>" end)
      + "<h3>Cells</h3><table class=\"csv\"><caption>One row per cell: bytes on the wire, truncation, answer sizes and which ceiling an instance meets first at each link speed</caption><tr><th>cell (zone state : profile : EDNS buffer)</th><th>bytes/query in</th><th>bytes/query out</th><th>TC share, %</th><th>answer bytes mean / median / max</th><th>DNSKEY answer, bytes</th>"
      + ([range(0; $s.links_bps // [] | length) as $l | "<th>\(val($s; $f; ["links_bps",$l]; 0; 0.000001)) Mb/s: first ceiling, at queries/s; byte-bound above</th>"] | join(""))
      + "</tr>"
      + ([$s.cells | to_entries[] | .key as $i | ["cells",$i] as $c
          | "<tr><td>\(val($s; $f; $c + ["cell"]))</td><td>\(val($s; $f; $c + ["bytes_per_query_in"]; 1; null))</td><td>\(val($s; $f; $c + ["bytes_per_query_out"]; 1; null))</td>"
            + "<td>\(val($s; $f; $c + ["tc_share"]; 2; 100))</td>"
            + "<td>\(val($s; $f; $c + ["answer_bytes","mean"]; 1; null)) / \(val($s; $f; $c + ["answer_bytes","median"])) / \(val($s; $f; $c + ["answer_bytes","max"]))</td>"
            + "<td>\(val($s; $f; $c + ["dnskey","bytes"]))\(if .value.dnskey.udp_4096.tc == true then " (over UDP: truncated, " + val($s; $f; $c + ["dnskey","udp_4096","bytes"]) + " bytes)" else "" end)</td>"
            + ([range(0; .value.links | length) as $l | ($c + ["links",$l]) as $q
                | "<td>\(val($s; $f; $q + ["first_ceiling"]))\(if .value.links[$l].first_ceiling_qps != null then ", " + val($s; $f; $q + ["first_ceiling_qps"]) else "" end); \(if .value.links[$l].crossover_qps != null then val($s; $f; $q + ["crossover_qps"]) else "never" end)</td>"] | join(""))
            + "</tr>"] | join(""))
      + "</table>"
      + "<details><summary>What is measured</summary><p>Each cell serves one zone state (signing algorithm and key sizes, NSEC or NSEC3, a KSK roll with two KSKs signing the DNSKEY set, a ZSK pre-published) and replays one query profile (the DO share of the paper's traffic, of a root server's more recent traffic, or forced) with the advertised EDNS buffer as the profile has it or forced to one size, slowly enough that every query is answered. The switch's SNMP octet counters on the router's server-side port give bytes per query in and out; a capture of the answers gives the share truncated (TC=1: each such query comes back over TCP) and the answer sizes; dig gives the DNSKEY answer of each zone state, whole over TCP and whether it fits a UDP answer. The rules (analysis/sizes-matrix/rules.jq) add the Ethernet overhead per frame to the SNMP bytes, divide each link speed by the result to get the query rate that fills the link, and compare it with the server's unshaped UDP ceiling from this run: the lower one is hit first; where the link's is lower, that rate is where the instance turns from query-bound to byte-bound. The paper (\(val($p; "paper.json"; ["sizes","section"]))) measured one signed zone with one traffic mix.</p></details>"
      + settings_table($s; $f; $b.labels["sizes-matrix"] // {}) + more_link("sizes-matrix"; $e)
      + "</section>"
    end;

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
