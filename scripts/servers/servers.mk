# servers.mk: DNS server builds the testbed can run besides Debian's own
# packages (docs/servers.md).
#
#   make nsd-backlog        NSD rebuilt from Debian's source package with
#                           scripts/servers/nsd-backlog.patch: its TCP listen
#                           backlog is net.core.somaxconn (Debian's: 256).
#                           Output: scripts/servers/build/nsd-<version>/.
#                           Needs the source from `make deps`.
#   make nsd-backlog-clean  removes that build (not the fetched source).
#   make nsd-recvmmsg       NSD 4.12 from the same source with Debian's
#                           options but --enable-recvmmsg, as root operators
#                           build it (NSD_BUILD=recvmmsg, SERVER_RELEASE=current).
#                           Output: scripts/servers/build/nsd-<version>-recvmmsg/.
#   make servers-prune      lists the cache entries of RB_CACHE_DIR no current
#                           key names (old releases, old NSD builds) and their
#                           sizes; PRUNE=yes removes them (never one in use).
#   make servers-current    the current release of NSD, Knot DNS and BIND 9
#                           (SERVER_RELEASE=current): Debian trixie's
#                           packages unpacked into a cache entry outside the
#                           clone (scripts/servers/prepare-release); a no-op
#                           when the entry is there and whole.
#
# Not part of `make all` (about 40 s on 2 CPUs); `make check` builds it for its test.

include scripts/servers/nsd-source.conf
NSD_REBUILT_DIR := scripts/servers/build/nsd-$(NSD_UPSTREAM_VERSION)
NSD_SOURCE_DIR  := scripts/servers/build/src/nsd-$(NSD_UPSTREAM_VERSION)
NSD_RECVMMSG_DIR := scripts/servers/build/nsd-$(NSD_UPSTREAM_VERSION)-recvmmsg

.PHONY: nsd-backlog nsd-backlog-clean nsd-recvmmsg servers-current servers-prune

servers-current: ## the current NSD, Knot DNS and BIND 9 (SERVER_RELEASE=current)
	@nice scripts/servers/prepare-release current

nsd-backlog: ## NSD rebuilt with its listen backlog at net.core.somaxconn
nsd-backlog: $(NSD_REBUILT_DIR)/nsd

$(NSD_REBUILT_DIR)/nsd: scripts/servers/build-nsd scripts/servers/nsd-backlog.patch \
                        scripts/servers/nsd-source.conf $(NSD_SOURCE_DIR)/configure.ac
	@scripts/servers/build-nsd

nsd-recvmmsg: ## NSD 4.12 with --enable-recvmmsg (NSD_BUILD=recvmmsg)
nsd-recvmmsg: $(NSD_RECVMMSG_DIR)/nsd

$(NSD_RECVMMSG_DIR)/nsd: scripts/servers/build-nsd scripts/servers/nsd-source.conf $(NSD_SOURCE_DIR)/configure.ac
	@nice scripts/servers/build-nsd recvmmsg

servers-prune: ## list old cache entries and their sizes (PRUNE=yes removes)
	@scripts/servers/prune-cache $(if $(filter yes,$(PRUNE)),--remove)

$(NSD_SOURCE_DIR)/configure.ac:
	@echo "missing Debian's nsd source ($(NSD_SOURCE_DIR)): run make deps" >&2; exit 1

nsd-backlog-clean: ## remove the rebuilt NSDs (not the fetched source)
	rm -rf $(NSD_REBUILT_DIR) $(NSD_RECVMMSG_DIR)

# The test of the rebuilt NSD (scripts/tests/15-nsd-backlog.test) needs it.
CHECK_BUILD += nsd-backlog
