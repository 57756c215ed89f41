# steps.jq: attack steps made by hand for the rules' fixture test
# (tests/10-attack-rules.test): NSD with its defences off and on, a DNSKEY
# reflection and a SYN flood at 2,000 and 20,000/s each.
def probe($udp_av; $udp_p50; $tcp_av; $tcp_p50):
  def proto($av; $p50; $rate):
    {rate: $rate, sent: 30, answered: (30 * $av | floor), timeouts: (30 - (30 * $av | floor)), incorrect: 0, errors: 0, late: 0,
     availability: $av, correct_fraction: (if $av > 0 then 1 else null end),
     latency_ms: {p50: $p50, p90: $p50, p99: $p50, p999: $p50, max: $p50},
     answers_by_verdict: {correct: (30 * $av | floor), truncated: 0}};
  {schema: "rootbench.probe/1", server: "198.18.0.53", qname: ".", qtype: "SOA", timeout_ms: 4000, expected_serial: 1,
   udp: proto($udp_av; $udp_p50; 10), tcp: proto($tcp_av; $tcp_p50; 10)};
def collateral($full; $slip):
  {schema: "rootbench.probe/1", udp: {rate: 10, sent: 30, answered: ($full + $slip), timeouts: (30 - $full - $slip), availability: (($full + $slip) / 30),
   answers_by_verdict: {correct: $full, truncated: $slip}, latency_ms: {p50: 0.3}}, tcp: {rate: 0, sent: 0}};
def flood($kind; $rate; $achieved; $answers; $amp; $tcp):
  {schema: "rootbench.attack-flood/1", kind: $kind, requested_rate: $rate, seconds: 2, sent: ($achieved * 2), achieved_rate: $achieved,
   answers: ($answers * 2), answered_rate: $answers, answer_bytes: ($answers * 2 * (if $amp == null then 100 else $amp * 60 end)),
   amplification: (if $amp == null then null else {bytes: $amp, packets: 1} end),
   servers: {tcp: $tcp}, sink: {reflected_udp: {packets: ($answers * 2), bytes: 0}, reflected_tcp: {packets: 0, bytes: 0}}};
def step($d; $kind; $rate; $f; $p; $c):
  {schema: "rootbench.attack-step/1", server: "nsd", defence: $d, kind: $kind, rate: $rate, seconds: 2, settings_id: "x",
   flood: $f, probe: $p, collateral: $c, background: {sent: 1000, answered: 990}, server_cpu_pct: 50};
def refl($d; $rate; $achieved; $answers; $amp; $p; $c):
  step($d; "reflection-dnskey"; $rate; flood("reflection-dnskey"; $rate; $achieved; $answers; $amp; null); $p; $c);
def syn($d; $rate; $drops; $cookies; $p):
  step($d; "syn-flood"; $rate; flood("syn-flood"; $rate; $rate; 0; null;
    {req_q_full_drops: $drops, listen_drops: $drops, syncookies_sent: $cookies}); $p; null);
def steps:
  [refl("off"; 2000; 2000; 2000; 13.6; probe(1; 0.3; 1; 0.5); collateral(30; 0)),
   refl("off"; 20000; 15000; 15000; 13.5; probe(0.5; 300; 1; 0.6); collateral(15; 0)),
   refl("on"; 2000; 2000; 700; 4.8; probe(1; 0.3; 1; 0.5); collateral(10; 12)),
   refl("on"; 20000; 15000; 1500; 1.1; probe(1; 0.4; 1; 0.6); collateral(5; 10)),
   syn("off"; 2000; 0; 0; probe(1; 0.3; 1; 0.5)),
   syn("off"; 20000; 9000; 0; probe(1; 0.3; 0.2; 1500)),
   syn("on"; 2000; 0; 0; probe(1; 0.3; 1; 0.5)),
   syn("on"; 20000; 0; 30000; probe(1; 0.3; 0.99; 2))];
def groups:
  [{server: "nsd", defence: "off", idle: probe(1; 0.3; 1; 0.5)}, {server: "nsd", defence: "on", idle: probe(1; 0.3; 1; 0.5)}];
