# host-speed.jq -- the host's speed over an experiment made of parts
# (DoT's sweeps, the budget validation's runs, the TCP limits'
# combinations, the comparison's benches and DoT runs), each of which
# times the host at its own start and end (host_speed: scripts/lib/
# experiment.sh exp_host_speed): such an experiment brings no testbed up
# of its own, so it times nothing itself and records its parts' earliest
# start and latest end.

# host_speed_span: an array of the parts' records (summary.json or
# bench.json; null for a missing one) -> {start, end}: the start timed
# first and the end timed last (by their "at", UTC), null where no part
# timed one (a lab: exp_host_speed gives null there).
def host_speed_span:
  [.[] | objects | .host_speed | objects] as $h
  | {start: ([$h[].start | objects] | min_by(.at)), end: ([$h[].end | objects] | max_by(.at))};
