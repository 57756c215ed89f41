# lab-snmp.jq: a lab device's ports read from its SNMP agent (IF-MIB), and
# what they counted between two readings, in the shape the testbed
# sampler's summary gives an interface (docs/sampler.md, "dev"), so the
# loss rules (scripts/lib/layers.jq: dev_drops) read a lab's switch as they
# read the namespace switch. Used by scripts/lib/lab.sh (lab_sample);
# tested by scripts/tests/73-lab-snmp-deltas.test.

# The IF-MIB columns read (numeric OIDs under 1.3.6.1.2.1), and their names.
def snmp_columns: {
  "2.2.1.2": "descr",                                   # ifDescr
  "2.2.1.13": "in_discards", "2.2.1.14": "in_errors",   # ifInDiscards, ifInErrors (Counter32)
  "2.2.1.19": "out_discards", "2.2.1.20": "out_errors", # ifOutDiscards, ifOutErrors (Counter32)
  "31.1.1.1.1": "name",                                 # ifName
  "31.1.1.1.6": "in_octets", "31.1.1.1.10": "out_octets", # ifHCInOctets, ifHCOutOctets (Counter64)
  # ifHCIn/OutUcastPkts, ...MulticastPkts, ...BroadcastPkts (Counter64)
  "31.1.1.1.7": "in_ucast", "31.1.1.1.8": "in_mcast", "31.1.1.1.9": "in_bcast",
  "31.1.1.1.11": "out_ucast", "31.1.1.1.12": "out_mcast", "31.1.1.1.13": "out_bcast"
};

# snmp_ports: the text of `snmpbulkwalk -On -OQ` over ifTable and ifXTable
# (".1.3.6.1.2.1.2.2.1.13.4 = 0") as {IFINDEX: {name, descr, in_octets, ...}};
# other columns and lines are ignored.
def snmp_ports:
  snmp_columns as $cols
  | [split("\n")[]
     | capture("^\\.?1\\.3\\.6\\.1\\.2\\.1\\.(?<col>(2\\.2\\.1|31\\.1\\.1\\.1)\\.[0-9]+)\\.(?<ix>[0-9]+) = (?<v>.*)$")
     | select($cols[.col] != null)
     | {ix, k: $cols[.col],
        v: (if .v | test("^\"") then (.v | ltrimstr("\"") | rtrimstr("\"")) else (.v | tonumber? // null) end)}]
  | reduce .[] as $c ({}; .[$c.ix][$c.k] = $c.v);

# counter_delta($a; $b; $bits): what a counter counted from $a to $b: a
# Counter32 that went back wrapped once; a Counter64 that went back was
# reset (the port re-created, the device restarted) and counts from 0.
def counter_delta($a; $b; $bits):
  if $a == null or $b == null then null
  elif $b >= $a then $b - $a
  elif $bits == 32 then $b - $a + 4294967296
  else $b end;

# snmp_dev($first; $last): the ports of the $last reading (snmp_ports), each
# {ifindex, rx_packets, tx_packets, rx_bytes, tx_bytes, rx_dropped,
# tx_dropped, rx_errors, tx_errors, resets} by its ifName (ifDescr, or "ifN", when it has none;
# a name two ports share gets "#IFINDEX"). rx is what the port received
# (In), tx what it sent (Out). A port missing at the start, or whose
# octets went back (re-created, the device restarted), counts from 0
# (resets 1). A counter the agent did not give is null. Packets are every
# frame: unicast, multicast and broadcast.
def snmp_dev($first; $last):
  def frames($p; $d): if $p[$d + "_ucast"] == null or $p[$d + "_mcast"] == null or $p[$d + "_bcast"] == null then null
                      else $p[$d + "_ucast"] + $p[$d + "_mcast"] + $p[$d + "_bcast"] end;
  [$last[] | (.name // .descr)] as $names
  | [$last | to_entries[] | .key as $i | .value as $e
     | ($e.name // $e.descr // "if\($i)") as $n
     | ($first[$i] // null) as $s
     | ($s == null or ($e.in_octets // 0) < ($s.in_octets // 0) or ($e.out_octets // 0) < ($s.out_octets // 0)) as $reset
     | (if $reset then {in_octets: 0, out_octets: 0, in_discards: 0, out_discards: 0, in_errors: 0, out_errors: 0,
                        in_ucast: 0, in_mcast: 0, in_bcast: 0, out_ucast: 0, out_mcast: 0, out_bcast: 0} else $s end) as $b
     | {key: (if ([$names[] | select(. == $n)] | length) > 1 then "\($n)#\($i)" else $n end),
        value: {ifindex: ($i | tonumber),
                rx_packets: counter_delta(frames($b; "in"); frames($e; "in"); 64),
                tx_packets: counter_delta(frames($b; "out"); frames($e; "out"); 64),
                rx_bytes: counter_delta($b.in_octets; $e.in_octets; 64),
                tx_bytes: counter_delta($b.out_octets; $e.out_octets; 64),
                rx_dropped: counter_delta($b.in_discards; $e.in_discards; 32),
                tx_dropped: counter_delta($b.out_discards; $e.out_discards; 32),
                rx_errors: counter_delta($b.in_errors; $e.in_errors; 32),
                tx_errors: counter_delta($b.out_errors; $e.out_errors; 32),
                resets: (if $reset then 1 else 0 end)}}]
  | from_entries;
