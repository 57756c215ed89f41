# sampler.mk -- rbsample, the testbed sampler: counters of every layer of
# the namespace testbed and per-CPU stall probes, sampled in time. See
# docs/sampler.md. The testbed command line runs it (scripts/testbed sample).

RBS_MODULES := scripts/sampler/options.c scripts/sampler/sampler.c \
               scripts/sampler/series.c scripts/sampler/summary.c \
               scripts/sampler/ctrset.c scripts/sampler/procfile.c \
               scripts/sampler/procnet.c scripts/sampler/netns.c \
               scripts/sampler/nlsock.c scripts/sampler/rtnl.c \
               scripts/sampler/diag.c scripts/sampler/objtab.c \
               scripts/sampler/cpustat.c scripts/sampler/cgroup.c \
               scripts/sampler/probe.c scripts/sampler/stall.c \
               analysis/json.c

$(eval $(call c_program,scripts/sampler/rbsample,scripts/sampler/rbsample.c $(RBS_MODULES),-lpthread))
