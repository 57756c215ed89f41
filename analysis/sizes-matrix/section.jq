# section.jq -- the DNSSEC sizing matrix: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";
include "analysis/sizes-matrix/roadmap";

# sizes_matrix_section: the DNSSEC sizing matrix (analysis/sizes-matrix/run):
# per cell bytes per query, TC share, answer sizes, the DNSKEY
# answer, and against each link speed which ceiling an instance hits first.
def sizes_matrix_section($b; $key; $heading):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"\($key)\"><h2>\($heading) \(status_badge($e))</h2>"
  + status_text($e; "the sizing matrix")
  # a failed run may hold no cells, checks or links: nothing to tabulate
  + if $s == null or ($s.cells | type) != "array" then "</section>" else
      figures($e | .figures |= map(select(.png | test("(^|/)roadmap[.]png$") | not)))
      + "<p>Design: \(val($s; $f; ["settings","design"])); \(val($s; $f; ["settings","queries_per_cell"])) queries per cell at "
        + "\(val($s; $f; ["settings","pps"])) queries/s.</p>"
      + (if ($s.testbed.server.udp_answer_max | type) == "number" then
           "<p>The servers answer over UDP up to " + val($s; $f; ["testbed","server","udp_answer_max"])
             + " bytes (<code>SERVER_EDNS_SIZE</code>): a larger answer comes truncated whatever the query advertises, so a cell's EDNS buffer above that "
             + "acts as that size.</p>"
         else "" end)
      + "<p>The server's unshaped UDP ceiling: "
      + (if $s.server_udp_ceiling.qps != null then val($s; $f; ["server_udp_ceiling","qps"]) + " queries/s"
           + (range_text($s; $f; ["server_udp_ceiling","low_qps"]; ["server_udp_ceiling","high_qps"]) | if . != "" then " answered, " + . else "" end)
           + " (from " + val($s; $f; ["server_udp_ceiling","source"])
             + (if $s.server_udp_ceiling.zone then ", serving the zone " + val($s; $f; ["server_udp_ceiling","zone"]) else "" end)
             + (if $s.server_udp_ceiling.caused_by then "; its verdict blames the " + val($s; $f; ["server_udp_ceiling","caused_by"]) else "" end) + ")"
         else val($s; $f; ["server_udp_ceiling","qps"])
           + (if $s.server_udp_ceiling.status != "not measured" then " (" + val($s; $f; ["server_udp_ceiling","status"]) + ")" else "" end) end)
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
             + cmp_row("bytes per query out, cell "
               + val($s; $f; ["cells",$i,"cell"]); $s; $f; ["cells",$i,"bytes_per_query_out"]; 1; null; $p; ["sizes","tests","signed","bytes_per_query_out"];
               "the paper's own traffic mix")
             + "</table>" end)
      + "<h3>Cells</h3><table class=\"csv\"><caption>One row per cell: bytes on the wire, truncation, answer sizes and which ceiling an instance meets first "
        + "at each link speed (the cells of the states only the roadmap measures are in its section below, and all of them on the data "
        + "page)</caption><tr><th>cell (zone state : profile : EDNS buffer)</th><th>bytes/query in</th><th>bytes/query out</th><th>TC share, %</th><th>answer "
        + "bytes mean / median / max</th><th>DNSKEY answer, bytes</th>"
      + ([range(0; $s.links_bps // [] | length) as $l
        | "<th>\(val($s; $f; ["links_bps",$l]; 0; 0.000001)) Mb/s: first ceiling, at queries/s; byte-bound above</th>"] | join(""))
      + "</tr>"
      + ([$s.cells | to_entries[] | select(.value.zone_state as $z | roadmap_only_states | index($z) | not) | .key as $i | ["cells",$i] as $c
          | "<tr><td>\(val($s; $f; $c + ["cell"]))</td><td>\(val($s; $f; $c + ["bytes_per_query_in"]; 1; null))</td><td>"
            + "\(val($s; $f; $c + ["bytes_per_query_out"]; 1; null))</td>"
            + "<td>\(val($s; $f; $c + ["tc_share"]; 2; 100))</td>"
            + "<td>\(val($s; $f; $c + ["answer_bytes","mean"]; 1; null)) / \(val($s; $f; $c + ["answer_bytes","median"])) / "
              + "\(val($s; $f; $c + ["answer_bytes","max"]))</td>"
            + "<td>\(val($s; $f; $c + ["dnskey","bytes"]))"
              + "\(if .value.dnskey.udp_4096.tc == true then " (over UDP: truncated, " + val($s; $f; $c + ["dnskey","udp_4096","bytes"])
              + " bytes)" else "" end)</td>"
            + ([range(0; .value.links | length) as $l | ($c + ["links",$l]) as $q
                | "<td>\(val($s; $f; $q + ["first_ceiling"]))"
                  + "\(if .value.links[$l].first_ceiling_qps != null then ", " + val($s; $f; $q + ["first_ceiling_qps"]) else "" end); "
                  + "\(if .value.links[$l].crossover_qps != null then val($s; $f; $q + ["crossover_qps"]) else "never" end)</td>"] | join(""))
            + "</tr>"] | join(""))
      + "</table>"
      + "<details><summary>What is measured</summary><p>Each cell serves one zone state (signing algorithm and key sizes, NSEC or NSEC3, a KSK roll with two "
        + "KSKs signing the DNSKEY set, a ZSK pre-published) and replays one query profile (the DO share of the paper's traffic, of a root server's more "
        + "recent traffic, or forced) with the advertised EDNS buffer as the profile has it or forced to one size, slowly enough that every query is "
        + "answered. The switch's SNMP octet counters on the router's server-side port give bytes per query in and out; a capture of the answers gives the "
        + "share truncated (TC=1: each such query comes back over TCP) and the answer sizes; dig gives the DNSKEY answer of each zone state, whole over TCP "
        + "and whether it fits a UDP answer. The rules (analysis/sizes-matrix/rules.jq) add the Ethernet overhead per frame to the SNMP bytes, divide each "
        + "link speed by the result to get the query rate that fills the link, and compare it with the server's unshaped UDP ceiling from this run: the lower "
        + "one is hit first; where the link's is lower, that rate is where the instance turns from query-bound to byte-bound. The paper ("
        + "\(val($p; "paper.json"; ["sizes","section"]))) measured one signed zone with one traffic mix.</p></details>"
      + settings_table($s; $f; $b.labels[$key] // {}) + more_link($key; $e)
      + "</section>"
    end;

# roadmap_section($b): the root's DNSSEC roadmap (the sizing matrix's
# roadmap states, analysis/sizes-matrix/roadmap.jq): each state's answers
# against 1232 bytes, the TC shares they cause and the TCP they ask for.
# Empty when the matrix measured no roadmap state.
def roadmap_section($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if ($s.roadmap | type) != "object" then "" else
      ["roadmap"] as $r
      | ([$s.roadmap.phases | to_entries[] | select(.value.measured) | .key]) as $rows
      | ($s.roadmap.sac133) as $sac
      | val($s; $f; $r + ["limit_bytes"]) as $lim
      | val($s; $f; $r + ["mix_profile"]) as $mix
      | (($s.roadmap.tcp.conn_per_cpu | type) == "number") as $tcpm
      | ([$s.roadmap.phases | to_entries[] | select(.value.state == "alg-double") | .key][0]) as $d
      | ([$s.roadmap.phases | to_entries[] | select(.value.state == "alg-double-2048") | .key][0]) as $c
      | def bytes_cell($i; $j):
          ($s.roadmap.phases[$i].answers[$j].bytes) as $n
          | "<td>" + val($s; $f; $r + ["phases",$i,"answers",$j,"bytes"]; 0; null)
            + (if ($n | type) == "number" and $n > $s.roadmap.limit_bytes then " <b>over</b>" else "" end) + "</td>";
        def fits_text($k):
          if $sac[$k] == null then "not measured" else
            ([$sac[$k].answers | to_entries[] | .key as $j
              | val($s; $f; $r + ["sac133",$k,"answers",$j,"answer"]) + " " + val($s; $f; $r + ["sac133",$k,"answers",$j,"bytes"]) + " bytes ("
                + (if .value.fits then "fits, margin " else "<b>does not fit</b>, margin " end)
                + val($s; $f; $r + ["sac133",$k,"answers",$j,"margin"]) + ")"]
             | join(", ")) end;
        def label_of($i): if $i == null then "not measured" else val($s; $f; $r + ["phases",$i,"label"]) end;
      "<section id=\"roadmap\"><h2>The root's DNSSEC roadmap: the algorithm roll to ECDSA and post-quantum signature sizes \(status_badge($e))</h2>"
      + ([$e.figures[] | select(.png | test("(^|/)roadmap[.]png$")) | figure(.)] | if length > 0 then "<div class=\"figs\">" + join("") + "</div>" else "" end)
      + "<p><b>The premise of cutting the RSA ZSK</b> (" + val($s; $f; $r + ["sac133","rule"]) + "). " + label_of($d) + ": " + fits_text("double_1536")
      + ". " + label_of($c) + ": " + fits_text("control_2048") + ".</p>"
      + "<table class=\"csv\"><caption>Each zone state in the roll's order, then the control and the post-quantum size models (size models, not valid "
        + "signatures): each answer's size in bytes (DO=1, the whole DNS message over TCP; <b>over</b>: larger than " + $lim
        + " bytes), the share of answers truncated (TC) with every query advertising " + $lim
        + " bytes, each such query retried over TCP; bytes per query out from the switch's SNMP counters (" + $mix
        + " mix); the TCP connections per second the truncated answers make at "
      + val($s; $f; ["settings","roadmap_rate_qps"]; 0; null) + " queries/s</caption>"
      + "<tr><th>zone state</th><th>priming</th><th>DNSKEY</th><th>referral</th><th>NXDOMAIN</th><th>TC, " + $mix
        + " mix, %</th><th>TC, all DO=1, %</th><th>B/query out</th><th>TCP conn./s</th>"
      + (if $tcpm then "<th>CPUs for them</th>" else "" end) + "</tr>"
      + ([$rows[] as $i | ($r + ["phases",$i]) as $p | $s.roadmap.phases[$i] as $ph
          | "<tr><td>" + val($s; $f; $p + ["label"])
            + (if $ph.kind == "model" then "<br><small class=\"nm\">not a valid signature"
                 + (if $ph.size_model != null then "; key " + val($s; $f; $p + ["size_model","key_bytes"]) + " B, signature "
                   + val($s; $f; $p + ["size_model","signature_bytes"]) + " B" else "" end)
                 + "</small>" else "" end) + "</td>"
            + ([range(0; 4) as $j | bytes_cell($i; $j)] | join(""))
            + "<td>" + val($s; $f; $p + ["tc_share_mix"]; 1; 100) + "</td><td>" + val($s; $f; $p + ["tc_share_do100"]; 1; 100) + "</td>"
            + "<td>" + val($s; $f; $p + ["bytes_per_query_out_mix"]; 1; null) + "</td>"
            + "<td>" + val($s; $f; $p + ["tcp_conn_needed"]; 0; null) + "</td>"
            + (if $tcpm | not then "" elif $ph.tcp_cpus_needed == null then "<td class=\"nm\">–</td>"
               else "<td>" + val($s; $f; $p + ["tcp_cpus_needed"]) + (if $ph.tcp_has_them then " (has them)" else " (<b>does not have them</b>)" end)
                 + "</td>" end) + "</tr>"]
         | join(""))
      + "</table>"
      + "<p>TCP capacity per CPU of the server: "
      + (if ($s.roadmap.tcp.conn_per_cpu | type) == "number" then
           val($s; $f; $r + ["tcp","conn_per_cpu"]; 0; null) + " connections/s (" + val($s; $f; $r + ["tcp","source"]) + "), against "
             + val($s; $f; $r + ["tcp","instance_cpus"]) + " CPU(s) an instance's servers have for TCP (<code>MATRIX_TCP_CPUS</code>)"
         else val($s; $f; $r + ["tcp","status"]) + (if $s.roadmap.tcp.note then ": " + val($s; $f; $r + ["tcp","note"]) else "" end)
           + "; the connections needed are stated, not compared" end)
      + ". " + val($s; $f; $r + ["tcp","rule"]) + ".</p>"
      + "<details><summary>What is measured</summary><p>Each state is a zone variant (docs/zones.md) built from the same key cache as today's (what each "
        + "holds: docs/sizes-matrix.md and the data page); docs/sizes-matrix.md maps them to the public roll plan as far as its text allows. The size models "
        + "carry a private algorithm number and keys and signatures as long as each standard specifies; validators refuse them; they answer how many bytes, "
        + "nothing else. The four answers come from dig on a player (DO=1, over TCP so they are whole). The truncated shares come from replaying the " + $mix
        + " query mix"
      + (if ($s.roadmap.mix_do_share | type) == "number" then " (DO=1 in " + val($s; $f; $r + ["mix_do_share"]; 1; 100)
        + " % of its queries, the latest share in this suite's data)" else "" end)
      + " and the same mix with every query DO=1, every query with an OPT record advertising " + $lim
        + " bytes, with the answers captured at the Listener; bytes per query come from the switch's SNMP counters. The answers' sizes depend on the names "
        + "asked (www.example.com. for the referral, www.example. for the NXDOMAIN) and on the server's additional-section policy.</p></details>"
      + more_link($key; $e)
      + "</section>"
    end;

# roadmap_findings($b): which phase of the roll first crosses 1232 bytes
# and with which answers, what the 2048-bit control does, and the TCP share
# each size model forces.
def roadmap_findings($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | ["roadmap"] as $r
  | if ($s.roadmap | type) != "object" then [] else
      [(if $s.roadmap.first_crossing != null then
          "In the algorithm roll, the first state whose answers outgrow " + val($s; $f; $r + ["limit_bytes"]) + " bytes is \""
            + val($s; $f; $r + ["first_crossing","label"]) + "\", with its "
          + ([$s.roadmap.first_crossing.answers | to_entries[] | val($s; $f; $r + ["first_crossing","answers",.key])] | join(" and ")) + " answer(s)."
        elif ([$s.roadmap.phases[] | select(.kind == "roll" and .measured)] | length) > 0 then
          "No measured state of the algorithm roll sends an answer over " + val($s; $f; $r + ["limit_bytes"]) + " bytes"
          + (if $s.roadmap.sac133.double_1536 != null then
               " (double-signed, the largest is " + ([$s.roadmap.sac133.double_1536.answers | to_entries | max_by(.value.bytes) | .key] | .[0] as $j
                 | val($s; $f; $r + ["sac133","double_1536","answers",$j,"answer"]) + ", " + val($s; $f; $r + ["sac133","double_1536","answers",$j,"bytes"]))
                 + " bytes)"
             else "" end) + "."
        else empty end),
       (if $s.roadmap.control_crossing != null and ($s.roadmap.control_crossing.answers | length) > 0 then
          "The control, " + val($s; $f; $r + ["control_crossing","label"]) + ", would push the "
          + ([$s.roadmap.control_crossing.answers | to_entries[] | val($s; $f; $r + ["control_crossing","answers",.key])] | join(" and "))
          + " answers over " + val($s; $f; $r + ["limit_bytes"]) + " bytes"
          + ([$s.roadmap.phases | to_entries[] | select(.value.state == "alg-double-2048") | .key][0] as $i
             | if $i == null or $s.roadmap.phases[$i].tc_share_mix == null then "" else
                 " and truncate " + val($s; $f; $r + ["phases",$i,"tc_share_mix"]; 1; 100) + " % of the " + val($s; $f; $r + ["mix_profile"])
                   + " mix's answers at that buffer" end)
          + "."
        else empty end),
       (if ($s.roadmap.models | length) > 0 then
          "Post-quantum signature sizes (size models, not valid signatures) would truncate "
          + ([$s.roadmap.models | to_entries[] | .key as $k
              | val($s; $f; $r + ["models",$k,"tc_share_mix"]; 1; 100) + " % (" + val($s; $f; $r + ["models",$k,"label"]) + ")"] | join(", "))
          + " of the " + val($s; $f; $r + ["mix_profile"]) + " mix's answers at a " + val($s; $f; $r + ["limit_bytes"]) + "-byte buffer, each one a TCP retry."
        else empty end)]
    end;

# Sizes matrix: the key-roll DNSKEY answer and truncation at 512 bytes,
# then where the root-like zone turns the instance byte-bound.
def finding_matrix($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if ok($e) and ($s.checks | type) == "object" then
      ([$s.cells | to_entries[] | select(.value.zone_state == "root" and .value.edns == "512") | .key][0]) as $j
      | ([$s.cells | to_entries[] | select(.value.zone_state == "unsigned" and .value.edns == "512") | .key][0]) as $u
      | (if ($s.checks.ksk_roll_dnskey.value | type) == "number" then
         [finding("A KSK roll grows the DNSKEY answer to " + val($s; $f; ["checks","ksk_roll_dnskey","value"]) + " bytes"
                  + (if $j != null and $u != null then "; " + val($s; $f; ["cells",$j,"tc_share"]; 1; 100) + " % of answers are truncated at "
                       + val($s; $f; ["cells",$j,"edns"]) + " bytes" else "" end) + ".";
         ["During a KSK roll the DNSKEY answer grows to " + val($s; $f; ["checks","ksk_roll_dnskey","value"])
          + " bytes (steady state: " + val($s; $f; ["checks","steady_dnskey","value"]) + ")"
          + (if $j != null and $u != null then
               "; resolvers that advertise a " + val($s; $f; ["cells",$j,"edns"]) + "-byte buffer get "
               + val($s; $f; ["cells",$j,"tc_share"]; 1; 100) + " % of the root zone's answers truncated (unsigned: "
               + val($s; $f; ["cells",$u,"tc_share"]; 1; 100) + " %), each one a retry over TCP the instance must absorb"
             else "" end) + "."])]
       else [] end)
      + ([$s.cells | to_entries[] | select(.value.zone_state == "root") | .key] as $roots
         | ([$roots[] | select($s.cells[.].edns == "trace")] + $roots)[0] as $i
         | if $i == null or ($s.cells[$i].links[0].link_qps | type) != "number" then [] else
             [finding("A " + val($s; $f; ["cells",$i,"links",0,"link_bps"]; 0; 0.000001) + " Mbit/s link is full at "
                      + val($s; $f; ["cells",$i,"links",0,"link_qps"]; 0; null) + " queries/s of the root's zone"
                      + (if ($s.server_udp_ceiling.qps | type) != "number" then ""
                         elif $s.cells[$i].links[0].link_qps < $s.server_udp_ceiling.qps then ", before the servers' UDP ceiling"
                         else ", after the servers' UDP ceiling" end) + ".";
             ["Serving the root's zone (" + val($s; $f; ["cells",$i,"cell"]) + "), a "
              + val($s; $f; ["cells",$i,"links",0,"link_bps"]; 0; 0.000001) + " Mbit/s link is full at "
              + val($s; $f; ["cells",$i,"links",0,"link_qps"]; 0; null) + " queries/s"
              + (if ($s.server_udp_ceiling.qps | type) == "number" then
                   ($s.cells[$i].links[0].link_qps < $s.server_udp_ceiling.qps) as $below
                   | (if $below then ", below" else ", not below" end) + " the servers' UDP ceiling of " + val($s; $f; ["server_udp_ceiling","qps"]; 0; null)
                     + " queries/s"
                   + (range_text($s; $f; ["server_udp_ceiling","low_qps"]; ["server_udp_ceiling","high_qps"]) | if . != "" then " (" + . + ")" else "" end)
                   + (if $below then ": the link is hit first up to about " else ": the servers are hit first; a link slower than about " end)
                   + val($s; $f; ["cells",$i,"breakeven_link_bps"]; 0; 0.000001) + " Mbit/s" + (if $below then "." else " would be hit first." end)
                 elif ($s.server_udp_ceiling.budget | type) == "number" then
                   " (the servers' UDP ceiling of this run was " + val($s; $f; ["server_udp_ceiling","status"])
                   + ", so which limit comes first is not said)."
                 else " (the servers' UDP ceiling was not measured in this run, so which limit comes first is not said)." end)])]
           end)
    else [] end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry)

# section: the matrix, then the roadmap measured with it.
def section($b; $e): sizes_matrix_section($b; $e.name; $e.heading // $e.title) + "\n" + roadmap_section($b; $e.name);
# roadmap_short($s; $f): the roadmap's Finding in one short sentence:
# where the algorithm roll first outgrows the limit.
def roadmap_short($s; $f):
  ["roadmap"] as $r
  | if $s.roadmap.first_crossing != null then
      "In the algorithm roll, answers first outgrow " + val($s; $f; $r + ["limit_bytes"]) + " bytes at \""
      + val($s; $f; $r + ["first_crossing","label"]) + "\"."
    elif ([$s.roadmap.phases[] | select(.kind == "roll" and .measured)] | length) > 0 then
      "No measured state of the algorithm roll outgrows " + val($s; $f; $r + ["limit_bytes"]) + " bytes."
    else "What the roadmap's states would send against a " + val($s; $f; $r + ["limit_bytes"]) + "-byte buffer." end;

def findings($b; $e):
  $b.exps[$e.name] as $x
  | finding_matrix($b; $e.name)
  + (roadmap_findings($b; $e.name) | if length == 0 then [] else [finding(roadmap_short($x.summary; $x.file); .)] end);
def family_rows($b; $e): "";
def family_note($b; $e): "";
def per_cpu_rows($b; $e): [];
def headline($b; $e): "";
# latency_rows: no probe in this experiment (analysis/report-probe.jq).
def latency_rows($b; $e): [];
