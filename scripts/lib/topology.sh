# topology.sh: the testbed's address plan, the one place it is written.
#
# Everything comes from the benchmarking ranges 198.18.0.0/15 (RFC 2544)
# and 2001:2::/48 (RFC 5180), so nothing the testbed sends can ever reach
# a real network. The paper's K-root service address is replaced by
# 198.18.0.53 / 2001:2::53.
#
#   client VLAN  198.18.1.0/24  2001:2:0:1::/64   (bridge brc in the switch)
#   server VLAN  198.18.2.0/24  2001:2:0:2::/64   (bridge brs in the switch)
#
#   player1  --+                         +-- server1 (lo: service address)
#   player2  --+-- [brc] router [brs] --+
#   listener --+                         +-- server2 (lo: service address)
#   probe    --+
#   sink     --+
#
# The probe (rbprobe, RSSAC047's latency and availability probe) is a
# client of its own on the client VLAN: its own switch port (so the
# switch's counters see its traffic apart), a route to the benchmarking
# ranges only, no load. It sends from a small block of its own (16
# addresses, routed back to it as the players' are), so that the load
# balancer spreads its queries over both servers as it spreads a client
# population's: from one address, the hash would send every one of them
# to the same server, which may be the one the load does not reach.
#
# The sink stands for the victims of a reflection attack: a client of its
# own on the client VLAN (its own switch port, whose counters see what
# the victims receive), owning the victim block, which the router routes
# to it. The attack floods (scripts/lib/attack.sh) spoof their sources
# from that block, so the servers' answers land there; the sink counts
# them and drops them, and sends nothing.

RB_PREFIX=${RB_PREFIX:-rb}

SERVICE4=198.18.0.53
SERVICE6=2001:2::53

CLIENT_NET4=198.18.1.0/24
CLIENT_NET6=2001:2:0:1::/64
SERVER_NET4=198.18.2.0/24
SERVER_NET6=2001:2:0:2::/64

# The benchmarking ranges: the only destinations any namespace can route to.
BENCH_NET4=198.18.0.0/15
BENCH_NET6=2001:2::/48

ROLES=(switch router player1 player2 listener probe sink server1 server2)
CLIENT_ROLES=(player1 player2 listener probe sink)
SERVER_ROLES=(server1 server2)
# The players the load is split over (scripts/lib/players.sh): the
# namespace testbed's two; a lab's are its inventory's players group
# (player1..playerN, set below).
PLAYER_ROLES=(player1 player2)

# role_addr4 ROLE / role_addr6 ROLE: the role's address on its VLAN.
# The router has two legs: router-c (client VLAN) and router-s (server VLAN).
role_addr4() {
    case $1 in
        router-c) echo 198.18.1.1 ;;   router-s) echo 198.18.2.1 ;;
        player1)  echo 198.18.1.11 ;;  player2)  echo 198.18.1.12 ;;
        # players 3-8: the simulated lab's only (scripts/lab/simlab
        # SIMLAB_PLAYERS); the namespace testbed has two
        player[3-8]) echo "198.18.1.1${1#player}" ;;
        listener) echo 198.18.1.20 ;;  probe)    echo 198.18.1.30 ;;
        sink)     echo 198.18.1.40 ;;
        server1)  echo 198.18.2.11 ;;  server2)  echo 198.18.2.12 ;;
        *) return 1 ;;
    esac
}
role_addr6() {
    case $1 in
        router-c) echo 2001:2:0:1::1 ;;  router-s) echo 2001:2:0:2::1 ;;
        player1)  echo 2001:2:0:1::11 ;; player2)  echo 2001:2:0:1::12 ;;
        player[3-8]) echo "2001:2:0:1::1${1#player}" ;;
        listener) echo 2001:2:0:1::20 ;; probe)    echo 2001:2:0:1::30 ;;
        sink)     echo 2001:2:0:1::40 ;;
        server1)  echo 2001:2:0:2::11 ;; server2)  echo 2001:2:0:2::12 ;;
        *) return 1 ;;
    esac
}

