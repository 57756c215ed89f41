# zones.mk: the zones the testbed serves (root, arpa., root-servers.net.),
# unsigned and signed, built by zones/build-zones into zones/build/<variant>.
#
#   make zones       unsigned + the paper's signed root (rsasha256-2048-1024)
#   make zones-all   the whole variant matrix (docs/zones.md)
#   TLDS=N, ROOT_ZONE=file, ROLL=1 are passed through the environment.

ZONES_LDNS_LIBS := $(shell pkg-config --libs ldns 2>/dev/null || echo -lldns)
zones/%.o zones/%.san.o: CFLAGS += $(shell pkg-config --cflags ldns 2>/dev/null)

$(eval $(call c_program,zones/nsec3-optout-sign,zones/optout.c zones/nsec3-optout-sign.c,$(ZONES_LDNS_LIBS)))
$(eval $(call c_program,zones/size-model-zone,zones/sizemodel.c zones/size-model-zone.c,$(ZONES_LDNS_LIBS)))

.PHONY: zones zones-all zones-clean

zones: ## the unsigned root and the paper's signed one (zones/build/)
	@zones/build-zones

zones-all: ## every zone variant (docs/zones.md)
zones-all: zones/nsec3-optout-sign zones/size-model-zone
	@zones/build-zones all

# Removes the built zones AND their keys (the next build makes new ones).
zones-clean: ## remove the built zones and their keys
	rm -rf zones/build
