# Testbed profile of the UDP ceiling experiment (udpreplay/udp). The
# experiment adds its own settings on top: LB (each mode it sweeps),
# LINK=$UDP_LINK (none, or the paper's 100mbit) and ZONES=$UDP_ZONES.
LB=l3
LINK=none
STEER=none
