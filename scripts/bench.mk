# bench.mk: the main job and the report.
#   make bench [SCALE=smoke|quick|paper]   build, testbed up, zones, every
#        experiment, testbed down, report -> results/<UTC stamp>/ (results/latest)
#   make report [RESULTS=dir]              (re)write dir/report.html (default results/latest)
#   make report-check [RESULTS=dir]        verify every number of the report against the files
#   make report-pdf [RESULTS=dir]          dir/report.pdf from the report (Chromium, headless)
# SCALE is exported so every experiment (make udp, sizes, lb-verify, tcp)
# reads the same scale when run alone too; its default is the registry's
# (scripts/lib/experiments.json, scales.default).

export SCALE
RESULTS ?= results/latest

.PHONY: bench report report-check report-pdf
bench: ## every experiment and the report -> results/<UTC stamp>/ (SCALE=)
	@scripts/bench

report: ## (re)write RESULTS=dir/report.html (default results/latest)
	@analysis/report $(RESULTS)

report-check: ## verify every number of RESULTS's report against its files
	@analysis/report-check $(RESULTS)

report-pdf: ## RESULTS=dir/report.pdf, the report to print (Chromium)
	@analysis/report-pdf $(RESULTS)
