# Testbed profile of the TCP capacity experiment (tcpbench/tcp-sweep).
# Unshaped: a 100 Mb/s link is the UDP experiment's question, not this one's.
# Every player targets its server's unicast address, so LB does not matter.
# STEER=rps keeps the players' receive path (and the expiry of their
# TIME-WAIT sockets) on the client CPU, off the server's.
LB=l3
LINK=none
STEER=rps
NSD_TCP_COUNT=1000
