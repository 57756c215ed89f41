# probe-stats.jq -- the compact per-protocol statistics a sweep's summary
# carries for one probe run (rbprobe's JSON, schema rootbench.probe/1,
# docs/probe.md): per protocol the counts by outcome, availability and
# correctness (null when nothing was sent or answered, as rbprobe writes
# them) and the latency percentiles in ms (null when nothing was answered).

# probe_stats_protocol: one protocol's object of rbprobe's JSON (input) as STATS.
def probe_stats_protocol:
  {sent, answered, timeouts, incorrect, errors, availability, correct_fraction,
   p50_ms: .latency_ms.p50, p90_ms: .latency_ms.p90, p99_ms: .latency_ms.p99,
   p999_ms: .latency_ms.p999, max_ms: .latency_ms.max};

# probe_stats: rbprobe's JSON (input) as {"udp": STATS, "tcp": STATS}; an
# error for anything else.
def probe_stats:
  if (.schema? // null) != "rootbench.probe/1" then error("not an rbprobe result (schema rootbench.probe/1): \(.schema? // "no schema")")
  else {udp: (.udp | probe_stats_protocol), tcp: (.tcp | probe_stats_protocol)} end;
