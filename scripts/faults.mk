# faults.mk -- fault injection on the testbed (docs/reliability.md, "Faults").
#   make faults      every fault test (scripts/tests/8x-fault-*.test), the
#                    long ones ("# check: faults-only") too; make check runs
#                    the short ones
.PHONY: faults
faults: ## every fault-injection test, the long ones too
faults: all
	@RB_FAULTS=1 CHECK='^scripts/tests/8[0-9]-fault-' scripts/check
