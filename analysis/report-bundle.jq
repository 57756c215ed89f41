# report-bundle.jq: the bundle analysis/report.jq and report-data.jq
# render, built by one jq run from what analysis/report found in a results
# directory (the report runs often in the tests; a jq per file cost most
# of its time).
#
# Named arguments (analysis/report bundle_json):
#   manifest   what was found, a line each, fields separated by tabs:
#                exp NAME TARGET         an experiment of the registry, its
#                                        directory present (exp-absent: not)
#                summary NAME DOC        NAME/summary.json, in argument DOC
#                fig NAME PNG SVG PDF    a figure (SVG, PDF: "" when absent)
#                table NAME FILE TNAME DOC   a CSV table: its path in the
#                                        run, in the experiment, its text
#                text NAME FILE          a text file
#                sub NAME KEY DOC        NAME/KEY/summary.json
#                testbed DOC, bench DOC  testbed.json, bench.json
#                zone KEY DOC            zones/KEY.json
#   docN       the text of the Nth file
#   run, generated, fixture, limit (the CSV rows shown), and the slurped
#   paper, labels, registry.

# fields: a manifest line's fields.
def fields: split("\t");
def doc($d): $ARGS.named["doc" + $d];
def blank: test("^[ \t\r\n]*$");

# parsed: a text's JSON as {ok: value}, or {err: the parser's message}.
# The try is closed inside [...]: jq 1.6's try also catches errors raised
# later in the pipeline that passed through it.
def parsed: [try {ok: fromjson} catch {err: .}][0];

# json_or_null: a file's JSON, or null when it is empty, not JSON, null
# or false (as `jq -e .` rejects).
def json_or_null: parsed | .ok // null;

# summary_of: {summary, summary_error} of an experiment's summary.json
# text: null for an empty file; for a file that is not JSON, the message
# jq itself prints (fromjson adds the text it parsed, removed here).
def summary_of:
  . as $t
  | if blank then {summary: null, summary_error: null}
    else parsed
         | if has("ok") then {summary: .ok, summary_error: null}
           else {summary: null, summary_error: ("parse error: " + (.err | tostring | rtrimstr(" (while parsing '\($t)')")))} end
    end;

# table($f; $name; $text; $limit): a CSV table as the report shows it.
def table($f; $name; $text; $limit):
  ($text | split("\n") | map(select(length > 0))) as $l
  | ([$l[] | select(startswith("#"))][0] // "" | ltrimstr("#") | sub("^ +"; "") | split(",")) as $h
  | [$l[] | select(startswith("#") | not) | split(",")] as $rows
  | {file: $f, name: $name, header: $h,
     rows: (if ($rows | length) > $limit then [] else $rows end),
     nrows: ($rows | length), limit: $limit};

# experiment($name; $target; $m): one experiment's part of the bundle
# from its manifest lines $m.
def experiment($name; $target; $exists; $m; $limit):
  def mine($kind): $m[] | select(.[0] == $kind and .[1] == $name);
  if $exists | not then
    {file: "\($name)/summary.json", target: $target, dir_exists: false, summary: null, summary_error: null,
     figures: [], tables: [], texts: [], subs: {}}
  else
    ([mine("summary")][0] // null | if . == null then {summary: null, summary_error: null} else doc(.[2]) | summary_of end) as $s
    | {file: "\($name)/summary.json", target: $target, dir_exists: true, summary: $s.summary,
       summary_error: $s.summary_error,
       figures: [mine("fig") | {png: .[2], svg: (.[3] | if . == "" then null else . end), pdf: (.[4] | if . == "" then null else . end)}],
       tables: [mine("table") | table(.[2]; .[3]; doc(.[4]); $limit)],
       texts: [mine("text") | .[2]],
       subs: ([mine("sub") | {(.[2]): {summary: (doc(.[3]) | json_or_null)}}] | add // {})}
  end;

def bundle:
  ($ARGS.named.manifest | split("\n") | map(select(length > 0) | fields)) as $m
  | ($ARGS.named.limit | tonumber) as $limit
  | def one($kind): [$m[] | select(.[0] == $kind) | doc(.[1]) | json_or_null][0] // null;
  {run: $ARGS.named.run, generated: $ARGS.named.generated, fixture: ($ARGS.named.fixture == "true"),
   testbed: one("testbed"), bench: one("bench"),
   zones: ([$m[] | select(.[0] == "zone") | .[1] as $k | doc(.[2]) | select(blank | not)
            | parsed | select(has("ok")) | {($k): .ok}] | add // {}),
   paper: $paper[0], labels: $labels[0], registry: $registry[0].experiments, order: ($registry[0].report_order // {}),
   exps: ([$m[] | select(.[0] == "exp" or .[0] == "exp-absent")
           | {(.[1]): experiment(.[1]; .[2]; .[0] == "exp"; $m; $limit)}] | add // {})};
