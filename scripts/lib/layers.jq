# layers.jq -- where work is lost on the testbed: the layers a query and
# its answer cross, who owns each (the rig that measures, the configured
# link, or the server under test), the work each lost in a run (from the
# testbed sampler's summary, docs/sampler.md), and which layer lost the
# first work at a failing point. Shared by the TCP and the UDP experiments
# (tcpbench/sweep/rules.jq, udpreplay/udp/run); nothing else restates it.

def nz: . // 0;

# The layers in path order. The CPU input backlogs are per CPU, shared by
# everything that runs on it (other testbeds, other work on the machine).
def layers: [
  {name: "generator",          owner: "rig",    what: "the generator (tcpbench's self-check and local errors; tcpreplay's rate)"},
  {name: "player_kernel",      owner: "rig",    what: "the players' kernels (interface and IP drops)"},
  {name: "client_cpu_backlog", owner: "rig",    what: "the clients' CPU input backlog (softnet drops)"},
  {name: "switch",             owner: "rig",    what: "the switch (bridge and port drops)"},
  {name: "router",             owner: "rig",    what: "the router (forwarding and interface drops)"},
  {name: "link",               owner: "link",   what: "the shaped link (tbf drops)"},
  {name: "server_ring",        owner: "server", what: "the server's receive ring (its interface's queue of 256, full while its receive thread waited: STEER=napi)"},
  {name: "server_cpu_backlog", owner: "server", what: "the server CPU's input backlog (softnet drops)"},
  {name: "accept_queue",       owner: "server", what: "the server kernel's accept queue (ListenOverflows/ListenDrops)"},
  {name: "server_socket",      owner: "server", what: "the server's socket buffers (UDP receive buffer errors; TCP backlog and receive-queue drops)"},
  {name: "daemon",             owner: "server", what: "the server daemon (received but not answered; refused)"}
];

# mib($roles; $k): a kernel counter's delta, summed over roles.
def mib($roles; $k): . as $s | [$roles[] as $x | $s.deltas[$x][$k] | nz] | add // 0;

