# rules.jq -- what the jq consumers of a UDP summary read (the comparison,
# scripts/compare/rules.jq; the budget validation; udpreplay/peer-bench):
# the accessors below, and nothing else. The summary's
# rules are udpreplay/udp/rules.py; tests/test_accessors.py checks that the
# Python accessors (accessors.py) and these agree.

# ------------------------------------------------------------ read by other experiments
# Another experiment reads a UDP summary only through these accessors,
# never by a field's path: each checks that the summary is of the schema
# rules.py writes (SCHEMA) and fails naming both when it is not, so a consumer
# older than the summary stops instead of reading a field that moved.
# (jq -L "$RB_TOP" -L "$RB_TOP/scripts/lib" 'import "udpreplay/udp/rules" as udp; udp::udp_ceiling_qps(.)')
def udp_schema: "rootbench.udp/1";
def udp_summary_checked($s):
  if ($s | type) == "object" and $s.schema == udp_schema then $s
  else error("a UDP summary of schema \(udp_schema) (udpreplay/udp/rules.jq) was expected; this one's schema is "
             + "\(if ($s | type) == "object" then $s.schema // "none" else "none: not a summary" end): "
             + "read it with the rules of its version") end;
# the ceiling: answered queries/s, the sent rates held (low) and first failed (high), in words
def udp_ceiling_qps($s): udp_summary_checked($s).ceiling_qps // null;
def udp_ceiling_low_qps($s): udp_summary_checked($s).ceiling_low_qps // null;
def udp_ceiling_high_qps($s): udp_summary_checked($s).ceiling_high_qps // null;
def udp_ceiling_text($s): udp_summary_checked($s).ceiling // null;
# what stopped it ({summary, layer, caused_by, server_own, ...}, rules above)
def udp_verdict($s): udp_summary_checked($s).verdict // null;
# the figure per CPU of the server ({qps_per_cpu, server_cpu_busy_pct, budget, throttle, ...})
def udp_per_cpu($s): udp_summary_checked($s).per_cpu // null;
# the rig's share of the server CPU where the ceiling was set (charge.jq)
def udp_rig_charge($s): udp_summary_checked($s).rig_charge // null;
# the balancing the sweep ran with, and the copy of the testbed it ran on
def udp_lb($s): udp_summary_checked($s).lb // null;
def udp_testbed($s): udp_summary_checked($s).testbed // null;
