# analysis/target.mk: the target guard: analysis/lib/target.c, the
# one rule of where rootbench may send, linked by tcpbench; target-check,
# the same rule for the shell scripts (scripts/lib/target.sh). See
# docs/methodology.md, "Where rootbench sends".

TARGET_LIBS := $(shell pkg-config --libs libpcap 2>/dev/null || echo -lpcap)

$(eval $(call c_program,analysis/target-check,analysis/target-check.c analysis/lib/target.c analysis/lib/capture.c analysis/lib/numparse.c,$(TARGET_LIBS)))