# dev_drops($roles): drops of every interface of the roles (rx and tx).
def dev_drops($roles): . as $s
  | [$roles[] as $x | ($s.dev[$x] // {}) | .[] | ((.rx_dropped | nz) + (.tx_dropped | nz))] | add // 0;

# ring_drops($ports): what the switch's ports $ports could not hand to
# the interface on their other end: veth counts a packet its peer's ring
# (STEER=napi: the peer polls with NAPI) had no room for as a tx drop of
# the sender. The switch's ports are named after the role on their other
# end, so the ports of the servers are the servers' receive rings.
def ring_drops($ports): . as $s | [$ports[] as $p | ($s.dev.switch // {})[$p].tx_dropped | nz] | add // 0;

# qdisc_drops($roles): drops of every qdisc of the roles (tbf shaping).
def qdisc_drops($roles): . as $s
  | [$roles[] as $x | ($s.qdisc[$x] // {}) | .[] | (.drops | nz)] | add // 0;

# qdisc_queue_max($roles): the fullest the tbf qdiscs of the roles (the
# shaped link) got during the run: {backlog_max: bytes, qlen_max: packets}.
def qdisc_queue_max($roles): . as $s
  | [$roles[] as $x | ($s.qdisc[$x] // {}) | .[] | select(.kind == "tbf")] as $q
  | {backlog_max: ([$q[] | .backlog_max | nz] | max // 0), qlen_max: ([$q[] | .qlen_max | nz] | max // 0)};

# cpu_busy_pct($cpus): the mean busy percent of the CPUs (names: cpuN) over
# the sampler's run (busy from idle time), one decimal; null when none seen.
def cpu_busy_pct($cpus): . as $s
  | [$cpus[] | $s.cpu[.].busy_pct // empty] | if length > 0 then add / length * 10 | round / 10 else null end;

# load_window($series; $active): the seconds a run's load ran, from the
# sampler's series (one line per sample, t its end): the samples for which
# $active (a filter on a line) is true, less the first and the last (the
# load started and ended inside them); {from, to} such that the samples
# with from < t <= to are the load's, null with fewer than three. A
# generator's lead and tail (kxdpgun waits a second before its first
# query, the sweep settles after the last) stay out of the CPU figures.
def load_window($series; active):
  [$series[] | select(active) | .t]
  | if length >= 3 then {from: .[0], to: .[-2], samples: (length - 2)} else null end;

# generator_window($series): the load window of a run whose generator
# sends from player1 (the UDP sweep's kxdpgun and tcpreplay): the samples
# in which the switch's port from player1 received at least a tenth of
# the most it received in one sample (kxdpgun's ping of its gateway and
# the reports its XDP attach sets off, a second before its first query,
# are a few packets).
def generator_window($series):
  ([$series[] | .dev.switch.player1.rx_packets // 0] | max // 0) as $peak
  | load_window($series; $peak > 0 and (.dev.switch.player1.rx_packets // 0) >= $peak / 10);

# window_busy_pct($series; $w; $cpus): the CPUs' busy percent over the
# samples of the window $w (busy from idle time, summed over the samples,
# never one sample's figure), one decimal; null without a window.
def window_busy_pct($series; $w; $cpus):
  if $w == null then null else
    [$series[] | select(.t > $w.from + 0.0005 and .t <= $w.to + 0.0005) | . as $x | $cpus[] | $x.cpu[.] // {}] as $c
    | ([$c[] | .wall_ms // 0] | add // 0) as $wall
    | if $wall > 0 then (([$c[] | .busy_ms // 0] | add) * 100 / $wall * 10 | round / 10) else null end end;

# softnet_drops($cpus): packets the CPUs' input backlogs dropped.
def softnet_drops($cpus): . as $s | [$cpus[] as $c | $s.cpu[$c].softnet.dropped | nz] | add // 0;

# sample_loss($ctx): the work each layer below the generator and above the
# daemon lost in one run, from the sampler summary (input) and
# $ctx = {players: [ROLE], servers: [ROLE], cpus: {server: [cpuN], client: [cpuN]}}.
def sample_loss($ctx):
  {player_kernel: (dev_drops($ctx.players) + mib($ctx.players; "IpInDiscards") + mib($ctx.players; "IpOutDiscards")
                   + mib($ctx.players; "Ip6InDiscards") + mib($ctx.players; "Ip6OutDiscards")),
   client_cpu_backlog: softnet_drops($ctx.cpus.client),
   switch: (dev_drops(["switch"]) - ring_drops($ctx.servers)),
   server_ring: ring_drops($ctx.servers),
   router: (dev_drops(["router"]) + mib(["router"]; "IpInDiscards") + mib(["router"]; "IpOutDiscards")
            + mib(["router"]; "IpExtInNoRoutes")
            + mib(["router"]; "Ip6InDiscards") + mib(["router"]; "Ip6OutDiscards") + mib(["router"]; "Ip6InNoRoutes")),
   link: qdisc_drops(["router", "switch"]),
   server_cpu_backlog: softnet_drops($ctx.cpus.server),
   accept_queue: (([mib($ctx.servers; "TcpExtListenDrops"), mib($ctx.servers; "TcpExtListenOverflows")] | max)
                  + mib($ctx.servers; "TcpExtTCPReqQFullDrop")),
   server_socket: (mib($ctx.servers; "TcpExtTCPBacklogDrop") + mib($ctx.servers; "TcpExtTCPRcvQDrop")
                   + ([mib($ctx.servers; "UdpRcvbufErrors"), mib($ctx.servers; "UdpInErrors")] | max)
                   + ([mib($ctx.servers; "Udp6RcvbufErrors"), mib($ctx.servers; "Udp6InErrors")] | max))};

# add_loss: the sum of several runs' losses, layer by layer.
def add_loss: reduce .[] as $l ({}; reduce ($l | to_entries[]) as $e (.; .[$e.key] += $e.value));

# loss_per_k($layer): work lost at a layer per 1000 attempted (a point:
# {attempted, loss: {LAYER: n}}).
def loss_per_k($layer): if (.attempted // 0) > 0 then ((.loss[$layer] // 0) * 1000 / .attempted) else 0 end;

# first_loss_layer($below): the first layer, in path order, that lost work
# at this point beyond what it lost at the comparison point $below (the
# highest good point under it; null: none): more than 0.1 per 1000 and
# more than twice the rate below.
def first_loss_layer($below):
  . as $p
  | [layers[] | . as $l
     | ($p | loss_per_k($l.name)) as $at
     | (if $below then ($below | loss_per_k($l.name)) else 0 end) as $b
     | select(($p.loss[$l.name] // 0) > 0 and $at >= 0.1 and $at > 2 * $b)
     | $l + {lost: $p.loss[$l.name], per_1000: ($at * 1000 | round / 1000), per_1000_below: ($b * 1000 | round / 1000)}][0];
