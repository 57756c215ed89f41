# lab.mk: the real-lab backend (docs/real-lab.md). make lab-setup
# INVENTORY=file.yml provisions every host of the inventory with
# scripts/lab/site.yml (packages, this build's programs, addresses and
# routes, the counters, the server with the zone variant); run it again
# after a rebuild. Then the experiments run with BACKEND=lab INVENTORY=file.yml.
# make lab-teardown INVENTORY=file.yml is the reverse (scripts/lab/teardown.yml:
# the server stopped; the counters, addresses, routes, sysctls, cgroups and
# rb_dir as before; Debian's packages stay installed).

.PHONY: lab-setup lab-teardown check-lab
check-lab: ## the lab tests, with the whole experiments on the simulated lab ("# check: lab-only")
check-lab: all
	@RB_LAB_SOAK=1 CHECK='(^|/)tests/[67][0-9]-lab' scripts/check

lab-setup: ## provision the real lab of INVENTORY=file.yml (docs/real-lab.md)
lab-setup: tcpbench/tcpbench tcpbench/rbprobe scripts/sampler/rbsample analysis/target-check
	@[ -n "$(INVENTORY)" ] || { echo "make lab-setup: INVENTORY=file.yml is needed (docs/real-lab.md)" >&2; exit 2; }
	@BACKEND=lab INVENTORY="$(INVENTORY)" scripts/testbed setup

lab-teardown: ## undo lab-setup on the hosts of INVENTORY=file.yml
	@[ -n "$(INVENTORY)" ] || { echo "make lab-teardown: INVENTORY=file.yml is needed (docs/real-lab.md)" >&2; exit 2; }
	@BACKEND=lab INVENTORY="$(INVENTORY)" scripts/testbed teardown
