# Testbed profile of the DNSSEC sizing matrix (analysis/sizes-matrix): bytes
# on the wire do not depend on shaping, and the replay is slow enough that
# every query is answered. The matrix serves each zone state in turn (ZONES).
LB=l3
LINK=none
STEER=none
