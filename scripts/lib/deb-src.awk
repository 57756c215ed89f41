# deb-src.awk: Debian's deb822 sources (input) as the matching deb-src
# entries, signed by the archive keyring, plus the suite EXTRA (-v extra=)
# when no entry has it (scripts/deps, make deps). Exits 1 when the input
# has no deb entry.
function flush() {
    if (uris != "" && types ~ /(^| )deb( |$)/) {
        printf "%sTypes: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\nSigned-By: %s\n",
            (n++ ? "\n" : ""), uris, suites, comps, key
        if (main_uri == "" && uris ~ /\/debian\/?$/) main_uri = uris
        if ((" " suites " ") ~ (" " extra " ")) have_extra = 1
    }
    types = uris = suites = comps = ""
}
BEGIN { key = "/usr/share/keyrings/debian-archive-keyring.gpg"
        print "# Written by rootbench scripts/deps (make deps): Debian source packages,"
        print "# for `apt-get source nsd` (make nsd-backlog, docs/servers.md)." }
/^[ \t]*#/ { next }
/^[ \t]*$/ { flush(); next }
/^Types:/      { sub(/^Types:[ \t]*/, "");      types = $0 }
/^URIs:/       { sub(/^URIs:[ \t]*/, "");       uris = $0 }
/^Suites:/     { sub(/^Suites:[ \t]*/, "");     suites = $0 }
/^Components:/ { sub(/^Components:[ \t]*/, ""); comps = $0 }
END {
    flush()
    if (n == 0) exit 1
    if (!have_extra && main_uri != "") {
        print "\n# nsd: bookworm's nsd_4.6.1.orig.tar.gz is not served by the mirror (404)."
        printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n", main_uri, extra, key
    }
}