# player_block4 PLAYER / player_block6 PLAYER: the client addresses a player
# owns (the paper's /23 of test sources); the router routes them back
# to it, and the player can bind any of them (AnyIP local route). Players
# 3-8 (the simulated lab's) own 198.18.16.0/23 .. 198.18.26.0/23 and
# 2001:2:0:23::/64 .. 2001:2:0:28::/64, clear of the probe's, the
# victims' and the collateral blocks.
player_block4() {
    case $1 in
        player1) echo 198.18.4.0/23 ;; player2) echo 198.18.6.0/23 ;;
        player[3-8]) echo "198.18.$(( 10 + 2 * ${1#player} )).0/23" ;;
        *) return 1 ;;
    esac
}
player_block6() {
    case $1 in
        player1) echo 2001:2:0:4::/64 ;; player2) echo 2001:2:0:6::/64 ;;
        player[3-8]) echo "2001:2:0:2${1#player}::/64" ;;
        *) return 1 ;;
    esac
}

# probe_block4 / probe_block6: the probe's source addresses (AnyIP, like a
# player's block); on a lab the probe host's rb_block4/6, when it has them
# (else it sends from its own address).
probe_block4() { echo 198.18.8.0/28; }
probe_block6() { echo 2001:2:0:8::/124; }

# victim_block4 / victim_block6: the sink's block, the spoofed sources of
# the reflection floods (AnyIP on the sink, routed to it by the router);
# on a lab its sink host's (rb_victim_block4/6), none without one.
victim_block4() { echo 198.18.10.0/24; }
victim_block6() { echo 2001:2:0:10::/64; }

# collateral_block4 / collateral_block6: a legitimate client inside the
# victims' prefix (what a response rate limiter counts with them): the
# probe sends from it too (AnyIP on the probe; the router routes it to the
# probe, more specific than the victim block). kxdpgun's floods reach it
# only after 128 x 63,536 queries (docs/attack.md). None on a lab.
collateral_block4() { echo 198.18.10.128/28; }
collateral_block6() { echo 2001:2:0:10::80/124; }

# ns_of ROLE: the network namespace of a role.
ns_of() { echo "${RB_PREFIX}-$1"; }

# role_pids ROLE COMM...: the processes named COMM (or "COMM: ...", as NSD
# names its own: "nsd: main", "nsd: server 1") in ROLE's namespace.
role_pids() {
    local role=$1 p c n; shift
    for p in $(ip netns pids "$(ns_of "$role")" 2>/dev/null); do
        c=$(cat "/proc/$p/comm" 2>/dev/null) || continue
        for n in "$@"; do case $c in "$n"|"$n: "*) echo "$p" ;; esac; done
    done
    return 0
}

# switch_port ROLE: the name of the role's port on the switch. The router's
# server-VLAN port (router-s) is the paper's "interface 3".
switch_port() { echo "$1"; }

# BACKEND=netns (default): the plan above, in this machine's namespaces.
# BACKEND=lab INVENTORY=file.yml: separate hosts; the addresses, blocks and
# the lab's own ranges come from the inventory (scripts/lib/lab.sh).
BACKEND=${BACKEND:-netns}
case $BACKEND in
    netns) ;;
    lab)
        . "$RB_TOP/scripts/lib/lab.sh"
        lab_topology_load
        PLAYER_ROLES=("${LAB_PLAYERS[@]}")
        CLIENT_ROLES=("${LAB_PLAYERS[@]}" listener probe sink)
        role_addr4() { lab_role_addr4 "$1"; }
        role_addr6() { lab_role_addr6 "$1"; }
        player_block4() { lab_player_block4 "$1"; }
        player_block6() { lab_player_block6 "$1"; }
        probe_block4() { lab_probe_block4; }
        probe_block6() { lab_probe_block6; }
        victim_block4() { lab_victim_block4; }
        victim_block6() { lab_victim_block6; }
        collateral_block4() { return 1; }
        collateral_block6() { return 1; }
        ;;
    *) die "unknown BACKEND=$BACKEND (netns: this machine's namespaces; lab: hosts of an Ansible inventory, docs/real-lab.md)" ;;
esac
