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
include "report-probe";
# Each experiment's section, Findings, rows and headline come from its
# folder's section.jq through the module "sections" that analysis/report
# generates from the registry (analysis/report-sections.jq).
include "sections";

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
  + "<p>Each role ran on a host of its own, reached over SSH (one multiplexed connection per host; the cost of one call over it, measured when the testbed "
    + "came up, is a column below); the router and the switch are the lab's devices, described by its inventory and not configured by rootbench. The "
    + "hosts' facts were gathered from the hosts when the testbed came up, with each one's clock against the driving machine's "
    + "(up refuses a host too far off: its players start at one time of their own clocks).</p>"
  + "<table class=\"kv\">"
  + kv_row("inventory"; tv($src; ["inventory"]))
  + kv_row("ranges the lab declares as its own";
      if ($t.allow_ranges | type) == "array" and ($t.allow_ranges | length) > 0 then
        [range(0; $t.allow_ranges | length) as $i | tv($src; ["allow_ranges",$i])] | join(", ")
      else tv($src; ["allow_ranges"]) end)
  + kv_row("router";
      "\(tv($src; ["router","model"])); balances \(tv($src; ["router","lb"])); "
      + "client leg \(tv($src; ["router","addr4_client"])) \(tv($src; ["router","addr6_client"])) (MAC \(tv($src; ["router","mac_client"]))), "
      + "server leg \(tv($src; ["router","addr4_server"])) \(tv($src; ["router","addr6_server"])); "
      + (if ($t.router.snmp_host // null) != null then "SNMP agent \(tv($src; ["router","snmp_host"])): its ports sampled"
         else "no SNMP agent: not sampled" end))
  + kv_row("switch";
      "\(tv($src; ["switch","model"])); SNMP agent \(tv($src; ["switch","snmp_host"])), "
      + "the router's port ifIndex \(tv($src; ["switch","router_port_ifindex"])): its ports sampled")
  + "</table>"
  + "<table class=\"csv\"><caption>hosts</caption>"
  + head_row(["role", "hostname", "kernel", "CPUs", "CPU model", "NIC driver", "NIC speed, Mbit/s", "MAC", "daemon version",
              "SSH call overhead, median µs", "clock offset, ms", "its uncertainty, ± ms"])
  + (if ($t.hosts | type) == "array" and ($t.hosts | length) > 0 then
       [range(0; $t.hosts | length) as $i | ["hosts",$i] as $h
        | "<tr><th>\(tv($src; $h + ["role"]))</th>"
          + ([["hostname"], ["kernel"], ["cpus"], ["cpu_model"], ["nic","driver"], ["nic","speed_mbit"], ["nic","mac"],
              ["daemon_version"], ["ssh_call_us","median"], ["clock","offset_ms"], ["clock","uncertainty_ms"]] | map("<td>\(tv($src; $h + .))</td>") | join(""))
          + "</tr>"] | join("")
     else "<tr><td colspan=\"12\">\(tv($src; ["hosts"]))</td></tr>" end)
  + "</table>";

# host_speed_line($e): under a headline (and in the bench's "This run"),
# the host's speed on the servers' CPU at the experiment's start and end
# (host_speed_table has both CPUs); $e: {summary, file}, an experiment of
# the bundle or the bench's own record (bench.json).
def host_speed_line($e):
  ($e.summary.host_speed // {}) as $h | ($h.start.server // {} | keys | first) as $c
  | if $c == null then "" else
      "<p class=\"hs\"><small>host speed, server CPU: \(val($e.summary; $e.file; ["host_speed","start","server",$c,"ns_per_iter_median"]; 2; null))"
      + " &rarr; \(val($e.summary; $e.file; ["host_speed","end","server",$c,"ns_per_iter_median"]; 2; null)) ns per loop "
      + "(<a href=\"#testbed\">lower is faster</a>)</small></p>" end;

# host_speed_table($b): how fast this host was on the servers' CPU and on
# the rig's at the start and the end of the bench (bench.json) and of each
# experiment (rbspeed's fixed loop, scripts/lib/experiment.sh
# exp_host_speed; lower is faster), and the steal time the hypervisor took
# from those CPUs while it was timed, so that two runs' figures can be read
# beside their hosts' speeds.
def host_speed_table($b):
  ([{name: "the bench (all its steps)", e: {summary: $b.bench, file: "bench.json"}}]
   + [$b.exps | to_entries[] | {name: .key, e: .value}]
   | map(select((.e.summary.host_speed.start | type) == "object"))) as $rows
  | if ($rows | length) == 0 then "" else
      "<table class=\"cmp\"><caption>Host speed: ns per iteration of a fixed loop (lower is faster), "
      + "at each experiment's start and end; steal while it was timed</caption>"
      + head_row(["experiment", "server CPU, start", "server CPU, end", "rig CPU, start", "rig CPU, end",
                  "steal on the server CPU, ms (start, end)"])
      + ([$rows[] | .e as $e | $e.summary.host_speed as $h
          | def one($when; $side; $k): ($h[$when][$side] // {} | keys | first) as $c
              | if $c == null then nm else val($e.summary; $e.file; ["host_speed", $when, $side, $c, $k]; 2; null) end;
          "<tr><th>\(.name | esc)</th><td>\(one("start"; "server"; "ns_per_iter_median"))</td>"
          + "<td>\(one("end"; "server"; "ns_per_iter_median"))</td><td>\(one("start"; "rig"; "ns_per_iter_median"))</td>"
          + "<td>\(one("end"; "rig"; "ns_per_iter_median"))</td>"
          + "<td>\(one("start"; "server"; "steal_ms")), \(one("end"; "server"; "steal_ms"))</td></tr>"] | join(""))
      + "</table>" end;

def testbed_section:
  . as $b | $b.testbed as $t | testbed_src($b) as $src
  | ($src != null and ($src.doc | at($src.path + ["backend"])) == "lab") as $lab
  # tb(path...): a value of testbed.json
  | def tb(a): val($t; "testbed.json"; [a]); def tb(a; b): val($t; "testbed.json"; [a, b]);
  "<section id=\"testbed\"><h2>Testbed</h2>"
  + (if $lab then
      "<p>What the numbers below were measured on. The paper used a separate machine per role, a hardware router and a switch with links of "
        + "\(val($b.paper; "paper.json"; ["setup","link_bps"])) bit/s (paper \(val($b.paper; "paper.json"; ["setup","section"]))); this run did the same on a "
        + "lab of separate hosts, a router and a switch (BACKEND=lab; the lab, its hosts and devices below), so the roles did not share CPUs and the links "
        + "are the lab's wires, not shaped by rootbench. Read the methodology (docs/methodology.md) and the lab's guide (docs/real-lab.md) before comparing "
        + "absolute numbers.</p>"
     else
      "<p>What the numbers below were measured on. The paper used a separate machine per role, a hardware router and a switch with links of "
        + "\(val($b.paper; "paper.json"; ["setup","link_bps"])) bit/s (paper \(val($b.paper; "paper.json"; ["setup","section"]))); this suite builds the same "
        + "roles out of Linux network namespaces on one host, so all roles share this host's CPUs (see the pinning) and the links are virtual Ethernet pairs, "
        + "unshaped unless link shaping is set. Read the methodology (docs/methodology.md) before comparing absolute numbers.</p>"
     end)
  + (if $t == null then "<p class=\"err\">No <code>testbed.json</code> in this results directory: the testbed configuration was not recorded"
    + (if $src != null then " (what follows is the copy " + ($src.file | esc) + " holds)" else "" end) + ".</p>"
    else
      "<table class=\"kv\">"
      + kv_row("testbed"; if $lab then "a lab: separate hosts, a router and a switch (see the lab below)" else "namespaces on one machine" end; "")
      + kv_row("kernel\(if $lab then " (server1)" else "" end)"; tb("kernel"); "")
      + kv_row("CPUs of the \(if $lab then "server host (server1)" else "host" end)"; tb("cpus");
               paper_note(val($b.paper; "paper.json"; ["setup","cpu"])))
      + kv_row("CPU pinning";
               if $lab then "the servers on CPU \(tb("pinning","servers")) of their hosts; "
                            + "the players and the listener on CPU \(tb("pinning","clients")) of theirs (inventory: rb_cpus)"
               else "servers on CPU \(tb("pinning","servers")); players, listener, router, switch on CPU \(tb("pinning","clients"))" end; "")
      + kv_row("Server";
               "\(tb("server","name")) \(tb("server","version")), workers \(tb("server","workers")), TCP clients \(tb("server","tcp_clients")), "
               + "TCP timeout \(tb("server","tcp_timeout_s"))&nbsp;s, listen backlog \(tb("server","listen_backlog"))";
               paper_note("NSD \(val($b.paper; "paper.json"; ["setup","nsd_version"]))"))
      + kv_row("load balancing"; tb("lb") + (if $t.lb_note then " — " + tb("lb_note") else "" end);
               paper_note("hardware routers hashing on the source address"))
      + kv_row("link shaping"; if $t.link == null then (if $lab then "none (the lab's wires)" else "none (unshaped veth)" end) else tb("link") end;
               paper_note("\(val($b.paper; "paper.json"; ["setup","link_bps"])) bit/s Ethernet"))
      + kv_row("service address"; "\(tb("service","ipv4")) \(tb("service","ipv6"))"; "")
      + kv_row("zones"; "\(if $t.zones.variant then tb("zones","variant") else "default" end) (\(tb("zones","dir")))"; "")
      + "</table>"
      + (if ($b.zones | length) == 0 then "" else
          "<table class=\"cmp\"><caption>Zone variants served in this run</caption>"
          + head_row(["variant", "root serial", "records", "delegations", "keys", "denial"])
          + ([$b.zones | to_entries[] | .key as $v | .value as $m | "zones/\($v).json" as $f
              | "<tr><th><code class=\"meta\">\($v | esc)</code></th><td>\(val($m; $f; ["zones","root","serial"]))</td>"
                + "<td>\(val($m; $f; ["zones","root","records"]))</td><td>\(val($m; $f; ["zones","root","delegations"]))</td>"
                + (if ($m | at(["zones","root","dnskeys"]) | type) == "array" and ($m.zones.root.dnskeys | length) > 0 then
                     "<td>" + ([$m.zones.root.dnskeys | to_entries[] | .key as $i
                       | "\(val($m; $f; ["zones","root","dnskeys",$i,"role"])) \(val($m; $f; ["algorithm","name"])) (algorithm "
                         + "\(val($m; $f; ["zones","root","dnskeys",$i,"algorithm"]))) \(val($m; $f; ["zones","root","dnskeys",$i,"bits"])) bits"]
                         | join("<br>"))
                     + "</td><td>\(val($m; $f; ["denial"]))</td>"
                   else "<td>\(if $m.signed == false then "unsigned" else nm end)</td><td></td>" end)
                + "</tr>"] | join(""))
          + "</table>" end)
      + "<p><small>paper: KSK \(val($b.paper; "paper.json"; ["setup","ksk","algorithm"])) \(val($b.paper; "paper.json"; ["setup","ksk","bits"])) bits, ZSK "
        + "\(val($b.paper; "paper.json"; ["setup","zsk","algorithm"])) \(val($b.paper; "paper.json"; ["setup","zsk","bits"])) bits, "
        + "\(val($b.paper; "paper.json"; ["setup","denial"])).</small></p>"
      + "<p class=\"more\">Every value of the testbed and of each zone variant: <a href=\"\(data_page)#testbed\">the data page</a>, or <a "
        + "href=\"testbed.json\"><code>testbed.json</code></a>.</p>"
    end)
  # (also without testbed.json: a comparison's run holds its servers' own)
  + host_speed_table($b)
  + (if $lab then lab_section($src) else "" end)
  + "</section>";

def bench_section:
  . as $b
  # bv(path): a value of bench.json
  | def bv($p): val($b.bench; "bench.json"; $p);
  if $b.bench == null then ""
    else
      "<section id=\"bench\"><h2>This run</h2><table class=\"kv\">"
      + ([["scale"], ["started"], ["finished"], ["status"]] | map(kv_row(.[0]; bv(.))) | join("")) + "</table>"
      + host_speed_line({summary: $b.bench, file: "bench.json"})
      + "<details><summary>Each step of the bench</summary><table class=\"csv\">" + head_row(["step", "make target", "status", "seconds", "message"])
      + ([$b.bench.steps // [] | to_entries[] | .key as $i
          | cells_row([bv(["steps",$i,"name"]), bv(["steps",$i,"target"]), bv(["steps",$i,"status"]), bv(["steps",$i,"seconds"]),
                       (if .value.error then bv(["steps",$i,"error"]) else "" end)])]
         | join(""))
      + "</table></details></section>"
    end;

# ------------------------------------------------------------ families

# family_section: every experiment run over IPv6 (<name>-v6/) beside its
# IPv4 run (<name>/), figure by figure; nothing when none ran over IPv6.
def family_section($b):
  [$b.registry[] | select(.v6) | select($b.exps[.name + "-v6"].dir_exists // false)] as $ran
  | if ($ran | length) == 0 then "" else
    "<section id=\"family\"><h2>IPv4 and IPv6 side by side</h2>"
    + "<p><b>What is compared.</b> Each experiment below ran once over IPv4 (to the service address \(val($b.testbed; "testbed.json"; ["service","ipv4"])), "
      + "results in <code>&lt;experiment&gt;/</code>) and once over IPv6 (to \(val($b.testbed; "testbed.json"; ["service","ipv6"])) through the router's IPv6 "
      + "ECMP, answers to the Listener's IPv6 address, results in <code>&lt;experiment&gt;-v6/</code>), with the same settings and, where it replays "
      + "queries, the same DNS queries. An IPv6 header without extensions is twice as long as an IPv4 header without options, so every query and answer is "
      + "longer on the wire by the difference; what else IPv6 changes for an experiment follows its table.</p>"
    + ([$ran[] | . as $r | fam_pair($b; $r) as [$e4, $e6]
        | "<h3>\($r.title | esc) \(status_badge($e4)) \(status_badge($e6))</h3>"
          + status_text($e6; "the IPv6 run")
          + fam_head + family_rows_of($b; $r) + "</table>"
          + family_note_of($b; $r)
          + "<details><summary>Figures of the IPv6 run of \($r.title | esc)</summary>" + figures($e6) + "</details>"] | join(""))
    + "</section>"
  end;

# ------------------------------------------------------------ page

# per_cpu_section: "Capacity per CPU of this host", when any experiment ran
# its servers under a CPU budget (SERVER_CPU): each experiment's figure
# per CPU, or why it has none. Shown only then.
def per_cpu_section($b):
  ([$b.registry[] | per_cpu_rows_of($b; .)[]]
   | map(select(. as $r | $r.s | getpath($r.path + [$r.budget_key // "budget"]) | type == "number"))) as $rows
  # the sections placed here (registry: place "per-cpu", the method's
  # validation): shown with the rows, and on their own when they ran
  | [$b.registry[] | select(.place == "per-cpu")] as $here
  | if ($rows | length) == 0 and ([$here[] | select($b.exps[.name].summary != null)] | length) == 0 then "" else
      "<section id=\"per-cpu\"><h2>Capacity per CPU of this host</h2>"
      + "<p><b>Method.</b> On this machine the rig (generator, router, switch) runs out before a whole-CPU server, so the servers ran under a CPU budget "
        + "(SERVER_CPU: each daemon may use that share of a CPU) that makes them the bottleneck; the figure per CPU is the rate the server handled over the "
        + "server CPU's busy share while the load ran (the daemon and, with its receive path steered to its CPU, its kernel work), only where the server's "
        + "CPU was what ran out and the generator kept its schedule. It is a projection to a whole CPU, not a measurement of one, and it depends on the "
        + "budget (docs/tcp.md, docs/methodology.md: the method's validation across budgets).</p>"
      + ([$here[] | section_of($b; .)] | join(""))
      + (if ($rows | length) == 0 then "" else
      "<table class=\"cmp\">" + head_row(["experiment", "server CPU budget", "per CPU (projection)", "unit", "or why none"])
      + ([$rows[] | . as $r
          | "<tr><th>\($r.name | esc)</th><td>\(val($r.s; $r.f; $r.path + [$r.budget_key // "budget"]))</td>"
            + "<td>\(val($r.s; $r.f; $r.path + [$r.fig]; 0; null))</td><td>\($r.unit)</td>"
            + "<td>\(if ($r.s | getpath($r.path + [$r.fig])) | type == "number" then "" else val($r.s; $r.f; $r.path + [$r.rule_key // "rule"])
              end)</td></tr>"] | join(""))
      + "</table>" end)
      + "</section>"
    end;

# headlines($b): one figure per experiment for the first screen, as the
# registry names it (headline: a figure's file name, or "verdict" for a
# verdict card; the experiment's first figure when that one is absent),
# each linked to its section.
def headlines($b):
  [$b.registry[] | select(.headline != null) | . as $r | ($b.exps[$r.name] // null) as $e
   | select($e != null and $e.summary != null)
   | if $r.headline == "verdict" then
       headline_of($b; $r) | select(. != "")
       | "<div class=\"headline\"><a class=\"to\" href=\"#\($r.name)\">\($r.short | esc) &rarr;</a>" + . + host_speed_line($e) + "</div>"
     else
       ([$e.figures[] | select(.png | endswith("/" + $r.headline))][0] // $e.figures[0] // null) as $fig
       | select($fig != null)
       | "<div class=\"headline\"><a class=\"to\" href=\"#\($r.name)\">\($r.short | esc) &rarr;</a>" + figure($fig) + host_speed_line($e) + "</div>"
     end];

# (the page has no try: see at in report-lib.jq)
def page:

  . as $b
  | "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>rootbench "
    + "report</title><style>"
  # the style: analysis/report.css, inlined (analysis/report passes it as $css)
  + ($css | css_for("report"))
  + "</style></head><body>\n"
  + "<h1>rootbench report</h1>\n"
  + fixture_banner($b)
  + "<p class=\"intro\">Results <code class=\"meta\">\($b.run | esc)</code>, generated <span class=\"meta\">\($b.generated | esc)</span>. The reference "
    + "study: \(val($b.paper; "paper.json"; ["citation"])). Every number is read from the results directory (hover: its file and path); every value and table "
    + "is on <a href=\"\(data_page)\">the data page</a>.</p>\n"
  # A comparison (registry: comparison, make compare-servers) holds the
  # experiments in each server's own directories: its page shows the
  # comparison, the testbed and the experiments this directory itself
  # holds, not a "did not run" section for each of the others.
  + ([$b.registry[] | select(.comparison) | $b.exps[.name].dir_exists] | any) as $cmp
  | def shown($k): ($cmp | not) or $b.exps[$k].dir_exists;
  [$b.registry[] | select(.bench) | [.name, .short]] as $experiments
  | (if $cmp then "" else
    "<p>Experiments: " + ([ $experiments[] | "<a href=\"#\(.[0])\">\(.[1])</a> \(status_badge($b.exps[.[0]]))"] | join(" · ")) + "</p>\n" end)
  + (headlines($b)) as $heads
  | (if ($heads | length) == 0 then findings_section($b; if $cmp then [] else $experiments end; findings_of($b; .))
     else "<div class=\"first\"><div>" + findings_section($b; if $cmp then [] else $experiments end; findings_of($b; .)) + "</div>"
       + "<div class=\"headlines\">" + ($heads | join("")) + "</div></div>" end) + "\n"
  + bench_section + "\n"
  + ([$b.registry[] | select(.comparison) | section_of($b; .)] | join("")) + "\n"
  + per_cpu_section($b) + "\n"
  # every sweep's latency under load, as RSSAC047 judges it (analysis/report-probe.jq)
  + latency_table([$b.registry[] | select((.comparison | not) and shown(.name)) | latency_rows_of($b; .)[]]) + "\n"
  + testbed_section + "\n"
  + ([in_order($b.registry; $b.order.sections // []) | select((.comparison | not) and .place == null and shown(.name))
      | section_of($b; .) + "\n"] | join(""))
  + family_section($b) + "\n"
  + "</body></html>";

page
