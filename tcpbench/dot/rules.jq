# rules.jq -- DNS over TLS (tcpbench/dot/run): what other experiments read of
# its summary (rootbench.dot/1). The sweeps' own rules are the TCP sweep's
# (tcpbench/sweep/rules.jq); run writes the summary that these read.

# ------------------------------------------------------------ read by other experiments
# Another experiment reads a DoT summary only through these accessors, never
# by a field's path: each checks the schema and fails naming both when it is
# not this file's, so a consumer older than the summary stops.
# (jq -L "$RB_TOP" 'import "tcpbench/dot/rules" as dot; dot::dot_sweep(.; "full"; "1p1s")')
def dot_schema: "rootbench.dot/1";
def dot_summary_checked($s):
  if ($s | type) == "object" and $s.schema == dot_schema then $s
  else error("a DoT summary of schema \(dot_schema) (tcpbench/dot/rules.jq) was expected; this one's schema is "
             + "\(if ($s | type) == "object" then $s.schema // "none" else "none: not a summary" end): "
             + "read it with the rules of its version") end;
# one sweep's configuration ($kind: full or resume; $config: 1p1s, ...):
# {knee_0_1pct, knee_1pct, max_handled, verdict, layer, caused_by, server_capacity, ...}
# (handshakes/s), null when that sweep did not run; its status: dot_sweep_status
def dot_sweep($s; $kind; $config): dot_summary_checked($s)[$kind].configs[$config] // null;
def dot_sweep_status($s; $kind): dot_summary_checked($s)[$kind].status // null;
# why the DoQ sweeps did not run (DOT_QUIC=auto and a server without
# DoQ), null when they ran or were not asked for
def dot_doq_skipped($s): dot_summary_checked($s).doq_skipped // null;
# the bytes part's status (ok, failed, ...; null when it did not run)
def dot_bytes_status($s): dot_summary_checked($s).bytes.status // null;
# bytes on the wire per query (both directions) of a bytes case (udp, tcp-1,
# tls-full-1, tls-resume-1, tls-full-N, tls-resume-N), null when not measured
def dot_bytes_per_query($s; $case): [dot_summary_checked($s).bytes.cases[]? | select(.case == $case) | .per_query.total][0] // null;
