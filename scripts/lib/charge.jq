# charge.jq -- the rig's work on the server CPU (scripts/lib/charge.sh
# measures it at every point with perf): the share above which a figure is
# not the server's own, and the caveat in words. The UDP and TCP rules
# both call it; nothing else restates it.

include "spread" {search: "./"};

# The rig's share of the server CPU's busy time above which the figure
# measured there includes the rig's work (the switch's bridge, the
# router's forwarding) and is not the server's own.
def rig_share_limit: 0.05;

def rig_pct: . * 1000 | round / 10;

# receive_on_server_cpu($steer): whether the servers' kernel receive path
# ran on the servers' CPUs under receive steering $steer, so that their
# busy share is the daemon and its receive: rps (RPS to the servers'
# CPUs) and napi (a receive thread pinned there); not none or rig (on the
# sending CPU, the switch's).
def receive_on_server_cpu($steer): $steer == "rps" or $steer == "napi";

# rig_charge: the rig shares (numbers; null or "" for a point not
# measured) of the points that set a figure -> {points, measured_points,
# max, median, limit, own (null: not measured), caveat (null: none)}.
def rig_charge:
  [.[] | numbers] as $r | ($r | length) as $n
  | {points: length, measured_points: $n, max: ($r | max), median: ($r | repeat_spread.median),
     limit: rig_share_limit,
     own: (if $n == 0 then null else ($r | max) <= rig_share_limit end),
     caveat: (if $n == 0 then "the rig's share of the server CPU was not measured (CPU_CHARGE=off, or no perf): the figure may include the rig's forwarding"
              elif ($r | max) > rig_share_limit then
                "the rig's forwarding (bridge, router) took up to \($r | max | rig_pct) % of the server CPU's busy time there (over \(rig_share_limit | rig_pct) %): the figure includes the rig's work and is not the server's own"
              else null end)};

# with_charge($charge): a verdict the server owns (caused_by "server")
# gets server_own, and the caveat in its summary when the figure is not
# the server's own (or the charge was not measured).
def with_charge($charge):
  if . != null and .caused_by == "server" and $charge.caveat != null
  then .summary += "; " + $charge.caveat | .server_own = ($charge.own == true)
  elif . != null and .caused_by == "server" then .server_own = true
  else . end;
