# probe-stats.jq -- the compact per-protocol statistics a sweep's summary
# carries for one probe run (rbprobe's JSON, schema rootbench.probe/1,
# docs/probe.md): per protocol the counts by outcome, availability and
# correctness (null when nothing was sent or answered, as rbprobe writes
# them) and the latency percentiles in ms (null when nothing was answered).

def probe_result_schema: "rootbench.probe/1";

# probe_raw_checked: rbprobe's result (input; null stays null), or an
# error naming the schema it has.
def probe_raw_checked:
  if . == null then null
  elif (type == "object" and .schema == probe_result_schema) then .
  else error("a probe result of schema \(probe_result_schema) was expected; this one's schema is \(.schema? // type)") end;

# probe_stats_protocol: one protocol's object of rbprobe's JSON (input) as STATS.
def probe_stats_protocol:
  {sent, answered, timeouts, incorrect, errors, availability, correct_fraction,
   p50_ms: .latency_ms.p50, p90_ms: .latency_ms.p90, p99_ms: .latency_ms.p99,
   p999_ms: .latency_ms.p999, max_ms: .latency_ms.max};

# probe_stats: rbprobe's JSON (input) as {"udp": STATS, "tcp": STATS}; an
# error for anything else.
def probe_stats:
  if . == null then error("not an rbprobe result: null")
  else probe_raw_checked | {udp: (.udp | probe_stats_protocol), tcp: (.tcp | probe_stats_protocol)} end;
