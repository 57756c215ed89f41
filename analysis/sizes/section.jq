# section.jq -- response sizes: its section of the report and its Findings
# sentences through the section interface at the end of this file
# (analysis/report-sections.jq; every value is tagged for analysis/report-check).

include "report-lib";

# sizes: .variants as an object {name: {...}} or an array [{name|variant: ...}].
def size_variants($s):
  if ($s.variants | type) == "object" then [$s.variants | to_entries[] | {name: .key, path: ["variants", .key]}]
  elif ($s.variants | type) == "array" then [$s.variants | to_entries[]
    | {name: (.value.name // .value.variant // (.key | tostring)), path: ["variants", .key]}]
  else [] end;

def paper_size_key($name):
  if ($name | test("unsigned")) then "unsigned"
  elif ($name | test("300")) then "signed_300k"
  elif ($name | test("signed")) then "signed"
  else null end;

# sizes_table($s; $f; $p): one row per zone variant: bytes per query in
# and out, the growth over unsigned, and the paper's where it has the
# variant (its column empty otherwise).
def sizes_table($s; $f; $p):
  size_variants($s) as $vs
  | if ($vs | length) == 0 then "<p>Per-variant bytes: \(nm)</p>" else
      "<table class=\"cmp\"><caption>Bytes per query on the wire (SNMP, the router's server port), by zone variant</caption>"
      + "<tr><th>zone variant</th><th>queries</th><th>bytes per query in</th><th>bytes per query out</th><th>growth of answers vs unsigned</th>"
      + "<th>paper \(val($p; "paper.json"; ["sizes","section"])): out per query</th><th>ratio this run / paper</th></tr>"
      + ([$vs[] | . as $v | paper_size_key($v.name) as $k
          | "<tr><th><code class=\"meta\">\($v.name | esc)</code></th>"
            + "<td>\(val($s; $f; $v.path + ["queries"]))</td>"
            + "<td>\(val($s; $f; $v.path + ["bytes_per_query_in"]; 1; null))</td>"
            + "<td>\(val($s; $f; $v.path + ["bytes_per_query_out"]; 1; null))</td>"
            + "<td>\(if ($s | at($v.path + ["growth_vs_unsigned"]) | type) == "number" then "+" + val($s; $f; $v.path + ["growth_vs_unsigned"]; 1; 100)
              + " %" else "" end)</td>"
            + (if $k == null then "<td></td><td></td>"
               else "<td>\(val($p; "paper.json"; ["sizes","tests",$k,"bytes_per_query_out"]; 1; null))</td>"
                 + "<td>\(calc("ratio"; ref($s; $f; $v.path + ["bytes_per_query_out"]); ref($p; "paper.json"; ["sizes","tests",$k,"bytes_per_query_out"]); 2;
                   null))</td>" end)
            + "</tr>"] | join(""))
      + "</table>"
    end;

def sizes_section($b; $key; $heading):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
  | "<section id=\"\($key)\"><h2>\($heading) \(status_badge($e))</h2>"
  + status_text($e; "the sizes experiment")
  + if $s == null then "</section>" else
      figures($e)
      + sizes_table($s; $f; $p)
      + (if ($p.sizes.growth_vs_unsigned | type) == "number" then "<p>The paper's answers grew by "
        + val($p; "paper.json"; ["sizes","growth_vs_unsigned"]; 0; 100) + " % when the zone was signed.</p>" else "" end)
      + "<details><summary>What is measured</summary><p>The same query set is sent slowly (so every query is answered) once to servers with the unsigned root "
        + "zone and once with a DNSSEC-signed one. The switch's SNMP octet counters on the router's server-side port give the bytes on the wire in both "
        + "directions; divided by the number of queries they give bytes per query. The growth of the answers is what signing costs in bandwidth. The paper ("
        + "\(val($p; "paper.json"; ["sizes","section"]))) found less growth than expected, because many queries, especially those answered NXDOMAIN, do not "
        + "ask for DNSSEC records (no OPT record or DO bit clear), so their answers do not grow; the tables of response codes, DO/OPT shares and advertised "
        + "EDNS sizes (the data page) test that explanation on this run's query set.</p></details>"
      + "<details><summary>Each variant beside the paper, in bytes</summary>"
      + ( [size_variants($s)[] | . as $v | paper_size_key($v.name) as $k
          | "<h4>Variant <code class=\"meta\">\($v.name | esc)</code></h4>" + cmp_head(val($p; "paper.json"; ["sizes","section"]))
          + cmp_row("queries"; $s; $f; $v.path + ["queries"]; null; null; $p; (if $k then ["sizes","tests",$k,"queries"] else null end); null)
          + cmp_row("bytes in (queries, SNMP)"; $s; $f; $v.path
            + ["bytes_in"]; null; null; $p; (if $k then ["sizes","tests",$k,"bytes_in"] else null end); null)
          + cmp_row("bytes out (answers, SNMP)"; $s; $f; $v.path
            + ["bytes_out"]; null; null; $p; (if $k then ["sizes","tests",$k,"bytes_out"] else null end); null)
          + cmp_row("bytes per query in"; $s; $f; $v.path
            + ["bytes_per_query_in"]; 1; null; $p; (if $k then ["sizes","tests",$k,"bytes_per_query_in"] else null end); null)
          + cmp_row("bytes per query out"; $s; $f; $v.path
            + ["bytes_per_query_out"]; 1; null; $p; (if $k then ["sizes","tests",$k,"bytes_per_query_out"] else null end); null)
          + (if $k != null and $k != "unsigned" then cmp_row("growth of answers vs unsigned, %"; $s; $f; $v.path
            + ["growth_vs_unsigned"]; 1; 100; $p; ["sizes","growth_vs_unsigned"]; null) else "" end)
          + "</table>"] | join("") )
      + "</details>"
      + "<details><summary>The paper's tables (response codes, queries without DNSSEC, EDNS sizes)</summary><div class=\"pair\">"
      + "<table class=\"csv\"><caption>\(val($p; "paper.json";
        ["sizes","rcodes","section"]))</caption>" + head_row(["rcode", "", "unsigned", "share", "signed", "share"])
      + ([$p.sizes.rcodes.rows | to_entries[] | .key as $i | ["sizes","rcodes","rows",$i] as $q
          | "<tr><td>\(val($p; "paper.json"; $q + ["code"]))</td><td>\(val($p; "paper.json"; $q + ["name"]))</td><td>"
            + "\(val($p; "paper.json"; $q + ["unsigned"]))</td><td>"
            + "\(if .value.unsigned_share then val($p; "paper.json"; $q + ["unsigned_share"]; 1; 100) + "%" else "" end)</td><td>"
            + "\(val($p; "paper.json"; $q + ["signed"]))</td><td>"
            + "\(if .value.signed_share then val($p; "paper.json"; $q + ["signed_share"]; 1; 100) + "%" else "" end)</td></tr>"] | join(""))
      + "<tr><th colspan=\"2\">total</th><td>\(val($p; "paper.json"; ["sizes","rcodes","total","unsigned"]))</td><td></td><td>"
        + "\(val($p; "paper.json"; ["sizes","rcodes","total","signed"]))</td><td></td></tr></table>"
      + "<table class=\"csv\"><caption>\(val($p; "paper.json"; ["sizes","no_dnssec","section"]))</caption>"
      + "<tr><td>NXDOMAIN</td><td>\(val($p; "paper.json"; ["sizes","no_dnssec","nxdomain"]; 0; 100))%</td></tr>"
      + "<tr><td>NOERROR</td><td>\(val($p; "paper.json"; ["sizes","no_dnssec","noerror"]; 0; 100))%</td></tr>"
      + "<tr><td>overall</td><td>\(val($p; "paper.json"; ["sizes","no_dnssec","overall"]; 0; 100))%</td></tr></table>"
      + "<table class=\"csv\"><caption>\(val($p; "paper.json"; ["sizes","edns_sizes","section"]))</caption>" + head_row(["EDNS size", "count", "share"])
      + ([$p.sizes.edns_sizes.rows | to_entries[] | .key as $i | ["sizes","edns_sizes","rows",$i] as $q
          | "<tr><td>\(val($p; "paper.json"; $q + ["size"]))</td><td>\(val($p; "paper.json"; $q + ["count"]))</td><td>"
            + "\(if .value.share then val($p; "paper.json"; $q + ["share"]; 0; 100) + "%" else "" end)</td></tr>"] | join(""))
      + "</table></div></details>"
      + settings_table($s; $f; $b.labels[$s.experiment] // {}) + more_link($key; $e)
      + "</section>"
    end;

# Sizes: the paper's signing against unsigned, then every other variant,
# in one sentence.
def finding_sizes($b; $key):
  $b.exps[$key] as $e | $e.summary as $s | $e.file as $f | $b.paper as $p
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

# ------------------------------------------------------------ the section interface
# (analysis/report-sections.jq; $e: the experiment's registry entry)

def section($b; $e): sizes_section($b; $e.name; $e.heading // $e.title);
# findings: the growth signing brings, in short, before the sentence.
def findings($b; $e):
  $b.exps[$e.name] as $x | $x.summary as $s | $x.file as $f
  | finding_sizes($b; $e.name)
  | map(finding("Signing as the paper did makes each answer " + val($s; $f; ["variants","signed","growth_vs_unsigned"]; 1; 100)
                + " % larger in bytes (the paper: " + val($b.paper; "paper.json"; ["sizes","growth_vs_unsigned"]; 0; 100) + " %)."; [.]));
def family_rows($b; $e):
  fam_pair($b; $e) as [$e4, $e6]
  | fam_row("status"; $e4; $e6; ["status"]; null; null)
  + ([(($e4.summary.variants // {}) | keys_unsorted[]) as $v | select(($e6.summary.variants // {}) | has($v))
      | fam_row("<code class=\"meta\">\($v | esc)</code>: bytes per query in"; $e4; $e6; ["variants",$v,"bytes_per_query_in"]; 1; null)
        + fam_row("<code class=\"meta\">\($v | esc)</code>: bytes per query out"; $e4; $e6; ["variants",$v,"bytes_per_query_out"]; 1; null)
        + fam_row("<code class=\"meta\">\($v | esc)</code>: growth of answers vs unsigned, %"; $e4; $e6; ["variants",$v,"growth_vs_unsigned"]; 1; 100)]
          | join(""));
def family_note($b; $e): "";
def per_cpu_rows($b; $e): [];
def headline($b; $e): "";
# latency_rows: no probe in this experiment (analysis/report-probe.jq).
def latency_rows($b; $e): [];
