# report.jq: renders report.html from the bundle analysis/report builds
# (every summary.json, table, figure list and the paper's values of a run).
#
# Rule of this file: no number is typed here. Every value shown comes from
# the bundle, and every value from a results file is wrapped in
#   <span data-src="FILE:JQPATH">text</span>            (FILE relative to the run)
#   <span data-src="FILE#ROW,COL">text</span>           (a cell of a CSV table)
# optionally with data-round="N" (text = value rounded to N decimals) and
# data-scale="S" (text = value * S). Derived values (ours against the
# paper's) carry data-calc="ratio|diff" data-a=SRC data-b=SRC. The checker
# analysis/report-check recomputes each of them from the files.

include "report-lib";
include "findings";

# ------------------------------------------------------------ sections

# testbed_src($b): where the run's description of its testbed lies: its
# testbed.json, or (a run without one) the copy the first experiment
# summary holds under .testbed; {doc, file, path} or null.
def testbed_src($b):
  if $b.testbed != null then {doc: $b.testbed, file: "testbed.json", path: []}
  else ([$b.exps | to_entries[] | select((.value.summary.testbed | type) == "object")
         | {doc: .value.summary, file: .value.file, path: ["testbed"]}] | first // null)
  end;
def tv($src; $p): val($src.doc; $src.file; $src.path + $p);
def tv($src; $p; $round; $scale): val($src.doc; $src.file; $src.path + $p; $round; $scale);

# lab_section($src): a lab run's testbed (BACKEND=lab, docs/real-lab.md):
# the inventory, the ranges it declares as the lab's own, the router and
# the switch as it describes them, and the hosts as their facts say
# (scripts/lib/lab.sh lab_status_json).
def lab_section($src):
  ($src.doc | at($src.path)) as $t
  | "<h3>The lab</h3>"
  + "<p>Each role ran on a host of its own, reached over SSH (one multiplexed connection per host; the cost of one call over it, measured when the testbed came up, is the last column below); the router and the switch are the lab's devices, described by its inventory and not configured by rootbench. The hosts' facts were gathered from the hosts when the testbed came up.</p>"
  + "<table class=\"kv\">"
  + "<tr><th>inventory</th><td>\(tv($src; ["inventory"]))</td></tr>"
  + "<tr><th>ranges the lab declares as its own</th><td>\(if ($t.allow_ranges | type) == "array" and ($t.allow_ranges | length) > 0 then [range(0; $t.allow_ranges | length) as $i | tv($src; ["allow_ranges",$i])] | join(", ") else tv($src; ["allow_ranges"]) end)</td></tr>"
  + "<tr><th>router</th><td>\(tv($src; ["router","model"])); balances \(tv($src; ["router","lb"])); client leg \(tv($src; ["router","addr4_client"])) \(tv($src; ["router","addr6_client"])) (MAC \(tv($src; ["router","mac_client"]))), server leg \(tv($src; ["router","addr4_server"])) \(tv($src; ["router","addr6_server"])); "
    + (if ($t.router.snmp_host // null) != null then "SNMP agent \(tv($src; ["router","snmp_host"])): its ports sampled" else "no SNMP agent: not sampled" end) + "</td></tr>"
  + "<tr><th>switch</th><td>\(tv($src; ["switch","model"])); SNMP agent \(tv($src; ["switch","snmp_host"])), the router's port ifIndex \(tv($src; ["switch","router_port_ifindex"])): its ports sampled</td></tr>"
  + "</table>"
  + "<table class=\"csv\"><caption>hosts</caption><tr><th>role</th><th>hostname</th><th>kernel</th><th>CPUs</th><th>CPU model</th><th>NIC driver</th><th>NIC speed, Mbit/s</th><th>MAC</th><th>daemon version</th><th>SSH call overhead, median µs</th></tr>"
  + (if ($t.hosts | type) == "array" and ($t.hosts | length) > 0 then
       [range(0; $t.hosts | length) as $i | ["hosts",$i] as $h
        | "<tr><th>\(tv($src; $h + ["role"]))</th><td>\(tv($src; $h + ["hostname"]))</td><td>\(tv($src; $h + ["kernel"]))</td>"
          + "<td>\(tv($src; $h + ["cpus"]))</td><td>\(tv($src; $h + ["cpu_model"]))</td>"
          + "<td>\(tv($src; $h + ["nic","driver"]))</td><td>\(tv($src; $h + ["nic","speed_mbit"]))</td><td>\(tv($src; $h + ["nic","mac"]))</td>"
          + "<td>\(tv($src; $h + ["daemon_version"]))</td><td>\(tv($src; $h + ["ssh_call_us","median"]))</td></tr>"] | join("")
     else "<tr><td colspan=\"10\">\(tv($src; ["hosts"]))</td></tr>" end)
  + "</table>";

def testbed_section:
  . as $b | $b.testbed as $t | testbed_src($b) as $src
  | ($src != null and ($src.doc | at($src.path + ["backend"])) == "lab") as $lab
  | "<section id=\"testbed\"><h2>Testbed</h2>"
  + (if $lab then
      "<p>What the numbers below were measured on. The paper used a separate machine per role, a hardware router and a switch with links of \(val($b.paper; "paper.json"; ["setup","link_bps"])) bit/s (paper \(val($b.paper; "paper.json"; ["setup","section"]))); this run did the same on a lab of separate hosts, a router and a switch (BACKEND=lab; the lab, its hosts and devices below), so the roles did not share CPUs and the links are the lab's wires, not shaped by rootbench. Read the methodology (docs/methodology.md) and the lab's guide (docs/real-lab.md) before comparing absolute numbers.</p>"
     else
      "<p>What the numbers below were measured on. The paper used a separate machine per role, a hardware router and a switch with links of \(val($b.paper; "paper.json"; ["setup","link_bps"])) bit/s (paper \(val($b.paper; "paper.json"; ["setup","section"]))); this suite builds the same roles out of Linux network namespaces on one host, so all roles share this host's CPUs (see the pinning) and the links are virtual Ethernet pairs, unshaped unless link shaping is set. Read the methodology (docs/methodology.md) before comparing absolute numbers.</p>"
     end)
  + (if $t == null then "<p class=\"err\">No <code>testbed.json</code> in this results directory: the testbed configuration was not recorded" + (if $src != null then " (what follows is the copy " + ($src.file | esc) + " holds)" else "" end) + ".</p>"
    else
      "<table class=\"kv\">"
      + "<tr><th>testbed</th><td>\(if $lab then "a lab: separate hosts, a router and a switch (see the lab below)" else "namespaces on one machine" end)</td><td></td></tr>"
      + "<tr><th>kernel\(if $lab then " (server1)" else "" end)</th><td>\(val($t; "testbed.json"; ["kernel"]))</td><td></td></tr>"
      + "<tr><th>CPUs of the \(if $lab then "server host (server1)" else "host" end)</th><td>\(val($t; "testbed.json"; ["cpus"]))</td><td><small>paper: \(val($b.paper; "paper.json"; ["setup","cpu"]))</small></td></tr>"
      + (if $lab then "<tr><th>CPU pinning</th><td>the servers on CPU \(val($t; "testbed.json"; ["pinning","servers"])) of their hosts; the players and the listener on CPU \(val($t; "testbed.json"; ["pinning","clients"])) of theirs (inventory: rb_cpus)</td><td></td></tr>"
         else "<tr><th>CPU pinning</th><td>servers on CPU \(val($t; "testbed.json"; ["pinning","servers"])); players, listener, router, switch on CPU \(val($t; "testbed.json"; ["pinning","clients"]))</td><td></td></tr>" end)
      + "<tr><th>Server</th><td>\(val($t; "testbed.json"; ["server","name"])) \(val($t; "testbed.json"; ["server","version"])), workers \(val($t; "testbed.json"; ["server","workers"])), TCP clients \(val($t; "testbed.json"; ["server","tcp_clients"])), TCP timeout \(val($t; "testbed.json"; ["server","tcp_timeout_s"]))&nbsp;s, listen backlog \(val($t; "testbed.json"; ["server","listen_backlog"]))</td><td><small>paper: NSD \(val($b.paper; "paper.json"; ["setup","nsd_version"]))</small></td></tr>"
      + "<tr><th>load balancing</th><td>\(val($t; "testbed.json"; ["lb"]))\(if $t.lb_note then " — " + val($t; "testbed.json"; ["lb_note"]) else "" end)</td><td><small>paper: hardware routers hashing on the source address</small></td></tr>"
      + "<tr><th>link shaping</th><td>\(if $t.link == null then (if $lab then "none (the lab's wires)" else "none (unshaped veth)" end) else val($t; "testbed.json"; ["link"]) end)</td><td><small>paper: \(val($b.paper; "paper.json"; ["setup","link_bps"])) bit/s Ethernet</small></td></tr>"
      + "<tr><th>service address</th><td>\(val($t; "testbed.json"; ["service","ipv4"])) \(val($t; "testbed.json"; ["service","ipv6"]))</td><td></td></tr>"
      + "<tr><th>zones</th><td>\(if $t.zones.variant then val($t; "testbed.json"; ["zones","variant"]) else "default" end) (\(val($t; "testbed.json"; ["zones","dir"])))</td><td></td></tr>"
      + "</table>"
      + ( [$b.zones | to_entries[] | .key as $v | .value as $m | "zones/\($v).json" as $f
          | "<h4>Zone variant <code class=\"meta\">\($v | esc)</code></h4><table class=\"kv\">"
          + "<tr><th>root serial</th><td>\(val($m; $f; ["zones","root","serial"]))</td></tr>"
          + "<tr><th>root records</th><td>\(val($m; $f; ["zones","root","records"])), \(val($m; $f; ["zones","root","delegations"])) delegations</td></tr>"
          + (if ($m | at(["zones","root","dnskeys"]) | type) == "array" and ($m.zones.root.dnskeys | length) > 0 then
               ([$m.zones.root.dnskeys | to_entries[] | .key as $i
                 | "<tr><th>key \(val($m; $f; ["zones","root","dnskeys",$i,"role"]))</th><td>\(val($m; $f; ["algorithm","name"])) (algorithm \(val($m; $f; ["zones","root","dnskeys",$i,"algorithm"]))), \(val($m; $f; ["zones","root","dnskeys",$i,"bits"])) bits</td></tr>"] | join(""))
               + "<tr><th>denial</th><td>\(val($m; $f; ["denial"]))</td></tr>"
             else "<tr><th>keys</th><td>\(if $m.signed == false then "unsigned" else nm end)</td></tr>" end)
          + "</table>" + values_table($m; $f; ["keys"])] | join("") )
      + "<p><small>paper: KSK \(val($b.paper; "paper.json"; ["setup","ksk","algorithm"])) \(val($b.paper; "paper.json"; ["setup","ksk","bits"])) bits, ZSK \(val($b.paper; "paper.json"; ["setup","zsk","algorithm"])) \(val($b.paper; "paper.json"; ["setup","zsk","bits"])) bits, \(val($b.paper; "paper.json"; ["setup","denial"])).</small></p>"
      + values_table($t; "testbed.json"; ["roles","processes","snmp"] + (if $lab then ["inventory","allow_ranges","router","switch","hosts"] else [] end))
    end)
  + (if $lab then lab_section($src) else "" end)
  + "</section>";

def bench_section:
  . as $b
  | if $b.bench == null then ""
    else
      "<section id=\"bench\"><h2>This run</h2><table class=\"kv\">"
      + "<tr><th>scale</th><td>\(val($b.bench; "bench.json"; ["scale"]))</td></tr>"
      + "<tr><th>started</th><td>\(val($b.bench; "bench.json"; ["started"]))</td></tr>"
      + "<tr><th>finished</th><td>\(val($b.bench; "bench.json"; ["finished"]))</td></tr>"
      + "<tr><th>status</th><td>\(val($b.bench; "bench.json"; ["status"]))</td></tr></table>"
      + "<table class=\"csv\"><tr><th>step</th><th>make target</th><th>status</th><th>seconds</th><th>message</th></tr>"
      + ([$b.bench.steps // [] | to_entries[] | .key as $i
          | "<tr><td>\(val($b.bench; "bench.json"; ["steps",$i,"name"]))</td><td>\(val($b.bench; "bench.json"; ["steps",$i,"target"]))</td><td>\(val($b.bench; "bench.json"; ["steps",$i,"status"]))</td><td>\(val($b.bench; "bench.json"; ["steps",$i,"seconds"]))</td><td>\(if .value.error then val($b.bench; "bench.json"; ["steps",$i,"error"]) else "" end)</td></tr>"]
         | join(""))
      + "</table></section>"
    end;

def udp_section($b; $key; $title; $note):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"\($key)\"><h2>\($title) \(status_badge($e))</h2>"
  + (if $note != "" then "<p><b>This run.</b> \($note)</p>" else "" end)
  + (if range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"]) != "" then
       "<p><b>The ceiling.</b> " + range_text($s; $f; ["ceiling_low_qps"]; ["ceiling_high_qps"])
       + ": every repetition answered its share up to the lower rate, at least one fell short at the higher"
       + (if ($s.repetitions_max | type) == "number" then " (up to " + val($s; $f; ["repetitions_max"]) + " repetitions per rate)" else "" end)
       + (if ($s.non_monotonic | type) == "array" and ($s.non_monotonic | length) > 0 then
            "; <b>not monotonic</b>: every repetition held again at " + ([$s.non_monotonic | to_entries[] | val($s; $f; ["non_monotonic", .key])] | join(", "))
            + " queries/s, above the first failure (shown, not taken as the ceiling)"
          else "" end) + ".</p>"
     else "" end)
  + (if ($e.summary.verdict | type) == "object" then "<p><b>Where the answers were lost.</b> \(val($e.summary; $e.file; ["verdict","summary"]))</p>" else "" end)
  + (if ($s.per_cpu.qps_per_cpu | type) == "number" then
       "<p><b>Per CPU of the server.</b> " + val($s; $f; ["per_cpu","qps_per_cpu"]; 0; null)
       + " answers/s per CPU: the ceiling over the server CPU's busy share there, " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null)
       + " % (the daemon and its kernel receive path)"
       + (if ($s.per_cpu.budget | type) == "number" then "; the daemons were limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each (a whole CPU is a projection)" else "" end)
       + ".</p>"
     elif ($s.per_cpu.budget | type) == "number" then
       "<p><b>Per CPU of the server.</b> The daemons were limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each; no per-CPU figure: " + val($s; $f; ["per_cpu","rule"]) + ".</p>"
     else "" end)
  + "<p><b>What is measured.</b> The players replay DNS queries over UDP at a rising rate towards the service address; the answers go to the Listener, which only counts them. For each offered rate the fraction answered is recorded. The <em>ceiling</em> is the highest answered rate; the <em>critical points</em> are the steps where the answered fraction falls. The paper (\(val($p; "paper.json"; ["udp","section"]))) found its instance limited by its network link of \(val($p; "paper.json"; ["udp","link_bps"])) bit/s, not by the servers: the answered rate stopped growing where answers of the average size filled the link. The physics check below compares our ceiling with the link rate divided by the average answer size on the wire; if they agree, this run too was limited by the link, and the servers' own capacity is above it.</p>"
  + status_text($e; "the UDP experiment")
  + if $s == null then "</section>" else
      cmp_head(val($p; "paper.json"; ["udp","section"]))
      + cmp_row("ceiling, answered q/s (paper: Juniper)"; $s; $f; ["ceiling_qps"]; 0; null; $p; ["udp","ceiling_qps","juniper"]; null)
      + cmp_row("ceiling, answered q/s (paper: Cisco)"; $s; $f; ["ceiling_qps"]; 0; null; $p; ["udp","ceiling_qps","cisco"]; null)
      + cmp_row("link rate, bit/s"; $s; $f; ["link_bps"]; 0; null; $p; ["udp","link_bps"]; null)
      + cmp_row("mean answer on the wire, bytes (paper: Table 2 unsigned, out per query)"; $s; $f; ["mean_answer_wire_bytes"]; 1; null; $p; ["sizes","tests","unsigned","bytes_per_query_out"]; null)
      + "</table>"
      + (if ($s.physics_check | type) == "object" then
           "<h4>Physics check</h4><table class=\"kv\">"
           + ([$s.physics_check | paths(scalars) | . as $q | "<tr><th><code>\($q | pathstr | esc)</code></th><td>\(val($s; $f; ["physics_check"] + $q))</td></tr>"] | join(""))
           + "</table>"
         else "<p>Physics check: \(nm)</p>" end)
      + "<h4>Critical points</h4><div class=\"pair\"><table class=\"csv\"><caption>this run</caption><tr><th>sent q/s (achieved)</th><th>repetition</th><th>answered q/s</th><th>answered fraction</th></tr>"
      + (if ($s.critical_points | type) == "array" and ($s.critical_points | length) > 0 then
           [$s.critical_points | to_entries[] | .key as $i
            | "<tr><td>\(val($s; $f; ["critical_points",$i,"achieved_qps"]; 1; null))</td><td>\(val($s; $f; ["critical_points",$i,"rep"]))</td><td>\(val($s; $f; ["critical_points",$i,"answered_qps"]; 1; null))</td><td>\(val($s; $f; ["critical_points",$i,"answer_ratio"]; 6; null))</td></tr>"] | join("")
         else "<tr><td colspan=\"4\">\(nm)</td></tr>" end)
      + "</table><table class=\"csv\"><caption>paper, Table 1 (router hashing)</caption><tr><th>offered q/s</th><th>answered fraction</th></tr>"
      + ([$p.udp.critical_points | to_entries[] | .key as $i
          | "<tr><td>\(val($p; "paper.json"; ["udp","critical_points",$i,"offered_qps"]; 1; null))</td><td>\(val($p; "paper.json"; ["udp","critical_points",$i,"ratio"]; 6; null))</td></tr>"] | join(""))
      + "</table></div>"
      + figures($e) + tables($e; ["points.csv"])
      + settings_table($s; $f; $b.labels[$s.experiment] // {}) + values_table($s; $f; ["testbed","settings"])
      + "</section>"
    end;

# sizes: .variants as an object {name: {...}} or an array [{name|variant: ...}].
def size_variants($s):
  if ($s.variants | type) == "object" then [$s.variants | to_entries[] | {name: .key, path: ["variants", .key]}]
  elif ($s.variants | type) == "array" then [$s.variants | to_entries[] | {name: (.value.name // .value.variant // (.key | tostring)), path: ["variants", .key]}]
  else [] end;
def paper_size_key($name):
  if ($name | test("unsigned")) then "unsigned"
  elif ($name | test("300")) then "signed_300k"
  elif ($name | test("signed")) then "signed"
  else null end;

def sizes_section($b):
  $b.exps.sizes as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"sizes\"><h2>Response sizes, unsigned and signed \(status_badge($e))</h2>"
  + "<p><b>What is measured.</b> The same query set is sent slowly (so every query is answered) once to servers with the unsigned root zone and once with a DNSSEC-signed one. The switch's SNMP octet counters on the router's server-side port give the bytes on the wire in both directions; divided by the number of queries they give bytes per query. The growth of the answers is what signing costs in bandwidth. The paper (\(val($p; "paper.json"; ["sizes","section"]))) found less growth than expected, because many queries, especially those answered NXDOMAIN, do not ask for DNSSEC records (no OPT record or DO bit clear), so their answers do not grow; the tables of response codes, DO/OPT shares and advertised EDNS sizes test that explanation on this run's query set.</p>"
  + status_text($e; "the sizes experiment")
  + if $s == null then "</section>" else
      ( [size_variants($s)[] | . as $v | paper_size_key($v.name) as $k
          | "<h4>Variant <code class=\"meta\">\($v.name | esc)</code></h4>" + cmp_head(val($p; "paper.json"; ["sizes","section"]))
          + cmp_row("queries"; $s; $f; $v.path + ["queries"]; null; null; $p; (if $k then ["sizes","tests",$k,"queries"] else null end); null)
          + cmp_row("bytes in (queries, SNMP)"; $s; $f; $v.path + ["bytes_in"]; null; null; $p; (if $k then ["sizes","tests",$k,"bytes_in"] else null end); null)
          + cmp_row("bytes out (answers, SNMP)"; $s; $f; $v.path + ["bytes_out"]; null; null; $p; (if $k then ["sizes","tests",$k,"bytes_out"] else null end); null)
          + cmp_row("bytes per query in"; $s; $f; $v.path + ["bytes_per_query_in"]; 1; null; $p; (if $k then ["sizes","tests",$k,"bytes_per_query_in"] else null end); null)
          + cmp_row("bytes per query out"; $s; $f; $v.path + ["bytes_per_query_out"]; 1; null; $p; (if $k then ["sizes","tests",$k,"bytes_per_query_out"] else null end); null)
          + (if $k != null and $k != "unsigned" then cmp_row("growth of answers vs unsigned, %"; $s; $f; $v.path + ["growth_vs_unsigned"]; 1; 100; $p; ["sizes","growth_vs_unsigned"]; null) else "" end)
          + "</table>"] | if length == 0 then "<p>Per-variant bytes: \(nm)</p>" else join("") end )
      + figures($e)
      + "<h4>This run's tables</h4>" + tables($e; [])
      + "<h4>The paper's tables</h4><div class=\"pair\">"
      + "<table class=\"csv\"><caption>\(val($p; "paper.json"; ["sizes","rcodes","section"]))</caption><tr><th>rcode</th><th></th><th>unsigned</th><th>share</th><th>signed</th><th>share</th></tr>"
      + ([$p.sizes.rcodes.rows | to_entries[] | .key as $i | ["sizes","rcodes","rows",$i] as $q
          | "<tr><td>\(val($p; "paper.json"; $q + ["code"]))</td><td>\(val($p; "paper.json"; $q + ["name"]))</td><td>\(val($p; "paper.json"; $q + ["unsigned"]))</td><td>\(if .value.unsigned_share then val($p; "paper.json"; $q + ["unsigned_share"]; 1; 100) + "%" else "" end)</td><td>\(val($p; "paper.json"; $q + ["signed"]))</td><td>\(if .value.signed_share then val($p; "paper.json"; $q + ["signed_share"]; 1; 100) + "%" else "" end)</td></tr>"] | join(""))
      + "<tr><th colspan=\"2\">total</th><td>\(val($p; "paper.json"; ["sizes","rcodes","total","unsigned"]))</td><td></td><td>\(val($p; "paper.json"; ["sizes","rcodes","total","signed"]))</td><td></td></tr></table>"
      + "<table class=\"csv\"><caption>\(val($p; "paper.json"; ["sizes","no_dnssec","section"]))</caption>"
      + "<tr><td>NXDOMAIN</td><td>\(val($p; "paper.json"; ["sizes","no_dnssec","nxdomain"]; 0; 100))%</td></tr>"
      + "<tr><td>NOERROR</td><td>\(val($p; "paper.json"; ["sizes","no_dnssec","noerror"]; 0; 100))%</td></tr>"
      + "<tr><td>overall</td><td>\(val($p; "paper.json"; ["sizes","no_dnssec","overall"]; 0; 100))%</td></tr></table>"
      + "<table class=\"csv\"><caption>\(val($p; "paper.json"; ["sizes","edns_sizes","section"]))</caption><tr><th>EDNS size</th><th>count</th><th>share</th></tr>"
      + ([$p.sizes.edns_sizes.rows | to_entries[] | .key as $i | ["sizes","edns_sizes","rows",$i] as $q
          | "<tr><td>\(val($p; "paper.json"; $q + ["size"]))</td><td>\(val($p; "paper.json"; $q + ["count"]))</td><td>\(if .value.share then val($p; "paper.json"; $q + ["share"]; 0; 100) + "%" else "" end)</td></tr>"] | join(""))
      + "</table></div>"
      + settings_table($s; $f; $b.labels[$s.experiment] // {}) + values_table($s; $f; ["testbed","settings"])
      + "</section>"
    end;

def lb_section($b):
  $b.exps.lb as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"lb\"><h2>TCP load-balancer stickiness \(status_badge($e))</h2>"
  + "<p><b>What is measured.</b> DNS over TCP needs every packet of a connection to reach the same server; a balancer that splits a connection breaks it. Many client source addresses each make TCP queries; both servers record which sources reached them. The verdict is <em>pass</em> only when every query succeeded, no source reached both servers (overlap) and no connection was split. The paper (\(val($p; "paper.json"; ["lb","section"]))) found both routers sticky and the sources shared about evenly between the two servers. A per-packet balancer, which must fail this check, is its negative control.</p>"
  + status_text($e; "the load-balancer check")
  + if $s == null then "</section>" else
      cmp_head(val($p; "paper.json"; ["lb","section"]))
      + "<tr><th>verdict</th><td>\(val($s; $f; ["verdict"]))</td><td></td><td></td><td></td></tr>"
      + cmp_row("client source addresses"; $s; $f; ["sources"]; null; null; $p; ["lb","sources"]; null)
      + cmp_row("TCP queries"; $s; $f; ["queries"]; null; null; $p; null; null)
      # rootbench.lb/1 holds these as objects ({total, refused, ...},
      # {count, sample}): the figure is their total or count
      + cmp_row("failed queries"; $s; $f; ["failed"] | in_object($s; "total"); null; null; $p; ["lb","failed"]; null)
      + cmp_row("sources seen by both servers (overlap)"; $s; $f; ["overlap_sources"] | in_object($s; "count"); null; null; $p; ["lb","overlap_sources"]; null)
      + cmp_row("connections split across servers"; $s; $f; ["split_connections"] | in_object($s; "count"); null; null; $p; ["lb","split_connections"]; null)
      + ( if ($s.per_server | type) == "object" then
            [$s.per_server | keys[] as $k
             | cmp_row("sources on \($k) (paper: Juniper)"; $s; $f; ["per_server",$k] + (if ($s.per_server[$k] | type) == "object" then ["sources"] else [] end); null; null; $p; ["lb","per_server","juniper",$k]; null)
             + cmp_row("sources on \($k) (paper: Cisco)"; $s; $f; ["per_server",$k] + (if ($s.per_server[$k] | type) == "object" then ["sources"] else [] end); null; null; $p; ["lb","per_server","cisco",$k]; null)] | join("")
          else "" end )
      + "</table>"
      + figures($e) + tables($e; [])
      + (if $e.texts | length > 0 then ([$e.texts[] | "<p>Text report: <a href=\"\(esc)\"><code>\(esc)</code></a></p>"] | join("")) else "" end)
      + settings_table($s; $f; $b.labels[$s.experiment] // {}) + values_table($s; $f; ["testbed","settings"])
      + "</section>"
    end;

# tcp_per_cpu: the knee per CPU of the server under a CPU budget (rules.jq
# per_cpu), with what it rests on, or why there is none.
def tcp_per_cpu($s; $f):
  if ($s.per_cpu.conn_per_cpu | type) == "number" then
    "<p><b>Per CPU of the server.</b> " + val($s; $f; ["per_cpu","conn_per_cpu"]; 0; null)
    + " connections/s per CPU: the handled rate, " + val($s; $f; ["per_cpu","handled_rate"]; 0; null)
    + "/s at " + val($s; $f; ["per_cpu","at_rate"]; 0; null) + "/s offered (the knee: " + val($s; $f; ["per_cpu","knee_rate"]; 0; null)
    + "/s), over the server CPU's busy share while the load ran, " + val($s; $f; ["per_cpu","server_cpu_busy_pct"]; 1; null)
    + " % (the daemon and its kernel work)"
    + (if ($s.per_cpu.budget | type) == "number" then "; the daemons were limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each and used "
         + val($s; $f; ["per_cpu","daemon_cpu_pct"]; 1; null) + " % of a CPU; a whole CPU's figure is this projection, not a measurement" else "" end)
    + ". The generator's CPU was " + val($s; $f; ["per_cpu","client_cpu_busy_pct"]; 1; null) + " % busy there"
    + (if $s.per_cpu.generator_headroom_ok == false then " (<b class=\"err\">less than 30 % headroom: the rig was near its own limit</b>)" else "" end)
    + "."
    + (if ($s.per_cpu.demand_per_cpu | type) == "number" then
         " Cross-check (utilisation law, below the knee): " + val($s; $f; ["per_cpu","demand_us"]; 1; null)
         + " µs of server CPU per connection, " + val($s; $f; ["per_cpu","demand_per_cpu"]; 0; null)
         + " connections/s per CPU; measured / that: " + val($s; $f; ["per_cpu","demand_ratio"]) + "."
       else "" end)
    + "</p>"
  elif ($s.per_cpu.budget | type) == "number" then
    "<p><b>Per CPU of the server.</b> The daemons were limited to " + val($s; $f; ["per_cpu","budget"]) + " CPU each; no per-CPU figure: " + val($s; $f; ["per_cpu","rule"]) + ".</p>"
  else "" end;

# tcp_verdict: where a configuration lost its first work, in words, with
# the counter that proves it; the Little's-law prediction beside the
# measured knee; the spread over repetitions.
def tcp_verdict($s; $f):
  if ($s.verdict | type) != "object" then "" else
    "<h4>Verdict: where the work was lost</h4><p>"
    + val($s; $f; ["verdict","summary"]) + ". "
    + (if $s.verdict.evidence then "Evidence: " + val($s; $f; ["verdict","evidence"]) + ". " else "" end)
    + (if $s.verdict.knee == true then
         (if $s.verdict.server_capacity == true then "This knee is the <b>server's capacity</b> on this testbed."
          else "This knee is <b>not</b> the server's capacity: it was caused by " + val($s; $f; ["verdict","caused_by"]) + ", layer " + val($s; $f; ["verdict","layer"]) + "." end)
       else "" end)
    + "</p>"
    + tcp_per_cpu($s; $f)
    + (if ($s.prediction.predicted | type) == "object" then
         "<p>Predicted knee (Little's law, from what was measured below the knee): "
         + val($s; $f; ["prediction","predicted","total"]) + " connections/s, by "
         + val($s; $f; ["prediction","predicted","mechanism"]) + " ("
         + val($s; $f; ["prediction","predicted","because"]) + "); measured: "
         + val($s; $f; ["prediction","measured"]) + "; measured / predicted "
         + val($s; $f; ["prediction","ratio"]) + ".</p>"
       else "" end)
    + (if ($s.repetitions.fail_0_1pct.n // 0) > 0 then
         "<p>The 0.1 % crossing over " + val($s; $f; ["repetitions","fail_0_1pct","n"]) + " repetitions: min "
         + val($s; $f; ["repetitions","fail_0_1pct","min"]) + ", median " + val($s; $f; ["repetitions","fail_0_1pct","median"])
         + ", max " + val($s; $f; ["repetitions","fail_0_1pct","max"]) + " connections/s (spread "
         + val($s; $f; ["repetitions","fail_0_1pct","spread_pct"]) + " % of the median)"
         + (if $s.repetitions.fail_0_1pct.flagged then " <b class=\"err\">FLAGGED: the knee moves more than 5 % between repetitions; not averaged away</b>" else "" end)
         + ".</p>"
       else "" end)
  end;

def tcp_section($b):
  $b.exps.tcp as $e | $b.paper as $p
  | ($e.subs // {}) as $subs
  | "<section id=\"tcp\"><h2>TCP capacity \(status_badge($e))</h2>"
  + "<p><b>What is measured.</b> An open-loop generator opens TCP connections at a fixed rate, each sending one query and waiting for the answer, with a timeout; a connection not completed in time fails. For each rate the fraction of failed connections is recorded. Three configurations separate the causes: one player and one server (1p1s), two players and one server (2p1s: if the curve does not move, the players are not the limit), two players and two servers in pairs (2p2s: if the total doubles, the network is not the limit). A point where the generator could not keep its schedule is marked invalid and is not a server result. On this testbed every layer's counters are sampled at every point (generator, players, switch, router, link, server kernel, server daemon), and each configuration gets a verdict: the layer that lost the first work, the counter that shows it, and whether the server or the rig caused it; a knee the rig caused is never shown as the server's capacity. The paper (\(val($p; "paper.json"; ["tcp","section"]))) reports the rates where one per mille and one percent of connections fail and the rate where the server collapses.</p>"
  + status_text($e; "the TCP experiment")
  + ( [ ["1p1s","2p1s","2p2s"][] as $c | $subs[$c] as $cs | ($cs.summary // null) as $s | "tcp/\($c)/summary.json" as $f
        | "<h3>\($c | esc)</h3>"
        + if $s == null then "<p class=\"err\">No results for configuration \($c | esc).</p>" else
            status_text({summary: $s, summary_error: null, file: $f, dir_exists: true, target: "tcp"}; "this configuration")
            + cmp_head(val($p; "paper.json"; ["tcp",$c,"section"]))
            + cmp_row("rate where 0.1% of connections fail, q/s"; $s; $f; ["fail_0_1pct_qps"]; 0; null; $p; (if $p.tcp[$c].fail_0_1pct_qps then ["tcp",$c,"fail_0_1pct_qps"] else null end); null)
            + cmp_row("rate where 1% of connections fail, q/s"; $s; $f; ["fail_1pct_qps"]; 0; null; $p; (if $p.tcp[$c].fail_1pct_qps then ["tcp",$c,"fail_1pct_qps"] else null end); null)
            + cmp_row("highest answered rate, q/s"; $s; $f; ["max_qps"]; 0; null; $p; (if $p.tcp[$c].max_qps then ["tcp",$c,"max_qps"] else null end); null)
            + cmp_row("collapse, q/s"; $s; $f; ["collapse_qps"]; 0; null; $p; (if $p.tcp[$c].collapse_qps then ["tcp",$c,"collapse_qps"] else null end); null)
            + (if $c == "2p2s" then
                 "<tr><th>highest answered rate vs 1p1s</th><td>"
                 + calc("ratio"; ref($s; $f; ["max_qps"]); ref($subs["1p1s"].summary; "tcp/1p1s/summary.json"; ["max_qps"]); 2; null)
                 + "</td><td>\(val($p; "paper.json"; ["tcp","2p2s","factor_vs_1p1s"]))</td><td></td><td></td></tr>"
               else "" end)
            + "</table>"
            # A crossing that is absent was not reached: say below which rate,
            # and whether the generator, not the server, ended the sweep.
            # (one string for both crossings: a generator here would repeat
            # the whole configuration once per crossing)
            + ([[["fail_0_1pct","0.1%"],["fail_1pct","1%"]][] as [$k, $name]
               | if ($s[$k].not_reached // false) and ($s[$k].below != null) then
                   "<p>No valid rate up to \(val($s; $f; [$k,"below"])) q/s made \($name) of the connections fail"
                   + (if ($s.generator_limited_points // 0) > 0 then "; above it the generator could not keep its schedule (generator-limited points: \(val($s; $f; ["generator_limited_points"]))), so this run has no server result there.</p>" else ".</p>" end)
                 else "" end] | join(""))
            + tcp_verdict($s; $f)
            + values_table($s; $f; ["testbed","settings","loss_by_layer","layers"])
          end ] | join("") )
  + figures($e) + tables($e; ["1p1s/points.csv","2p1s/points.csv","2p2s/points.csv"])
  + (if $e.summary then settings_table($e.summary; $e.file; $b.labels[$e.summary.experiment] // {}) + values_table($e.summary; $e.file; ["testbed","settings","configs"]) else "" end)
  + "</section>";

# tcp-limits (make tcp-limits): how tcp-count and the backlog move the knee.
def tcp_limits_section($b):
  $b.exps["tcp-limits"] as $e | ($e.summary) as $s | $e.file as $f
  | if $s == null then "" else
      "<section id=\"tcp-limits\"><h2>TCP knee against NSD's tcp-count and the listen backlog \(status_badge($e))</h2>"
      + "<p><b>What is measured.</b> The 1p1s TCP sweep once per combination of NSD's tcp-count and the servers' listen backlog. Each combination's knee is set beside the knee Little's law predicts from what was measured below it (the longest server stall against the backlog, the time a connection holds a tcp-count slot, the server CPU per connection); the figure puts predicted against measured.</p>"
      + status_text($e; "the tcp-limits experiment")
      + "<table class=\"csv\"><tr><th>tcp-count</th><th>backlog</th><th>knee (0.1 % failed)</th><th>predicted</th><th>predicted by</th><th>verdict</th></tr>"
      + ([$s.combinations // [] | to_entries[] | .key as $i
          | "<tr><td>\(val($s; $f; ["combinations",$i,"tcp_count"]))</td><td>\(val($s; $f; ["combinations",$i,"backlog"]))</td><td>\(val($s; $f; ["combinations",$i,"knee"]))</td><td>\(val($s; $f; ["combinations",$i,"predicted"]))</td><td>\(val($s; $f; ["combinations",$i,"predicted_by"]))</td><td>\(val($s; $f; ["combinations",$i,"verdict"]))</td></tr>"] | join(""))
      + "</table>"
      + figures($e) + tables($e; [])
      + "</section>"
    end;

# compare (make compare-servers): the servers side by side, each value from
# compare/summary.json, which copies it from that server's own summary.
def compare_section($b):
  $b.exps.compare as $e | $e.summary as $s | $e.file as $f
  | if $e.dir_exists | not then "" else
    "<section id=\"compare\"><h2>Servers compared \(status_badge($e))</h2>"
    + "<p><b>What is measured.</b> The same experiments against each server software in turn, on the same testbed, zones and traces: the UDP ceiling on an unshaped link, bytes per query on the unsigned and the paper's signed zone (from the switch's SNMP counters), and the TCP sweep 1p1s with the verdict on its knee; the servers take turns, repetition by repetition. A knee the verdict does not attribute to the server is the rig's, not the server's capacity. The servers' settings side by side, and what each adds to an answer: docs/servers.md. Each server's full report: "
    + ([$s.servers // [] | to_entries[] | .key as $i | .value as $row | "\(val($s; $f; ["servers", $i, "name"])) " + ([range(1; $row.repetitions + 1) | "<a href=\"servers/\($row.server | esc)/r\(.)/report.html\">r\(.)</a>"] | join(" "))] | join(" · ")) + ".</p>"
    + status_text($e; "the comparison of servers")
    + (if $s == null then "" else
        "<p>Each figure is the median over the repetitions, with the lowest and the highest beside it; a figure that moved more than 5 % from its median is marked <b>moved &gt;5 %</b>, not averaged away.</p>"
        + "<table class=\"cmp\"><tr><th>server</th><th>version</th><th>listen backlog</th><th>minimal responses</th><th>repetitions</th><th>UDP ceiling unshaped (answers/s)</th><th>UDP ceiling's range, sent q/s (lowest held, highest first failure)</th><th>TCP knee, 0.1 % failed (conn/s)</th><th>bytes per query out, unsigned</th><th>signed</th><th>growth</th><th>server CPU budget</th><th>UDP answers/s per CPU (projection)</th><th>TCP conn/s per CPU (projection)</th></tr>"
        + ([$s.servers | to_entries[] | .key as $i
            | def fig($path; $round): ($s | getpath(["servers",$i] + $path)) as $v
                | if ($v.n // 0) == 0 then nm
                  else "\(val($s; $f; ["servers",$i] + $path + ["median"]; $round; null)) <small>(\(val($s; $f; ["servers",$i] + $path + ["min"]; $round; null))&ndash;\(val($s; $f; ["servers",$i] + $path + ["max"]; $round; null)), n = \(val($s; $f; ["servers",$i] + $path + ["n"])))</small>"
                       + (if $v.flagged then " <b>moved &gt;5 %</b>" else "" end) end;
            "<tr><th>\(val($s; $f; ["servers",$i,"name"]))</th><td>\(val($s; $f; ["servers",$i,"version"]))</td>"
              + "<td>\(val($s; $f; ["servers",$i,"listen_backlog"]))</td><td>\(val($s; $f; ["servers",$i,"minimal_responses"]))</td>"
              + "<td>\(val($s; $f; ["servers",$i,"repetitions"]))</td>"
              + "<td>\(fig(["udp","ceiling_qps"]; null))</td>"
              + "<td>\(if ($s.servers[$i].udp.ceiling_low_qps.n // 0) > 0 and ($s.servers[$i].udp.ceiling_high_qps.n // 0) > 0 then val($s; $f; ["servers",$i,"udp","ceiling_low_qps","min"]; 0; null) + "&ndash;" + val($s; $f; ["servers",$i,"udp","ceiling_high_qps","max"]; 0; null) else nm end)</td>"
              + "<td>\(fig(["tcp","knee_0_1pct"]; null))</td>"
              + "<td>\(fig(["sizes","bytes_per_query_out_unsigned"]; null))</td>"
              + "<td>\(fig(["sizes","bytes_per_query_out_signed"]; null))</td>"
              + "<td>\(fig(["sizes","growth_vs_unsigned"]; 3))</td>"
              + "<td>\(val($s; $f; ["servers",$i,"cpu_budget"]))</td>"
              + "<td>\(fig(["udp","qps_per_cpu"]; null))</td>"
              + "<td>\(fig(["tcp","conn_per_cpu"]; null))</td></tr>"] | join(""))
        + "</table>"
        + "<h3>TCP verdicts</h3><p>Where each server's TCP sweep lost its first work, per repetition. Only a knee the verdict gives to the server is the server's capacity; a knee of the rig (the generator, a stall from outside, the players) says what this machine could measure, not what the server can do.</p><ul>"
        + ([$s.servers | to_entries[] | .key as $i | .value.tcp.verdicts | to_entries[] | .key as $j
            | "<li>\(val($s; $f; ["servers",$i,"name"])), repetition \($j + 1): \(val($s; $f; ["servers",$i,"tcp","verdicts",$j])) (server's capacity: \(val($s; $f; ["servers",$i,"tcp","server_capacity",$j])))</li>"] | join(""))
        + "</ul>"
        + "<p>Status of each server's experiments, per repetition: " + ([$s.servers | to_entries[] | .key as $i
            | "\(val($s; $f; ["servers",$i,"name"])): UDP \([.value.udp.statuses | to_entries[] | val($s; $f; ["servers",$i,"udp","statuses",.key])] | join("/")), sizes \([.value.sizes.statuses | to_entries[] | val($s; $f; ["servers",$i,"sizes","statuses",.key])] | join("/")), TCP \([.value.tcp.statuses | to_entries[] | val($s; $f; ["servers",$i,"tcp","statuses",.key])] | join("/"))"] | join("; ")) + ".</p>"
        + "<h3>Tables</h3><p>The answer codes and answer sizes of each server's sizes run, copied from its results: differences in bytes per query come from what each server puts in an answer's authority and additional sections (docs/servers.md).</p>"
        + tables($e; [])
        + values_table($s; $f; ["schema","experiment"])
      end)
    + "</section>"
  end;

# ------------------------------------------------------------ families

# fam_row: one figure of an experiment over IPv4 ($e4) and IPv6 ($e6),
# with the ratio IPv6 / IPv4 and the difference when both are numbers.
def fam_row($what; $e4; $e6; $path; $round; $scale):
  "<tr><th>\($what)</th><td>\(val($e4.summary; $e4.file; $path; $round; $scale))</td><td>\(val($e6.summary; $e6.file; $path; $round; $scale))</td>"
  + "<td>\(calc("ratio"; ref($e6.summary; $e6.file; $path); ref($e4.summary; $e4.file; $path); 3; null))</td>"
  + "<td>\(calc("diff"; ref($e6.summary; $e6.file; $path); ref($e4.summary; $e4.file; $path); $round; $scale))</td></tr>";
def fam_head: "<table class=\"cmp\"><tr><th></th><th>IPv4</th><th>IPv6</th><th>ratio IPv6 / IPv4</th><th>difference</th></tr>";

# fam_rows($k; $e4; $e6): the figures compared for experiment kind $k.
def fam_rows($k; $e4; $e6):
  if $k == "udp" then
    fam_row("status"; $e4; $e6; ["status"]; null; null)
    + fam_row("ceiling, answered q/s"; $e4; $e6; ["ceiling_qps"]; 0; null)
    + fam_row("most answered q/s at ratio above the threshold"; $e4; $e6; ["by_lb",0,"max_good_answered_qps"]; 0; null)
    + fam_row("mean answer on the wire, bytes"; $e4; $e6; ["mean_answer_wire_bytes"]; 1; null)
    + fam_row("layer that lost the first answers"; $e4; $e6; ["verdict","layer"]; null; null)
  elif $k == "sizes" then
    fam_row("status"; $e4; $e6; ["status"]; null; null)
    + ([(($e4.summary.variants // {}) | keys_unsorted[]) as $v | select(($e6.summary.variants // {}) | has($v))
        | fam_row("\($v): bytes per query in"; $e4; $e6; ["variants",$v,"bytes_per_query_in"]; 1; null)
          + fam_row("\($v): bytes per query out"; $e4; $e6; ["variants",$v,"bytes_per_query_out"]; 1; null)
          + fam_row("\($v): growth of answers vs unsigned, %"; $e4; $e6; ["variants",$v,"growth_vs_unsigned"]; 1; 100)] | join(""))
  elif $k == "lb" then
    fam_row("verdict"; $e4; $e6; ["verdict"]; null; null)
    + fam_row("balancer"; $e4; $e6; ["lb"]; null; null)
    + fam_row("client source addresses"; $e4; $e6; ["sources"]; null; null)
    + fam_row("TCP queries"; $e4; $e6; ["queries"]; null; null)
    + fam_row("failed queries"; $e4; $e6; ["failed","total"]; null; null)
    + fam_row("sources seen by both servers"; $e4; $e6; ["overlap_sources","count"]; null; null)
    + fam_row("connections split across servers"; $e4; $e6; ["split_connections","count"]; null; null)
    + fam_row("router IPv6 hash policy (net.ipv6.fib_multipath_hash_policy)"; $e4; $e6; ["flow_label","router_hash_policy"]; null; null)
    + fam_row("sources whose connections carried several flow labels"; $e4; $e6; ["flow_label","sources_with_several_labels"]; null; null)
    + fam_row("of them on both servers"; $e4; $e6; ["flow_label","of_them_on_both_servers"]; null; null)
    + fam_row("connections whose flow label changed"; $e4; $e6; ["flow_label","connections_label_changed"]; null; null)
    + fam_row("flow label in the hash (measured)"; $e4; $e6; ["flow_label","measured_in_hash"]; null; null)
  elif $k == "tcp" then
    fam_row("status"; $e4; $e6; ["status"]; null; null)
    + ([(($e4.summary.configs // {}) | keys[]) as $c | select(($e6.summary.configs // {}) | has($c))
        | fam_row("\($c): 0.1 % failed at, conn/s"; $e4; $e6; ["configs",$c,"fail_0_1pct_qps"]; 0; null)
          + fam_row("\($c): 1 % failed at, conn/s"; $e4; $e6; ["configs",$c,"fail_1pct_qps"]; 0; null)
          + fam_row("\($c): most handled, conn/s"; $e4; $e6; ["configs",$c,"max_qps"]; 0; null)
          + fam_row("\($c): verdict"; $e4; $e6; ["configs",$c,"verdict","summary"]; null; null)] | join(""))
  else "" end;

# family_section: every experiment run over IPv6 (<name>-v6/) beside its
# IPv4 run (<name>/), figure by figure; nothing when none ran over IPv6.
def family_section($b):
  [$b.registry[] | select(.v6) | [.name, .labels, .title]] as $pairs
  | [$pairs[] | select($b.exps[.[0] + "-v6"].dir_exists // false)] as $ran
  | if ($ran | length) == 0 then "" else
    "<section id=\"family\"><h2>IPv4 and IPv6 side by side</h2>"
    + "<p><b>What is compared.</b> Each experiment below ran once over IPv4 (to the service address \(val($b.testbed; "testbed.json"; ["service","ipv4"])), results in <code>&lt;experiment&gt;/</code>) and once over IPv6 (to \(val($b.testbed; "testbed.json"; ["service","ipv6"])) through the router's IPv6 ECMP, answers to the Listener's IPv6 address, results in <code>&lt;experiment&gt;-v6/</code>), with the same settings and, for the UDP experiments and sizes, the same DNS queries. An IPv6 header without extensions is twice as long as an IPv4 header without options, so every query and answer is longer on the wire by the difference. For the load balancer, IPv6 adds the flow label: whether the router hashes it decides whether one source's connections can reach both servers (docs/lb-verify.md).</p>"
    + ([$ran[] | .[0] as $n | .[1] as $k | $b.exps[$n] as $e4 | $b.exps[$n + "-v6"] as $e6
        | "<h3>\(.[2] | esc) \(status_badge($e4)) \(status_badge($e6))</h3>"
          + status_text($e6; "the IPv6 run")
          + fam_head + fam_rows($k; $e4; $e6) + "</table>"
          + (if $k == "lb" and ($e6.summary.flow_label.finding // null) != null then "<p>Flow label: \(val($e6.summary; $e6.file; ["flow_label","finding"]))</p>" else "" end)
          + "<h4>Figures of the IPv6 run of \(.[2] | esc)</h4>" + figures($e6)] | join(""))
    + "</section>"
  end;

# dot (make dot): DNS over TLS, handshakes/s and bytes on the wire per query.
def dot_section($b):
  $b.exps.dot as $e | $e.summary as $s | $e.file as $f
  | if ($e.dir_exists | not) then "" else
    "<section id=\"dot\"><h2>DNS over TLS \(status_badge($e))</h2>"
    + "<p><b>What is measured.</b> The TCP capacity sweep with DNS over TLS: each connection makes one TLS handshake, verified against the testbed's own CA, and sends one query; x is the offered rate of handshakes. The same search, the same counters of every layer and the same verdict rules as the TCP experiment say where the first work was lost and whether the server or the rig caused it. It runs once with a full handshake per connection and once with session resumption. Beside it, the bytes on the wire per query over UDP, plain TCP and DoT, from the switch's SNMP octet counters at a fixed modest rate, with one or several queries per connection: what TLS adds to every query.</p>"
    + status_text($e; "the DoT experiment")
    + (if $s == null then "" else
        "<h3>Handshakes per second</h3>"
        + "<table class=\"cmp\"><tr><th>configuration</th><th>handshakes</th><th>0.1% of connections fail, handshakes/s</th><th>1% fail</th><th>highest answered</th><th>plain TCP, 0.1% fail, conn/s</th><th>DoT / TCP</th><th>verdict</th><th>server's capacity</th><th>server CPU budget</th><th>per CPU (projection), handshakes/s</th></tr>"
        + ([[["full","full"],["resume","resumed"]][] as [$k, $name]
            | ($s[$k].configs // {}) | keys[] as $c
            | "<tr><th>\($c | esc)</th><td>\($name)</td>"
              + "<td>\(val($s; $f; [$k,"configs",$c,"knee_0_1pct"]; 0; null))</td>"
              + "<td>\(val($s; $f; [$k,"configs",$c,"knee_1pct"]; 0; null))</td>"
              + "<td>\(val($s; $f; [$k,"configs",$c,"max_handled"]; 0; null))</td>"
              + "<td>\(val($s; $f; ["tcp_reference",$c,"knee_0_1pct"]; 0; null))</td>"
              + "<td>\(calc("ratio"; ref($s; $f; [$k,"configs",$c,"knee_0_1pct"]); ref($s; $f; ["tcp_reference",$c,"knee_0_1pct"]); 2; null))</td>"
              + "<td>\(val($s; $f; [$k,"configs",$c,"verdict"]))</td>"
              + "<td>\(val($s; $f; [$k,"configs",$c,"server_capacity"]))</td>"
              + "<td>\(val($s; $f; [$k,"configs",$c,"budget"]))</td>"
              + "<td>\(val($s; $f; [$k,"configs",$c,"handshakes_per_cpu"]; 0; null))</td></tr>"] | join(""))
        + "</table>"
        + "<p>A knee the verdict does not give to the server is the rig's: on this machine the generator makes its side of every handshake on the client CPU, so a generator-limited sweep says what the rig could offer, not what the server can do. Under a server CPU budget (SERVER_CPU) the server is made the bottleneck; its handshakes per CPU are the handled rate at the knee over the server CPU's busy share then (docs/tcp.md), a projection to a whole CPU, not a measurement. Each sweep's points and verdict evidence: the tables below and <code>dot/full</code>, <code>dot/resume</code>.</p>"
        + "<h3>Bytes on the wire per query</h3>"
        + (if ($s.bytes.cases | type) != "array" then "<p class=\"nm\">The bytes were not measured in this run.</p>"
           else
             "<p>Server " + val($s; $f; ["bytes","server","name"]) + " " + val($s; $f; ["bytes","server","version"]) + "; "
             + val($s; $f; ["bytes","settings","rate_qps"]) + " queries/s for " + val($s; $f; ["bytes","settings","seconds"]) + " s per case, "
             + val($s; $f; ["bytes","settings","queries_per_conn_N"]) + " queries per connection in the cases marked so; per query = octets of both directions over the queries the daemon counted; what the port carried with nothing sent: " + val($s; $f; ["bytes","idle_octets"]) + " octets.</p>"
             + "<table class=\"cmp\"><tr><th>case</th><th>transport</th><th>queries per connection</th><th>resumed</th><th>queries at the server</th><th>toward the server</th><th>toward the client</th><th>total per query</th><th>vs UDP</th><th>vs TCP, one per connection</th></tr>"
             + ([$s.bytes.cases | to_entries[] | .key as $i
                 | "<tr><th>\(val($s; $f; ["bytes","cases",$i,"case"]))</th><td>\(val($s; $f; ["bytes","cases",$i,"transport"]))</td>"
                   + "<td>\(val($s; $f; ["bytes","cases",$i,"queries_per_conn"]))</td><td>\(val($s; $f; ["bytes","cases",$i,"resume"]))</td>"
                   + "<td>\(val($s; $f; ["bytes","cases",$i,"daemon_queries"]))</td>"
                   + "<td>\(val($s; $f; ["bytes","cases",$i,"per_query","in"]; 1; null))</td>"
                   + "<td>\(val($s; $f; ["bytes","cases",$i,"per_query","out"]; 1; null))</td>"
                   + "<td>\(val($s; $f; ["bytes","cases",$i,"per_query","total"]; 1; null))</td>"
                   + "<td>\(val($s; $f; ["bytes","cases",$i,"vs_udp"]; 2; null))</td>"
                   + "<td>\(val($s; $f; ["bytes","cases",$i,"vs_tcp"]; 2; null))</td></tr>"] | join(""))
             + "</table>"
           end)
      end)
    + figures($e) + tables($e; [])
    + "</section>"
  end;
# sizes_matrix_section: the DNSSEC sizing matrix (analysis/sizes-matrix/run):
# per cell bytes per query, TC share, answer sizes, the DNSKEY
# answer, and against each link speed which ceiling an instance hits first.
def sizes_matrix_section($b):
  $b.exps["sizes-matrix"] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"sizes-matrix\"><h2>DNSSEC sizing matrix: algorithms, key rolls, DO share, EDNS buffer \(status_badge($e))</h2>"
  + "<p><b>What is measured.</b> Each cell serves one zone state (signing algorithm and key sizes, NSEC or NSEC3, a KSK roll with two KSKs signing the DNSKEY set, a ZSK pre-published) and replays one query profile (the DO share of the paper's traffic, of a root server's more recent traffic, or forced) with the advertised EDNS buffer as the profile has it or forced to one size, slowly enough that every query is answered. The switch's SNMP octet counters on the router's server-side port give bytes per query in and out; a capture of the answers gives the share truncated (TC=1: each such query comes back over TCP) and the answer sizes; dig gives the DNSKEY answer of each zone state, whole over TCP and whether it fits a UDP answer. The rules (analysis/sizes-matrix/rules.jq) add the Ethernet overhead per frame to the SNMP bytes, divide each link speed by the result to get the query rate that fills the link, and compare it with the server's unshaped UDP ceiling from this run: the lower one is hit first; where the link's is lower, that rate is where the instance turns from query-bound to byte-bound. The paper (\(val($p; "paper.json"; ["sizes","section"]))) measured one signed zone with one traffic mix.</p>"
  + status_text($e; "the sizing matrix")
  # a failed run may hold no cells, checks or links: nothing to tabulate
  + if $s == null or ($s.cells | type) != "array" then "</section>" else
      "<p>Design: \(val($s; $f; ["settings","design"])); \(val($s; $f; ["settings","queries_per_cell"])) queries per cell at \(val($s; $f; ["settings","pps"])) queries/s.</p>"
      + (if ($s.testbed.server.udp_answer_max | type) == "number" then
           "<p>The servers answer over UDP up to " + val($s; $f; ["testbed","server","udp_answer_max"]) + " bytes (<code>SERVER_EDNS_SIZE</code>): a larger answer comes truncated whatever the query advertises, so a cell's EDNS buffer above that acts as that size.</p>"
         else "" end)
      + "<p>The server's unshaped UDP ceiling: "
      + (if $s.server_udp_ceiling.qps != null then val($s; $f; ["server_udp_ceiling","qps"]) + " queries/s"
           + (range_text($s; $f; ["server_udp_ceiling","low_qps"]; ["server_udp_ceiling","high_qps"]) | if . != "" then " answered, " + . else "" end)
           + " (from " + val($s; $f; ["server_udp_ceiling","source"]) + (if $s.server_udp_ceiling.zone then ", serving the zone " + val($s; $f; ["server_udp_ceiling","zone"]) else "" end) + (if $s.server_udp_ceiling.caused_by then "; its verdict blames the " + val($s; $f; ["server_udp_ceiling","caused_by"]) else "" end) + ")"
         else val($s; $f; ["server_udp_ceiling","qps"]) + (if $s.server_udp_ceiling.status != "not measured" then " (" + val($s; $f; ["server_udp_ceiling","status"]) + ")" else "" end) end)
      + (if $s.server_udp_ceiling.note then "; " + val($s; $f; ["server_udp_ceiling","note"]) else "" end) + ".</p>"
      + "<h3>Checks</h3><table class=\"kv\">"
      + ([($s.checks // {}) | keys_unsorted[] as $k
          | "<tr><th>\(val($s; $f; ["checks",$k,"rule"]))</th><td>\(val($s; $f; ["checks",$k,"pass"]))</td><td>"
            + (($s.checks[$k].value) as $v
               | if ($v | type) == "object" then ([$v | keys_unsorted[] as $j | "\($j | esc): \(val($s; $f; ["checks",$k,"value",$j]))"] | join(", "))
                 else val($s; $f; ["checks",$k,"value"]) end)
            + "</td></tr>"] | join(""))
      + "</table>"
      + ([$s.cells | to_entries[] | select(.value.zone_state == "paper") | .key][0] as $i
         | if $i == null then "" else
             "<h4>The paper's zone state</h4>" + cmp_head(val($p; "paper.json"; ["sizes","section"]))
             + cmp_row("bytes per query out, cell " + val($s; $f; ["cells",$i,"cell"]); $s; $f; ["cells",$i,"bytes_per_query_out"]; 1; null; $p; ["sizes","tests","signed","bytes_per_query_out"]; "the paper's own traffic mix")
             + "</table>" end)
      + "<h3>Cells</h3><table class=\"csv\"><tr><th>cell (zone state : profile : EDNS buffer)</th><th>bytes/query in</th><th>bytes/query out</th><th>TC share, %</th><th>answer bytes mean / median / max</th><th>DNSKEY answer, bytes</th>"
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
      + figures($e)
      + "<h4>This run's tables</h4>" + tables($e; [])
      + settings_table($s; $f; $b.labels["sizes-matrix"] // {})
      + "</section>"
    end;

# ------------------------------------------------------------ page

# budget_validation: whether a figure per CPU scales to a whole CPU, as
# measured with these results (udpreplay/budget-validation/run: the unshaped UDP
# ceiling per CPU at several budgets), or that it was not measured.
def budget_validation($v):
  $v.summary as $s | $v.file as $f
  | "<p><b>Validation across budgets.</b> "
  + if $s == null then
      "Not measured with these results: <code>make udp-budget-validation RB_RUN=&lt;this directory&gt;</code> measures the unshaped UDP ceiling per CPU at several budgets, repetitions interleaved; the figures above hold for a whole CPU only if those agree (docs/methodology.md).</p>"
    else
      "The unshaped UDP ceiling per CPU at the budgets below, \(val($s; $f; ["settings","reps"])) repetitions each, interleaved (udpreplay/budget-validation/run\(if $s.status != "ok" then ", \(val($s; $f; ["status"])): from the runs measured" else "" end)): "
      + val($s; $f; ["rule"]) + ". The spread of the medians is " + val($s; $f; ["spread_pct"]) + " % against a goal of " + val($s; $f; ["goal_pct"]) + " %"
      + (if $s.validated then "." else "; the figures above are this budget's, not a whole CPU's." end) + "</p>"
      + (if $s.cost_note != null then "<p>Why: " + val($s; $f; ["cost_note"]) + ".</p>" else "" end)
      + "<table class=\"cmp\"><tr><th>server CPU budget</th><th>runs</th><th>answers/s per CPU: min</th><th>median</th><th>max</th><th>daemons' CPU per answered query at the ceiling (median, µs)</th></tr>"
      + ([range(0; $s.by_budget | length) as $i
          | "<tr><td>\(val($s; $f; ["by_budget",$i,"budget"]))</td><td>\(val($s; $f; ["by_budget",$i,"runs"]))</td>"
            + "<td>\(val($s; $f; ["by_budget",$i,"qps_per_cpu","min"]; 0; null))</td><td>\(val($s; $f; ["by_budget",$i,"qps_per_cpu","median"]; 0; null))</td>"
            + "<td>\(val($s; $f; ["by_budget",$i,"qps_per_cpu","max"]; 0; null))</td>"
            + "<td>\(val($s; $f; ["by_budget",$i,"daemon_us_per_query","ceiling","median"]))</td></tr>"] | join(""))
      + "</table>"
    end;

# per_cpu_section: "Capacity per CPU of this host", when any experiment ran
# its servers under a CPU budget (SERVER_CPU): each experiment's figure
# per CPU, or why it has none. Shown only then.
def per_cpu_section($b):
  ( [ ($b.exps["udp-unshaped"] | select(.summary.per_cpu != null)
       | {name: "UDP, unshaped", s: .summary, f: .file, path: ["per_cpu"], fig: "qps_per_cpu", unit: "answers/s"}),
      (["1p1s","2p1s","2p2s"][] as $c | ($b.exps.tcp.subs[$c] // null) | select(. != null and .summary.per_cpu != null)
       | {name: "TCP, \($c)", s: .summary, f: "tcp/\($c)/summary.json", path: ["per_cpu"], fig: "conn_per_cpu", unit: "connections/s"}),
      (["full","resume"][] as $k | $b.exps.dot | select(.summary != null) | .summary as $d | .file as $df
       | ($d[$k].configs // {}) | keys[] as $c | select($d[$k].configs[$c].budget != null)
       | {name: "DoT, \(if $k == "full" then "full handshakes" else "resumed" end), \($c)", s: $d, f: $df,
          path: [$k,"configs",$c], fig: "handshakes_per_cpu", unit: "handshakes/s", budget_key: "budget", rule_key: "per_cpu_rule"}) ]
    | map(select(. as $r | $r.s | getpath($r.path + [$r.budget_key // "budget"]) | type == "number")) ) as $rows
  | ($b.exps["budget-validation"] // {}) as $v
  | if ($rows | length) == 0 and $v.summary == null then "" else
      "<section id=\"per-cpu\"><h2>Capacity per CPU of this host</h2>"
      + "<p><b>Method.</b> On this machine the rig (generator, router, switch) runs out before a whole-CPU server, so the servers ran under a CPU budget (SERVER_CPU: each daemon may use that share of a CPU) that makes them the bottleneck; the figure per CPU is the rate the server handled over the server CPU's busy share while the load ran (the daemon and, with its receive path steered to its CPU, its kernel work), only where the server's CPU was what ran out and the generator kept its schedule. It is a projection to a whole CPU, not a measurement of one, and it depends on the budget (docs/tcp.md, docs/methodology.md: the method's validation across budgets).</p>"
      + budget_validation($v)
      + (if ($rows | length) == 0 then "" else
      "<table class=\"cmp\"><tr><th>experiment</th><th>server CPU budget</th><th>per CPU (projection)</th><th>unit</th><th>or why none</th></tr>"
      + ([$rows[] | . as $r
          | "<tr><th>\($r.name | esc)</th><td>\(val($r.s; $r.f; $r.path + [$r.budget_key // "budget"]))</td>"
            + "<td>\(val($r.s; $r.f; $r.path + [$r.fig]; 0; null))</td><td>\($r.unit)</td>"
            + "<td>\(if ($r.s | getpath($r.path + [$r.fig])) | type == "number" then "" else val($r.s; $r.f; $r.path + [$r.rule_key // "rule"]) end)</td></tr>"] | join(""))
      + "</table>" end)
      + "</section>"
    end;

# (the page has no try: see at in report-lib.jq)
def page:

  . as $b
  | "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rootbench report</title><style>"
  + "body{font-family:sans-serif;max-width:70em;margin:auto;padding:1em;line-height:1.4}"
  + "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
  + "table.cmp td{text-align:right}.nm{color:#888;font-style:italic}.err{color:#a00}pre.err{background:#fee;padding:.5em;white-space:pre-wrap}"
  + ".st{font-size:.6em;padding:.1em .4em;border-radius:.3em;vertical-align:middle;color:#fff;background:#888}.st.ok{background:#070}.st.failed,.st.missing{background:#a00}.st.interrupted{background:#c70}"
  + ".figs figure{display:inline-block;margin:.5em}.figs img{max-width:32em}.pair{display:flex;gap:2em;flex-wrap:wrap}.fixture{background:#fd0;padding:1em;font-weight:bold}"
  + "caption{font-weight:bold;text-align:left}</style></head><body>\n"
  + "<h1>rootbench report</h1>\n"
  + (if $b.fixture then "<p class=\"fixture\">TEST FIXTURE: these results were written by hand for testing the report generator. They are NOT measurements.</p>\n" else "" end)
  + "<p>Results directory <code class=\"meta\">\($b.run | esc)</code>; generated <span class=\"meta\">\($b.generated | esc)</span> by <code>analysis/report</code>. Beside each value stands the value of the reference study, \(val($b.paper; "paper.json"; ["citation"])), with the section it comes from, the ratio of this run's value to it and the difference. A value shown as <span class=\"nm\">not measured</span> is absent from the results. Every number on this page is read from the files of the results directory (hover: <code>data-src</code>).</p>\n"
  # A comparison of servers (make compare-servers) holds the experiments in
  # each server's own directories: its page shows the comparison, the
  # testbed and the experiments this directory itself holds, not a "did not
  # run" section for each of the others.
  + ($b.exps.compare.dir_exists) as $cmp
  | def shown($k): ($cmp | not) or $b.exps[$k].dir_exists;
  [$b.registry[] | select(.bench) | [.name, .short]] as $experiments
  | (if $cmp then "" else
    "<p>Experiments: " + ([ $experiments[] | "<a href=\"#\(.[0])\">\(.[1])</a> \(status_badge($b.exps[.[0]]))"] | join(" · ")) + "</p>\n" end)
  + findings_section($b; if $cmp then [] else $experiments end) + "\n"
  + bench_section + "\n" + compare_section($b) + "\n" + per_cpu_section($b) + "\n" + testbed_section + "\n"
  + (if shown("udp") then udp_section($b; "udp"; "UDP ceiling on a shaped link, as in the paper"; "The router&ndash;server link is shaped to the paper's link rate (see the link rate below), so this is the ceiling of an instance whose link limits it, as the paper's did.") + "\n" else "" end)
  + (if shown("udp-unshaped") then udp_section($b; "udp-unshaped"; "UDP ceiling, unshaped"; "No link shaping: the ceiling here is where the servers (or the rig) break when the link does not. Compare it with the shaped ceiling above: the difference is the headroom the servers have over the paper's link.") + "\n" else "" end)
  + (if shown("sizes") then sizes_section($b) + "\n" else "" end)
  + (if shown("sizes-matrix") then sizes_matrix_section($b) + "\n" else "" end)
  + (if shown("lb") then lb_section($b) + "\n" else "" end)
  + (if shown("tcp") then tcp_section($b) + "\n" else "" end) + (if shown("tcp-limits") then tcp_limits_section($b) + "\n" else "" end)
  + (if shown("dot") then dot_section($b) + "\n" else "" end)
  + family_section($b) + "\n"
  + "</body></html>";

page
