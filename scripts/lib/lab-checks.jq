# lab-checks.jq -- the checks a careful operator makes on a lab's hosts at
# `up` (scripts/lib/lab-checks.sh gathers the facts over SSH), judged here:
# each a warning with its fix, never a refusal. The anchor is DNS Shotgun's
# "Performance Tuning" page (dns-shotgun.readthedocs.io): the NIC's queues
# as many as the CPUs, each on its own CPU; the receiving server's socket
# memory (its net.core.rmem_default of 8192000); no conntrack. Pure: tested
# on fixture facts by scripts/tests/76-lab-up-warns-each-untuned-host.test.

# The socket buffer the servers' receive needs, in bytes: DNS Shotgun's
# rmem_default for the receiving server (bursts beyond it are lost at the
# socket).
def checks_buffer_min: 8192000;

# checks_facts: the host's "key=value" lines (an array of strings) as an
# object of strings; other lines are left out.
def checks_facts:
  map(capture("^(?<k>[a-z0-9_]+)=(?<v>.*)$")? // empty) | map({(.k): .v}) | add // {};

# host_checks($role; $f; $ctx): the checks of one host, each {check, ok,
# fact, warning, fix}: ok true (holds), false (the warning and its fix
# given) or null (the fact could not be read: no warning). $f: its facts
# (checks_facts); $ctx: {iface (rb_iface), mgmt: [the lab's management
# addresses: the hosts' ansible_host, the devices' SNMP agents]}.
def host_checks($role; $f; $ctx):
  def num($k): ($f[$k] // "") | tonumber? // null;
  def words($k): ($f[$k] // "") | split(" ") | map(select(. != ""));
  def check($id; $ok; $fact; $warning; $fix):
    {check: $id, ok: $ok, fact: $fact}
    + if $ok == false then {warning: $warning, fix: $fix} else {warning: null, fix: null} end;
  $ctx.iface as $nic |
  [
    # conntrack: every packet of the test traffic tracked, in a table that fills
    (num("conntrack_module") as $m | num("conntrack_entries") as $n |
     check("conntrack"; (if $m == null then null else $m == 0 end);
       (if $m == 1 then "nf_conntrack loaded, \($n // "?") entries here" elif $m == 0 then "nf_conntrack not loaded" else "not read" end);
       "nf_conntrack is loaded: the kernel can track every test packet, a cost per packet and a table that fills under load";
       "remove what loads it (lsmod | grep nf_conntrack: stateful firewall rules, NAT, a container runtime), then modprobe -r nf_conntrack; or exempt the test traffic (nftables: notrack in prerouting and output chains at raw priority)")),

    # the servers' socket buffers (the servers receive the bursts)
    (if ($role | startswith("server")) then
       (["rmem_default", "rmem_max", "wmem_max"] | map({k: ., v: num(.)})) as $b |
       ($b | map(select(.v != null and .v < checks_buffer_min))) as $small |
       check("socket_buffers";
         (if ($small | length) > 0 then false elif ($b | any(.v == null)) then null else true end);
         ($b | map("\(.k) \(.v // "?")") | join(", "));
         "the server's socket buffers are under \(checks_buffer_min) bytes: a burst of queries beyond the receive buffer is lost at the socket (a daemon that keeps the kernel's default gets rmem_default; one that asks for more gets at most rmem_max, wmem_max)";
         "sysctl -w net.core.rmem_default=\(checks_buffer_min) net.core.rmem_max=\(checks_buffer_min) net.core.wmem_max=\(checks_buffer_min), and the same in a file of /etc/sysctl.d/ to keep it")
     else empty end),

    # fewer receive queues than CPUs: the receive runs on fewer CPUs
    (num("rx_queues") as $q | num("cpus") as $c | num("combined_max") as $max |
     check("nic_queues"; (if $q == null or $q == 0 or $c == null then null else $q >= $c end);
       "\($nic): receive queues \($q // "?"), CPUs \($c // "?")" + (if $max != null then ", the NIC's maximum \($max)" else "" end);
       "the test NIC has fewer receive queues than the host has CPUs: its receive (interrupts, softirq) runs on fewer CPUs than the host has";
       "ethtool -L \($nic) combined \($c // "N") (at most the NIC's maximum, ethtool -l \($nic)), each queue's interrupt on a CPU of its own; beyond the maximum, RPS (/sys/class/net/\($nic)/queues/rx-*/rps_cpus)")),

    # irqbalance moves the interrupts while a run goes on
    (num("irqbalance") as $i |
     check("irqbalance"; (if $i == null then null else $i == 0 end);
       (if $i == 1 then "irqbalance running" elif $i == 0 then "irqbalance not running" else "not read" end);
       "irqbalance is running: it moves the NIC's interrupts between CPUs during a run, so which CPU receives, and what that costs the pinned roles (rb_cpus), changes under the measurement";
       "systemctl disable --now irqbalance, then each receive queue's interrupt on a CPU of its own (/proc/irq/N/smp_affinity_list)")),

    # the CPU frequency follows the load unless the governor is performance
    (words("governors") | map(split(":") | {g: .[0], n: (.[1] | tonumber? // 0)}) as $gs |
     check("cpu_governor"; (if ($gs | length) == 0 then null else ($gs | all(.g == "performance")) end);
       (if ($gs | length) == 0 then "no cpufreq governor exposed (a VM's CPUs, or the firmware's control)"
        else $gs | map("\(.g) on \(.n) CPUs") | join(", ") end);
       "the CPU frequency governor is not performance: the clock follows the load, so what a query costs in CPU changes with the rate";
       "cpupower frequency-set -g performance (Debian's linux-cpupower), or echo performance into /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor")),

    # the test network reachable from the management network
    (words("neighbours") as $nb |
     [(if $f.ssh_local_dev == $nic then "SSH reaches the host on its test NIC (\($f.ssh_local))" else empty end),
      (if $f.ssh_client_dev == $nic then "the driving machine (\($f.ssh_client)) is routed over the test NIC" else empty end),
      (($ctx.mgmt + [$f.ssh_client // empty]) | unique | map(select(. as $a | $nb | index([$a])))
       | if length > 0 then "management addresses answer on the test network (\(join(", ")) in \($nic)'s neighbours)" else empty end),
      (if num("forwarding4") == 1 or num("forwarding6") == 1 then "the host forwards between its NICs (net.ipv4.ip_forward \($f.forwarding4 // "?"), net.ipv6.conf.all.forwarding \($f.forwarding6 // "?"))" else empty end)
     ] as $why |
     check("test_network_isolated"; (if ($f.ssh_local_dev // "") == "" then null else ($why | length) == 0 end);
       (if ($why | length) > 0 then $why | join("; ") else "SSH on \($f.ssh_local_dev // "?"), not \($nic); no management address among \($nic)'s neighbours; no forwarding" end);
       "the test network is reachable from the management network: management traffic (SSH, SNMP, other hosts) can share the test links, and test traffic leave by the management side";
       "keep the test NIC on a VLAN of its own with no route to the management network: SSH and SNMP on the management addresses only, no management address on the test VLAN, no forwarding on the hosts (sysctl -w net.ipv4.ip_forward=0 net.ipv6.conf.all.forwarding=0)")),

    # the test traffic leaves by the test NIC
    ([{what: "its gateway \($f.gateway // "?")", dev: $f.gateway_dev}, {what: "\($f.far // "?")", dev: $f.far_dev}] as $r |
     ($r | map(select((.dev // "") != "" and .dev != $nic))) as $off |
     check("test_routes"; (if ($r | any((.dev // "") == "")) and ($off | length) == 0 then null else ($off | length) == 0 end);
       ($r | map("\(.what) by \(.dev // "?")") | join(", "));
       "test traffic leaves the host by another NIC than the test NIC: it crosses a network the lab does not measure";
       "a route for the lab's ranges via rb_gateway4 on \($nic) (make lab-setup adds it), and none more specific by another NIC (ip route get ADDRESS shows the one used)"))
  ];

# checks_lines($hosts): the warnings to print, once each: one line per
# check that fails on some host, its warning, the hosts with what was read
# on each, and its fix ($hosts: the facts' hosts[], each with checks).
def checks_lines($hosts):
  [$hosts[] | .role as $r | .checks[]? | select(.ok == false) | . + {role: $r}]
  | group_by(.check)
  | map((map(.fix) | unique) as $fix |
        "\(.[0].warning): \(map("\(.role) (\(.fact))") | join(", ")). Fix: "
        + if ($fix | length) == 1 then $fix[0] else map("\(.role): \(.fix)") | join("; ") end)
  | .[];
