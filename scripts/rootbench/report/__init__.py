"""The report (analysis/report): the bundle of a results directory, the
page, the data page and their check, rendered as the jq pages were, byte
for byte."""
