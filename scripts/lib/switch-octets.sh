# switch-octets.sh: the octets the switch's port router-s carried (SNMP
# ifHCInOctets and ifHCOutOctets, through scripts/testbed snmp-octets), the
# byte counts of the experiments that weigh answers on the wire
# (analysis/sizes, analysis/sizes-matrix, tcpbench/dot/bytes); and those
# of any two ports (the attack floods': the attacker's in, the sink's out). Callers set
# TESTBED (scripts/testbed); source after common.sh and topology.sh.

# snmp_both OUTFILE: "IN OUT" octets of router-s, both read in parallel
# (OUTFILE.in/.out and their .err are scratch).
snmp_both() { snmp_ports_octets "$1" router-s router-s; }

# snmp_ports_octets OUTFILE INPORT OUTPORT: "IN OUT": ifHCInOctets of switch
# port INPORT and ifHCOutOctets of OUTPORT, read in parallel (OUTFILE.in/.out
# and their .err are scratch).
snmp_ports_octets() {
    local pi po
    "$TESTBED" snmp-octets in "$2" > "$1.in" 2> "$1.in.err" & pi=$!
    "$TESTBED" snmp-octets out "$3" > "$1.out" 2> "$1.out.err" & po=$!
    wait "$pi" || die "SNMP reading failed: snmpget ifHCInOctets of switch port $2 from the switch's agent (scripts/testbed snmp-octets in $2; on the namespace testbed snmpd in $(ns_of switch)): $(tr '\n' ' ' < "$1.in.err")"
    wait "$po" || die "SNMP reading failed: snmpget ifHCOutOctets of switch port $3 from the switch's agent (scripts/testbed snmp-octets out $3; on the namespace testbed snmpd in $(ns_of switch)): $(tr '\n' ' ' < "$1.out.err")"
    [[ $(cat "$1.in") =~ ^[0-9]+$ && $(cat "$1.out") =~ ^[0-9]+$ ]] || die "SNMP octets not numeric: $(cat "$1.in" "$1.out")"
    echo "$(cat "$1.in") $(cat "$1.out")"
}
