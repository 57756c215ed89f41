# section.jq -- TCP load-balancer stickiness: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";

def lb_section($b; $key; $heading):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"\($key)\"><h2>\($heading) \(status_badge($e))</h2>"
  + status_text($e; "the load-balancer check")
  + if $s == null then "</section>" else
      (if ($e.figures | length) > 0 then figures($e) else "" end)
      + cmp_head(val($p; "paper.json"; ["lb","section"]))
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
             | cmp_row("sources on \($k) (paper: Juniper)"; $s; $f; ["per_server",$k]
               + (if ($s.per_server[$k] | type) == "object" then ["sources"] else [] end); null; null; $p; ["lb","per_server","juniper",$k]; null)
             + cmp_row("sources on \($k) (paper: Cisco)"; $s; $f; ["per_server",$k]
               + (if ($s.per_server[$k] | type) == "object" then ["sources"] else [] end); null; null; $p; ["lb","per_server","cisco",$k]; null)] | join("")
          else "" end )
      + "</table>"
      + "<details><summary>What is measured</summary><p>DNS over TCP needs every packet of a connection to reach the same server; a balancer that splits a "
        + "connection breaks it. Many client source addresses each make TCP queries; both servers record which sources reached them. The verdict is "
        + "<em>pass</em> only when every query succeeded, no source reached both servers (overlap) and no connection was split. The paper ("
        + "\(val($p; "paper.json"; ["lb","section"]))) found both routers sticky and the sources shared about evenly between the two servers. A per-packet "
        + "balancer, which must fail this check, is its negative control.</p></details>"
      + (if $e.texts | length > 0 then ([$e.texts[] | "<p>Text report: <a href=\"\(esc)\"><code>\(esc)</code></a></p>"] | join("")) else "" end)
      + settings_table($s; $f; $b.labels[$s.experiment] // {}) + more_link($key; $e)
      + "</section>"
    end;

# lb_card($b): the verdict as the report's first screen shows it (the
# experiment has no figure): pass or fail, and the counts that decide it.
def lb_card($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if ($s.verdict // null) == null then "" else
      "<div class=\"card \(if ($s.verdict | ascii_downcase) == "pass" then "pass" else "fail" end)\"><div class=\"verdict\">Load balancer: "
        + val($s; $f; ["verdict"]) + "</div>"
      + "<p>Does every TCP connection stay on one server? Of " + val($s; $f; ["sources"]) + " client sources, "
      + val($s; $f; ["overlap_sources"] | in_object($s; "count")) + " reached both servers; "
      + val($s; $f; ["split_connections"] | in_object($s; "count")) + " connections were split; "
      + val($s; $f; ["failed"] | in_object($s; "total")) + " queries failed.</p></div>"
    end;

# LB: the stickiness verdict and the three figures that decide it.
def finding_lb($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f
  | if ok($e) and ($s.verdict // null) != null then
      ["The load balancer's stickiness check gave " + val($s; $f; ["verdict"])
       + (if ($s.verdict | ascii_downcase) == "pass" then "" else " (every TCP connection must stay on one server: DNS over TCP breaks through this balancer)"
         end)
       + ": of " + val($s; $f; ["sources"]) + " client sources, "
       + val($s; $f; ["overlap_sources"] | in_object($s; "count")) + " reached both servers, "
       + val($s; $f; ["split_connections"] | in_object($s; "count")) + " TCP connections were split across servers and "
       + val($s; $f; ["failed"] | in_object($s; "total")) + " queries failed."]
    else [] end;

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry)

def section($b; $e): lb_section($b; $e.name; $e.heading // $e.title);
# findings: the verdict and the split connections, in short, before the sentence.
def findings($b; $e):
  $b.exps[$e.name] as $x | $x.summary as $s | $x.file as $f
  | finding_lb($b; $e.name)
  | map(finding("The load balancer's stickiness: " + val($s; $f; ["verdict"]) + ", "
                + val($s; $f; ["split_connections"] | in_object($s; "count")) + " TCP connections split across servers."; [.]));
def family_rows($b; $e):
  fam_pair($b; $e) as [$e4, $e6]
  | fam_row("verdict"; $e4; $e6; ["verdict"]; null; null)
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
  + fam_row("flow label in the hash (measured)"; $e4; $e6; ["flow_label","measured_in_hash"]; null; null);
# family_note: what IPv6 adds for the balancer, the flow label, and what
# the IPv6 run found of it.
def family_note($b; $e):
  fam_pair($b; $e)[1] as $e6
  | "<p>IPv6 adds the flow label: whether the router hashes it decides whether one source's connections can reach both servers (docs/lb-verify.md).</p>"
  + if ($e6.summary.flow_label.finding // null) != null then "<p>Flow label: \(val($e6.summary; $e6.file; ["flow_label","finding"]))</p>" else "" end;
def per_cpu_rows($b; $e): [];
def headline($b; $e): lb_card($b; $e.name);
# latency_rows: no probe in this experiment (analysis/report-probe.jq).
def latency_rows($b; $e): [];
