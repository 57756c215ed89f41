# server-conf.jq -- the operator's own server configuration (SERVER_CONF,
# a lab's own build: scripts/lib/lab-own.sh) merged with the one the suite
# renders (scripts/templates/*.conf.in): every statement of theirs is kept,
# added to the clause (NSD), section or list item (Knot DNS) or block (BIND 9)
# it belongs to; one that sets what the suite's configuration sets, to
# another value, is a conflict, refused naming both: their line and the
# suite's statement, with the setting or inventory value that renders it
# (read from the template's placeholder). Pure: the shell passes the texts.
#
# A configuration is read as blocks, each {sec, item, line, start, end,
# at, indent, list, stmts: [{key, value, line, start, end}]}: NSD's clauses
# (item: a zone's or pattern's name), Knot's sections and their list items
# (item: "id=x", "domain=."), BIND's top-level statements (item: their
# arguments: zone "."); start/end: the block's text, at: where statements
# are added to it; values normalised (quotes off, lists as sorted words).

# conf_lines: the text as lines with their offsets [{n, text, off}];
# a line that is only a template placeholder (@TLS_LISTEN@) is blanks.
def conf_lines:
  split("\n") as $l
  | reduce range(0; $l | length) as $i ({off: 0, out: []};
      .out += [{n: ($i + 1), off: .off,
                text: (if $l[$i] | test("^\\s*@[A-Z_0-9]+@\\s*$") then $l[$i] | gsub("."; " ") else $l[$i] end)}]
      | .off += ($l[$i] | length) + 1)
  | .out;

