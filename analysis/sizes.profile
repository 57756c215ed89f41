# Testbed profile of the response-size experiment (analysis/sizes): bytes on
# the wire do not depend on shaping, and the replay is slow enough that every
# query is answered. The experiment serves each zone variant in turn (ZONES).
LB=l3
LINK=none
STEER=none
