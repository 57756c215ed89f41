# section.jq -- DNS over TLS and QUIC: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";

# dot (make dot): DNS over TLS (and over QUIC with Knot 3.4), handshakes/s
# and bytes on the wire per query.

# dot_sweeps: the summary's sweeps and their names.
def dot_sweeps: [["full","DoT, full handshakes"],["resume","DoT, resumed"],["doq","DoQ, full handshakes"],["doq_resume","DoQ, resumed (0-RTT)"]];
def dot_section($b; $key; $heading):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if ($e.dir_exists | not) then "" else
    "<section id=\"\($key)\"><h2>\($heading) \(status_badge($e))</h2>"
    + status_text($e; "the DoT experiment")
    + (if $s == null then "" else
        figures($e)
        + "<h3>Handshakes per second</h3>"
        + "<table class=\"cmp\">" + head_row(["configuration", "handshakes", "0.1% of connections fail, handshakes/s", "1% fail", "highest answered",
          "plain TCP, 0.1% fail, conn/s", "over TCP", "verdict", "server's capacity", "server CPU budget", "per CPU (projection), handshakes/s"])
        + ([dot_sweeps[] as [$k, $name]
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
        + (if $s.doq_skipped != null then "<p>DNS over QUIC not measured: " + val($s; $f; ["doq_skipped"]) + ".</p>"
           elif $s.doq != null or $s.doq_resume != null then
             "<p>DNS over QUIC is sent by Knot's kxdpgun through AF_XDP ("
             + ([[["doq","full"],["doq_resume","resumed"]][] as [$k, $w] | select($s[$k] != null) | ($s[$k].configs // {} | keys[0]) as $c
                | select($c != null) | "\($w): " + val($s; $f; [$k,"configs",$c,"generator","version"])] | join(", "))
             + "): a QUIC connection per query, counted at the router (datagrams led by an Initial packet, a bound) and at Knot's own count of "
             + "queries over QUIC; it measures no latency.</p>"
           else "" end)
        + "<p>A knee the verdict does not give to the server is the rig's: on this machine the generator makes its side of every handshake on the client CPU, "
          + "so a generator-limited sweep says what the rig could offer, not what the server can do. Under a server CPU budget (SERVER_CPU) the server is "
          + "made the bottleneck; its handshakes per CPU are the handled rate at the knee over the server CPU's busy share then (docs/tcp.md), a projection "
          + "to a whole CPU, not a measurement. Each sweep's points and verdict evidence: the data page and <code>dot/full</code>, <code>dot/resume</code>, "
          + "<code>dot/doq</code>, <code>dot/doq-resume</code>.</p>"
        + "<h3>Bytes on the wire per query</h3>"
        + (if ($s.bytes.cases | type) != "array" then "<p class=\"nm\">The bytes were not measured in this run.</p>"
           else
             "<p>Server " + val($s; $f; ["bytes","server","name"]) + " " + val($s; $f; ["bytes","server","version"]) + "; "
             + val($s; $f; ["bytes","settings","rate_qps"]) + " queries/s for " + val($s; $f; ["bytes","settings","seconds"]) + " s per case, "
             + val($s; $f; ["bytes","settings","queries_per_conn_N"])
               + " queries per connection in the cases marked so; per query = octets of both directions over the queries the daemon counted; what the port "
               + "carried with nothing sent: " + val($s; $f; ["bytes","idle_octets"]) + " octets.</p>"
             + "<table class=\"cmp\">" + head_row(["case", "transport", "queries per connection", "resumed", "queries at the server", "toward the server",
               "toward the client", "total per query", "vs UDP", "vs TCP, one per connection"])
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
    + "<details><summary>What is measured</summary><p>The TCP capacity sweep with DNS over TLS: each connection makes one TLS handshake, verified against the "
      + "testbed's own CA, and sends one query; x is the offered rate of handshakes. The same search, the same counters of every layer and the same verdict "
      + "rules as the TCP experiment say where the first work was lost and whether the server or the rig caused it. It runs once with a full handshake per "
      + "connection and once with session resumption. Beside it, the bytes on the wire per query over UDP, plain TCP and DoT, from the switch's SNMP octet "
      + "counters at a fixed modest rate, with one or several queries per connection: what TLS adds to every query. With Knot DNS 3.4 the same sweep and "
      + "bytes over DNS over QUIC (QUIC over UDP, sent by kxdpgun): a full handshake per connection, and resumed with the query as 0-RTT data.</p></details>"
    + more_link($key; $e)
    + "</section>"
  end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry)

def section($b; $e): dot_section($b; $e.name; $e.heading // $e.title);
def findings($b; $e): [];
def family_rows($b; $e): "";
def family_note($b; $e): "";
# per_cpu_rows: a row per configuration with a CPU budget, full handshakes and resumed.
def per_cpu_rows($b; $e):
  [dot_sweeps[] as [$k, $w] | $b.exps[$e.name] | select(.summary != null) | .summary as $d | .file as $df
   | ($d[$k].configs // {}) | keys[] as $c | select($d[$k].configs[$c].budget != null)
   | {name: "\($w), \($c)", s: $d, f: $df,
      path: [$k,"configs",$c], fig: "handshakes_per_cpu", unit: "handshakes/s", budget_key: "budget", rule_key: "per_cpu_rule"}];
def headline($b; $e): "";
# latency_rows: a row per configuration, full handshakes and resumed, with
# the probe's block of that sweep (analysis/report-probe.jq).
def latency_rows($b; $e):
  [$b.exps[$e.name] | select(.summary != null) | .summary as $d | .file as $df
   | dot_sweeps[] as [$k, $w] | ($d[$k].configs // {}) | keys[] as $c
   | {name: "\($w), \($c)", s: $d, f: $df,
      path: [$k,"configs",$c,"probe"], unit: "handshakes/s"}];