# conf_uncomment: a line without its # comment (not inside double quotes).
def conf_uncomment: (capture("^(?<c>([^\"#]|\"[^\"]*\")*)").c // "");

# conf_capture(re): capture's object with "" for a group that matched
# nothing (jq 1.6 gives null there), null when RE does not match.
def conf_capture(re): [capture(re)] | first // null | if . == null then null else map_values(. // "") end;

def conf_unquote: if test("^\".*\"$") then .[1:-1] else . end;

# conf_values: a value as its sorted words: a Knot list [ a, b ] or one
# word, quotes off.
def conf_values:
  gsub("^\\s+|\\s+$"; "")
  | if test("^\\[.*\\]$") then .[1:-1] | split(",") | map(gsub("^\\s+|\\s+$"; "") | conf_unquote) | map(select(. != ""))
    else [conf_unquote] end
  | sort;

def conf_err($name; $n; $why): error("\($name) line \($n): \($why)");

# conf_refuse_include($name): an include's statements would escape the
# check against what the suite needs.
def conf_refuse_include($name; $n; $k):
  if $k == "include" then conf_err($name; $n; "include: put the included statements in the file itself, so that they are checked against what the suite needs") else . end;

# conf_parse_nsd($name): nsd.conf (NSD clauses "name:" and "key: value").
def conf_parse_nsd($name):
  reduce (conf_lines[] | . + {code: (.text | conf_uncomment)} | select(.code | test("\\S"))) as $l ([];
    ($l.code | conf_capture("^(?<ind>\\s*)(?<k>[A-Za-z0-9_.-]+):\\s*(?<v>.*?)\\s*$")) as $m
    | if $m == null then conf_err($name; $l.n; "not a clause or a \"key: value\" line: \($l.text)")
      elif $m.v == "" then . + [{sec: $m.k, item: null, line: $l.n, start: $l.off, end: ($l.off + ($l.text | length)),
                                 at: ($l.off + ($l.text | length)), indent: "    ", list: false, stmts: []}]
      elif length == 0 then conf_err($name; $l.n; "\($m.k): outside any clause")
      else conf_refuse_include($name; $l.n; $m.k)
        | .[-1] |= (.stmts += [{key: $m.k, value: ($m.v | conf_values), line: $l.n, start: $l.off,
                                end: ($l.off + ($l.text | length))}]
                    | .end = ($l.off + ($l.text | length)) | .at = .end
                    | if (.stmts | length) == 1 then .indent = $m.ind else . end)
      end)
  | map(.item = ((.stmts[] | select(.key == "name") | .value | join(" ")) // null));

# conf_parse_knot($name): knot.conf (sections at the margin, each a mapping
# or a list of items "- id: x", their "key: value" lines indented).
def conf_parse_knot($name):
  reduce (conf_lines[] | . + {code: (.text | conf_uncomment)} | select(.code | test("\\S"))) as $l ({b: [], sec: null};
    ($l.code | conf_capture("^(?<ind>\\s*)(?<dash>- +)?(?<k>[A-Za-z0-9_.-]+):\\s*(?<v>.*?)\\s*$")) as $m
    | ($l.off + ($l.text | length)) as $eol
    | if $m == null then conf_err($name; $l.n; "not a section, an item or a \"key: value\" line: \($l.text)")
      elif $m.ind == "" and $m.dash == "" then
        conf_refuse_include($name; $l.n; $m.k)
        | if $m.v != "" then conf_err($name; $l.n; "\($m.k): a value at the margin (not a section)") else . end
        | .sec = $m.k
        | .b += [{sec: $m.k, item: null, line: $l.n, start: $l.off, end: $eol, at: $eol, indent: "    ", list: false, stmts: []}]
      elif .sec == null then conf_err($name; $l.n; "\($m.k): outside any section")
      elif $m.dash != "" then
        .b += [{sec: .sec, item: "\($m.k)=\($m.v | conf_unquote)", line: $l.n, start: $l.off, end: $eol, at: $eol,
                  indent: ($m.ind + ($m.dash | gsub("-"; " "))), dash: ($m.ind | length), list: true,
                  stmts: [{key: $m.k, value: ($m.v | conf_values), line: $l.n, start: $l.off, end: $eol}]}]
      elif $m.v == "" then conf_err($name; $l.n; "\($m.k): a nested mapping or a block list (write its values on one line: [ a, b ])")
      else .b[-1] |= (.stmts += [{key: $m.k, value: ($m.v | conf_values), line: $l.n, start: $l.off, end: $eol}]
                      | .end = $eol | .at = $eol
                      | if .list == false and (.stmts | length) == 1 then .indent = $m.ind else . end)
      end)
  # (a list section's header is a block of no statements before its items)
  | .b;

# conf_bind_tokens: BIND's tokens [{t, off}], comments left out.
def conf_bind_tokens:
  [match("\"(?:[^\"\\\\]|\\\\.)*\"|/\\*(?:[^*]|\\*+[^*/])*\\*+/|//[^\\n]*|#[^\\n]*|[{};]|[^\\s{};\"]+"; "g")
   | select(.string | test("^(/\\*|//|#)") | not) | {t: .string, off: .offset}];

# conf_parse_bind($name): named.conf (top-level statements, those with a
# block read one level down: "key rest;" statements, nested blocks kept
# as their words).
def conf_parse_bind($name):
  . as $text
  | def lineof($o): ($text[0:$o] | [match("\n"; "g")] | length) + 1;
    def norm: map(.t) | join(" ") | gsub("\\s+"; " ") | gsub(" ;"; ";");
  # (a whole-line template placeholder counts as nothing)
  (conf_lines | map(.text) | join("\n") | conf_bind_tokens) as $tok
  | reduce $tok[] as $k ({b: [], depth: 0, cur: [], head: null};
      if .depth == 0 then
        if $k.t == ";" then
          if .cur == [] then . else
          .b += [{sec: .cur[0].t, item: (.cur[1:] | norm | if . == "" then null else . end), line: lineof(.cur[0].off),
                  start: .cur[0].off, end: ($k.off + 1), at: null, indent: "    ", list: false, stmts: []}]
          | .cur = [] end
        elif $k.t == "{" then
          if .cur == [] then conf_err($name; lineof($k.off); "a block without a statement name") else . end
          | .head = {sec: .cur[0].t, item: (.cur[1:] | norm | if . == "" then null else . end), line: lineof(.cur[0].off),
                     start: .cur[0].off, stmts: []}
          | .cur = [] | .depth = 1
        elif $k.t == "}" then conf_err($name; lineof($k.off); "a } without its {")
        else .cur += [$k] end
      elif .depth == 1 and $k.t == "}" then
        if .cur != [] then conf_err($name; lineof(.cur[0].off); "\(.cur[0].t): no ; before the }") else . end
        | .head.at = $k.off | .depth = -1
      elif .depth == -1 then
        if $k.t != ";" then conf_err($name; lineof($k.off); "no ; after the } of \(.head.sec)") else . end
        | .b += [.head + {end: ($k.off + 1), indent: "    ", list: false}] | .head = null | .depth = 0
      elif .depth == 1 and $k.t == ";" then
        if .cur == [] then . else
        conf_refuse_include($name; lineof(.cur[0].off); .cur[0].t)
        | .head.stmts += [{key: .cur[0].t, value: [.cur[1:] | norm | gsub("\""; "")], line: lineof(.cur[0].off),
                           start: .cur[0].off, end: ($k.off + 1)}]
        | .cur = [] end
      else
        .cur += [$k] | if $k.t == "{" then .depth += 1 elif $k.t == "}" then .depth -= 1 else . end
      end)
  | if .depth != 0 or .cur != [] then conf_err($name; lineof($text | length); "ends inside a statement (a missing ; or })") else . end
  | .b
  | map(if .sec == "include" then conf_err($name; .line; "include: put the included statements in the file itself, so that they are checked against what the suite needs") else . end);

def conf_parse($kind; $name):
  if $kind == "nsd" then conf_parse_nsd($name)
  elif $kind == "knot" then conf_parse_knot($name)
  elif $kind == "bind" then conf_parse_bind($name)
  else error("conf_parse: unknown server kind \($kind)") end;

# conf_placeholder_what: what renders a template placeholder (@NAME@).
def conf_placeholder_what:
  {ROLE: "the server's role name", SERVICE4: "the service address (rb_service4)", SERVICE6: "the service address (rb_service6)",
   ADDR4: "the server's own test address (rb_addr4)", ADDR6: "the server's own test address (rb_addr6)",
   WORKERS: "SERVER_WORKERS", REUSEPORT: "SERVER_WORKERS", TCP_CLIENTS: "SERVER_TCP_CLIENTS",
   TCP_TIMEOUT: "SERVER_TCP_TIMEOUT", TCP_TIMEOUT_DS: "SERVER_TCP_TIMEOUT", BACKLOG: "SERVER_BACKLOG",
   MINIMAL: "MINIMAL_RESPONSES", EDNS_SIZE: "SERVER_EDNS_SIZE", ZONEDIR: "the zones served (ZONES)",
   STATEDIR: "the daemon's state directory (its pid file, log, control channel and statistics)"};

def conf_where($b): "\($b.sec)\(if $b.item == null then "" else " \($b.item)" end)";

# conf_merge($kind; $suite; $template; $tname; $theirs; $name): {text,
# conflicts, added}: $theirs (file $name) merged into $suite (rendered from
# $template, file $tname), or the conflicts ([string]) when there are any
# (text null then); added: how many of their statements were added.
def conf_merge($kind; $suite; $template; $tname; $theirs; $name):
  ($suite | conf_parse($kind; "the suite's configuration")) as $s
  | ($template | conf_parse($kind; "the template")) as $p
  | ($theirs | conf_parse($kind; $name)) as $t
  | def find($bs; $b): [$bs[] | select(.sec == $b.sec and .item == $b.item)] | first // null;
    def what($sb; $key): (find($p; $sb) // {stmts: []}) as $pb
      | ([$pb.stmts[] | select(.key == $key) | .value[] | [match("@([A-Z_0-9]+)@"; "g").captures[0].string][]] | unique) as $ph
      | if $ph != [] then [$ph[] | conf_placeholder_what[.] // .] | unique | join(", ")
        elif $sb.sec == "zone" then "the zones served (ZONES)"
        elif ([$pb.stmts[] | select(.key == $key)] | length) > 0 then "what the suite needs (\($tname) line \([$pb.stmts[] | select(.key == $key) | .line] | first))"
        else "what the suite renders for its settings (SERVER_TLS, SERVER_RRL, the zones)" end;
  # one conflict a key: their values against the suite's
  [ $t[] as $tb | find($s; $tb) as $sb | select($sb != null)
    | ($tb.stmts | map(.key) | unique)[] as $key
    | ([$tb.stmts[] | select(.key == $key)]) as $ts | ([$sb.stmts[] | select(.key == $key)]) as $ss
    | select($ss != [] and ([$ts[].value[]] | sort) != ([$ss[].value[]] | sort))
    | "\($name) line \($ts[0].line) sets \(conf_where($tb)) \($key) \([$ts[].value[]] | join(", ")), where the suite needs \([$ss[].value[]] | join(", ")) (\(what($sb; $key))): change one of them" ] as $conflicts
  | if $conflicts != [] then {text: null, conflicts: $conflicts, added: 0}
    else
      # their statements the suite's block lacks, added where its block takes them
      [ $t[] as $tb | find($s; $tb) as $sb | select($sb != null)
        | [$tb.stmts[] | . as $st | select([$sb.stmts[] | select(.key == $st.key)] == [])] as $new
        | select($new != [])
        | {at: $sb.at, n: ($new | length),
           text: ($new | map($sb.indent + ($theirs[.start:.end] | gsub("^\\s+"; ""))) | join("\n"))} ] as $ins
      # their list items (Knot) whose section the suite has, after its last
      # block, at its items' indentation
      | def spaces($n): if $n > 0 then " " * $n else "" end;
      [ $t[] as $tb | select($tb.list and find($s; $tb) == null)
        | ([$s[] | select(.sec == $tb.sec)] | last) as $last | select($last != null)
        | {at: $last.end, n: ($tb.stmts | length),
           text: ($theirs[$tb.start:$tb.end] | split("\n")
                  | map(if $last.dash != null then spaces($last.dash) + .[$tb.dash:] else . end) | join("\n"))} ] as $items
      # their blocks the suite has none of, at the end, in their order
      | [ $t[] as $tb | select(find($s; $tb) == null)
          | select(($tb.list and ([$s[] | select(.sec == $tb.sec)] | length) > 0) | not)
          | {n: ([$tb.stmts | length, 1] | max), text: $theirs[$tb.start:$tb.end]} ] as $blocks
      | {text: ((reduce ($ins + $items | sort_by(.at) | reverse)[] as $i ($suite;
                   if $kind == "bind" then .[0:$i.at] + $i.text + "\n" + .[$i.at:]
                   else .[0:$i.at] + "\n" + $i.text + .[$i.at:] end))
                + ($blocks | map("\n" + .text + "\n") | join(""))),
         conflicts: [], added: ($ins + $items + $blocks | map(.n) | add // 0)}
    end;
