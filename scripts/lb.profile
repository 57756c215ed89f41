# Testbed profile of the TCP load-balancer check (scripts/lb-verify). The
# balancer under test comes from LB (default l3), added by the experiment.
LB=l3
LINK=none
STEER=none
