# rules.jq -- the load-balancer experiment's rules, in one place: the
# verdict and its reasons, what the IPv6 flow label did at the router's
# hash, and the text report. scripts/lb/run and the fixture test
# (scripts/lb/tests/10-rules.test with scripts/lb/testdata/) both call
# these functions; nothing else restates them.

# A number written in hex ("0x0008") or decimal ("8"), as sysctl prints
# net.ipv6.fib_multipath_hash_fields; null when it is neither.
def hex_or_decimal:
  if startswith("0x") or startswith("0X") then
    .[2:] | ascii_downcase | explode
    | if length > 0 and all(.[]; (. >= 48 and . <= 57) or (. >= 97 and . <= 102))
      then reduce (.[] | if . >= 97 then . - 87 else . - 48 end) as $d (0; . * 16 + $d)
      else null end
  else tonumber? // null end;

# Whether the router's configuration puts the flow label in its IPv6 hash:
# policy 0 (and 2) hash addresses, flow label and next header; 3 the fields
# of fib_multipath_hash_fields, where bit 0x0008 is the flow label; 1 the
# 5-tuple, without it.
def lb_label_configured($pol; $fields):
  if $pol == "0" or $pol == "2" then true
  elif $pol == "3" then (($fields | hex_or_decimal) // 0) / 8 | floor | . % 2 == 1
  else false end;

# The flow label over IPv6, from the servers' captures. Input: rows, each
# ["syn", SERVER, SOURCE, LABEL] for a connection's SYN or ["seg", CONN,
# LABEL] for every segment toward the service (CONN: source/port). $lb the
# balancer's mode, $pol and $fields the router's sysctls, $auto the
# player's net.ipv6.auto_flowlabels ("" when unread).
def lb_flow_label($lb; $pol; $fields; $auto):
  . as $r
  | [$r[] | select(.[0] == "syn") | {server: .[1], src: .[2], label: .[3]}] as $syns
  | ($syns | group_by(.src) | map({src: .[0].src, labels: (map(.label) | unique | length),
                                    servers: (map(.server) | unique | length), syns: length})) as $per
  | ([$r[] | select(.[0] == "seg")] | group_by(.[1]) | map(select((map(.[2]) | unique | length) > 1)) | length) as $changed
  | ([$per[] | select(.labels >= 2)]) as $multi
  | ([$multi[] | select(.servers == 1)] | length) as $multi_one
  | ([$multi[] | select(.servers >= 2)] | length) as $multi_both
  | ([$syns[] | .label] | unique | length) as $distinct
  | (($multi | length) == 0 or $distinct < 2) as $unmeasurable
  | ($lb == "l4" or $lb == "per-packet") as $ports
  | {router_hash_policy: ($pol | tonumber? // null), router_hash_fields: (if $fields == "" then null else $fields end),
     player_auto_flowlabels: ($auto | tonumber? // null),
     policy_rule: ("net.ipv6.fib_multipath_hash_policy 0: addresses + flow label + next header; 1: 5-tuple; 3: the fields of fib_multipath_hash_fields (0x0008 "
       + "= flow label)"),
     configured_in_hash: lb_label_configured($pol; $fields),
     syns: ($syns | length), distinct_labels: $distinct,
     sources: ($per | length), sources_with_several_labels: ($multi | length),
     of_them_on_one_server: $multi_one, of_them_on_both_servers: $multi_both,
     connections_label_changed: $changed,
     measured_in_hash: (if $unmeasurable or $ports then null else $multi_both > 0 end),
     finding: (if $unmeasurable then "not measurable: no source sent connections with different flow labels"
               elif $ports then "not measurable with LB=\($lb): ports (or chance) spread a source without the label"
               elif $multi_both > 0 then "the flow label enters the hash: \($multi_both) of \($multi | length) sources whose connections carried different "
                 + "labels reached both servers (the addresses alone would keep each on one), while \($changed) connections changed label mid-way"
               else "the flow label does not enter the hash: all \($multi | length) sources whose connections carried different labels (\($distinct) labels "
                 + "in \($syns | length) SYNs) stayed on one server" end)};

# The verdict. Input: {failed, sent, split, capture_ok, connections,
# answered, lb, family ("ipv4"|"ipv6"), overlap, interrupted, measured,
# planned, syns: {server1, server2}}. PASS when nothing failed, no
# connection was split, both captures are complete and hold a connection
# per answered query, the run was not interrupted and, for a balancer
# that hashes addresses only (l3; l3-flowlabel over IPv4, which has no
# label), no source reached both servers. Output: {verdict, reasons,
# notes}.
def lb_verdict:
  . as $m
  | (if $m.lb == "l3-flowlabel" and $m.family == "ipv4" then "l3" else $m.lb end) as $lbf
  | [ (if $m.failed > 0 then "\($m.failed) of \($m.sent) queries failed" else empty end),
      (if $m.split > 0 then "\($m.split) TCP connections had segments on both servers (split connections)" else empty end),
      (if $m.capture_ok then empty else "a capture is incomplete (tcpdump dropped or lost packets): the connection check is not valid" end),
      (if $m.connections >= $m.answered then empty
       else "the captures hold \($m.connections) TCP connections for \($m.answered) answered queries: dig reused connections or the capture missed some, the "
         + "check is not valid" end),
      (if $lbf == "l3" and $m.overlap > 0 then "\($m.overlap) sources reached both servers: LB=l3 must keep a source on one server" else empty end),
      (if $m.interrupted then "interrupted after \($m.measured) of \($m.planned) sources" else empty end) ] as $reasons
  | [ (if $lbf == "l3-flowlabel" and $m.overlap > 0 then
    "LB=l3-flowlabel hashes the IPv6 flow label, which differs per connection: \($m.overlap) sources on both servers is expected and allowed; only split "
    + "connections would be wrong (a connection whose label changes, e.g. after a retransmission timeout, could be split)" else empty end),
      (if $lbf == "l4" and $m.overlap > 0 then "LB=l4 hashes on the 5-tuple, so one source's connections spread over both servers: \($m.overlap) sources on "
        + "both is expected and allowed; only split connections would be wrong" else empty end),
      (if $lbf == "per-packet" then "LB=per-packet is the deliberately broken balancer, the negative control: it must FAIL" else empty end),
      (if $m.syns.server1 == 0 or $m.syns.server2 == 0 then "only one server saw connections: the overlap criterion says little with so few sources" else
        empty end) ] as $notes
  | {verdict: (if ($reasons | length) == 0 then "PASS" else "FAIL" end), reasons: $reasons, notes: $notes};

# The text report (report.txt and the run's output) of a summary.json.
def lb_report_text:
  def col: tostring | . + "                          " | .[0:26];
  "lb-verify: TCP stickiness of the load balancer (paper section 4)",
  "  status \(.status), LB=\(.lb), \(.settings.family), \(.sources) of \(.settings.sources) sources (\(.settings.first_source) .. \(.settings.last_source) of "
    + "\(.settings.block) on \(.settings.player)), \(.queries_per_source) TCP queries each",
  "  run time \(.duration_s) s",
  "",
  "                          this run                  paper",
  "  sources tested          \(.sources | col)\(.paper.sources) (of 508)",
  "  queries sent            \(.queries | col)\(.paper.sources * .paper.digs_per_source) (\(.paper.digs_per_source) per source)",
  "  failed queries          \(.failed.total | col)\(.paper.failed)",
  "  sources per server      \("\(.per_server.server1.sources) / \(.per_server.server2.sources)" | col)\(.paper.per_server.juniper.server1)/"
    + "\(.paper.per_server.juniper.server2) (Juniper), \(.paper.per_server.cisco.server1)/\(.paper.per_server.cisco.server2) (Cisco)",
  "  sources on both         \(.overlap_sources.count | col)\(.paper.overlap_sources)",
  "  split TCP connections   \(.split_connections.count | col)\(.paper.split_connections) (\"no TCP fragments ended at another server\")",
  "",
  "  failures by cause: refused \(.failed.refused), reset \(.failed.reset), timeout \(.failed.timeout), eof \(.failed.eof), rcode \(.failed.rcode), other "
    + "\(.failed.other), no outcome \(.failed.missing)",
  "  answers (client view, id.server): server1 \(.answered_by.server1), server2 \(.answered_by.server2)",
  "  server1: \(.per_server.server1.sources) sources, \(.per_server.server1.connections) connections (\(.per_server.server1.syns) SYNs), capture "
    + "\(.per_server.server1.capture.captured)/\(.per_server.server1.capture.received) packets, \(.per_server.server1.capture.dropped) dropped",
  "  server2: \(.per_server.server2.sources) sources, \(.per_server.server2.connections) connections (\(.per_server.server2.syns) SYNs), capture "
    + "\(.per_server.server2.capture.captured)/\(.per_server.server2.capture.received) packets, \(.per_server.server2.capture.dropped) dropped",
  "  TCP connections seen \(.connections) for \(.queries) queries (\(.answered) answered): "
    + "\(if .connections >= .answered then "a new connection per query" else "FEWER than queries" end)",
  (if .overlap_sources.count > 0 then "  sources on both servers (sample): \(.overlap_sources.sample | join(" "))" else empty end),
  (if .split_connections.count > 0 then "  split connections (sample): \(.split_connections.sample | join(", "))" else empty end),
  (if .flow_label then "  flow label: \(.flow_label.finding) (router net.ipv6.fib_multipath_hash_policy \(.flow_label.router_hash_policy), fields "
    + "\(.flow_label.router_hash_fields))" else empty end),
  (.notes[] | "  note: " + .),
  (.reasons[] | "  reason: " + .),
  "",
  "verdict: \(.verdict)";
