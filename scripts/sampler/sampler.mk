# sampler.mk -- rbsample, the testbed sampler: counters of every layer of
# the namespace testbed and per-CPU stall probes, sampled in time. See
# docs/sampler.md.

RBS_MODULES := scripts/sampler/options.c scripts/sampler/sampler.c \
               scripts/sampler/series.c scripts/sampler/summary.c \
               scripts/sampler/ctrset.c scripts/sampler/procfile.c \
               scripts/sampler/procnet.c scripts/sampler/netns.c \
               scripts/sampler/nlsock.c scripts/sampler/rtnl.c \
               scripts/sampler/diag.c scripts/sampler/objtab.c \
               scripts/sampler/cpustat.c scripts/sampler/cgroup.c \
               scripts/sampler/probe.c scripts/sampler/stall.c \
               scripts/sampler/arrivals.c \
               analysis/lib/json.c analysis/lib/outfile.c analysis/lib/numparse.c \
               analysis/lib/cliopt.c

$(eval $(call c_program,scripts/sampler/rbsample,scripts/sampler/rbsample.c $(RBS_MODULES),-lpthread))

# rbspeed: the host's speed on given CPUs (a fixed workload timed), which
# every experiment records at its start and end.
$(eval $(call c_program,scripts/sampler/rbspeed,scripts/sampler/rbspeed.c scripts/sampler/speed.c scripts/sampler/cpustat.c scripts/sampler/procfile.c analysis/lib/cliopt.c,))

$(eval $(call c_unit_test,scripts/sampler/tests/test-procnet,scripts/sampler/tests/test-procnet.c scripts/sampler/procnet.c scripts/sampler/ctrset.c,))
$(eval $(call c_unit_test,scripts/sampler/tests/test-cpustat,scripts/sampler/tests/test-cpustat.c scripts/sampler/cpustat.c scripts/sampler/cgroup.c scripts/sampler/procfile.c,))
$(eval $(call c_unit_test,scripts/sampler/tests/test-stall,scripts/sampler/tests/test-stall.c scripts/sampler/stall.c scripts/sampler/objtab.c,))
