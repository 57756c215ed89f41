# rules.jq -- the sizes experiment's rules, in one place: whether the
# switch's SNMP octets and a capture of the same port agree (the check
# that makes SNMP's bytes per query trustworthy), and why they differ
# when they do. analysis/sizes/run and the fixture test
# (analysis/sizes/tests/10-rules.test with analysis/sizes/testdata/) both
# call these functions; nothing else restates them.

# SNMP and the capture agree when each direction's ratio is within this
# share of 1.
def snmp_capture_tolerance: 0.005;

# "FRAMES BYTES" (dnsstat's count of a filter's frames) as an object.
def frames_bytes($s): ($s | split(" ") | map(tonumber)) as $a | {frames: $a[0], bytes: $a[1]};

def accounting_ratio($a; $b): if $b > 0 then ($a / $b * 1000000 | round / 1000000) else null end;

# accounting: SNMP's octet deltas of router-s against the capture of its
# traffic. Input (as measured; counts "FRAMES BYTES"): {snmp_in,
# snmp_out (bytes), capture_in, capture_out (the frames from the router's
# MAC, the others), arp, ip6 (not DNS), other (neither), link_in,
# link_out (the link's own frames, link_filter), dropped ("" unknown),
# where (the capture point in words)}; with a window (start, end: the
# SNMP readings, epoch seconds; "" without) also all and in_window (the
# whole capture and the frames between the readings), whole_in and
# whole_out (the directions over the whole capture).
def accounting:
  . as $m
  | snmp_capture_tolerance as $tol
  | def ok($r): $r != null and (($r - 1) | fabs) <= $tol;
    frames_bytes($m.capture_in) as $ci | frames_bytes($m.capture_out) as $co
  | frames_bytes($m.arp) as $ar | frames_bytes($m.ip6) as $i6 | frames_bytes($m.other) as $ot
  | accounting_ratio($m.snmp_in; $ci.bytes) as $ri | accounting_ratio($m.snmp_out; $co.bytes) as $ro
  | (ok($ri) and ok($ro)) as $pass
  | ($m.start != "") as $windowed
  | (if $windowed then frames_bytes($m.all) else null end) as $a
  | (if $windowed then frames_bytes($m.in_window) else null end) as $w
  | (if $windowed then accounting_ratio($m.snmp_in; frames_bytes($m.whole_in).bytes) else null end) as $wri
  | (if $windowed then accounting_ratio($m.snmp_out; frames_bytes($m.whole_out).bytes) else null end) as $wro
  | {in_ratio: $ri, out_ratio: $ro, pass: $pass, tolerance: $tol,
     snmp_in_bytes: $m.snmp_in, snmp_out_bytes: $m.snmp_out,
     capture_in_bytes: $ci.bytes, capture_in_frames: $ci.frames,
     capture_out_bytes: $co.bytes, capture_out_frames: $co.frames,
     capture_dropped: (if $m.dropped == "" then null else ($m.dropped | tonumber) end),
     non_dns_frames: {arp: $ar, ip6: $i6, other: $ot},
     link_own_frames: {filter: $m.link_filter, in: frames_bytes($m.link_in), out: frames_bytes($m.link_out)},
     window: (if $windowed | not then null else
         {start: ($m.start | tonumber), "end": ($m["end"] | tonumber),
          outside_frames: ($a.frames - $w.frames), outside_bytes: ($a.bytes - $w.bytes),
          whole_capture_in_ratio: $wri, whole_capture_out_ratio: $wro} end),
     explanation: (
       "SNMP ifHC{In,Out}Octets of router-s and the capture of its traffic (\($m.where)) both count Ethernet frames without FCS. "
       + "Non-DNS frames compared: \($ar.frames) ARP (\($ar.bytes) bytes), \($i6.frames) IPv6 other than DNS (\($i6.bytes) bytes), \($ot.frames) other ("
         + "\($ot.bytes) bytes). "
       + "Difference SNMP - capture: in \($m.snmp_in - $ci.bytes) bytes, out \($m.snmp_out - $co.bytes) bytes"
       + (if ($m.snmp_in == $ci.bytes and $m.snmp_out == $co.bytes) then " (identical)."
          else "; a frame that crosses the port while an SNMP reading is being taken falls on one side only (typically an ARP exchange, 84 bytes), and frames "
            + "the capture dropped count in SNMP only." end)
       + (if $windowed | not then "" else
           " Compared: the frames captured between the two SNMP readings; \($a.frames - $w.frames) frames (\($a.bytes - $w.bytes) bytes) captured before the "
             + "first or after the second are left out (over the whole capture the ratios are in \($wri), out \($wro))." end)
       + (if $m.dropped != "" and $m.dropped != "0" then " The capture dropped \($m.dropped) packets." else "" end)
       + (if $pass then "" else " MISMATCH: beyond the \($tol * 100)% tolerance." end))};

# ------------------------------------------------------------ read by other experiments
# Another experiment reads a sizes summary only through this accessor,
# never by a field's path: it checks that the summary is of the schema
# analysis/sizes/run writes and fails naming both when it is not.
def sizes_schema: "rootbench.sizes/1";
def sizes_summary_checked($s):
  if ($s | type) == "object" and $s.schema == sizes_schema then $s
  else error("a sizes summary of schema \(sizes_schema) (analysis/sizes/rules.jq) was expected; this one's schema is "
             + "\(if ($s | type) == "object" then $s.schema // "none" else "none: not a summary" end): "
             + "read it with the rules of its version") end;
# the zone variants measured, by name: {queries, bytes_in, bytes_out,
# bytes_per_query_in, bytes_per_query_out, growth_vs_unsigned, sections, ...}
def sizes_variants($s): sizes_summary_checked($s).variants // null;
