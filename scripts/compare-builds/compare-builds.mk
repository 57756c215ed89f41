# compare-builds.mk: two builds of one server compared per query
# (docs/compare-builds.md).
# make compare-builds A=... B=... [COMPARE_PAIRS=5] [COMPARE_MEASURES=...]:
# each side a release name, a directory holding a built server, a source
# tree or DIR@REF; the CPU and instructions per answered query, pair by
# pair, with the 95 % interval of B/A.
.PHONY: compare-builds compare-builds-test
compare-builds: ## two builds of one server compared per query (A=... B=...)
	@scripts/compare-builds/run

compare-builds-test: ## the comparison's slow live tests (A against A, against NSD at -O0; minutes)
	@scripts/compare-builds/tests/live-test
