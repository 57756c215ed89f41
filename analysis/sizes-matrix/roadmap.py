"""The states of the root's DNSSEC roadmap (docs/sizes-matrix.md, "The
root's DNSSEC roadmap"), in the algorithm roll's order; then the control and
the post-quantum size models.

The report's sizing-matrix section (section.py) reads which states only
the roadmap measures from here. The run still plans its cells, and derives
the roadmap, with analysis/sizes-matrix/roadmap.jq, which holds the same
list; tests/test_roadmap_states.py checks that the two agree.
"""

# The states, as roadmap.jq's roadmap_phases lists them: "shared" states
# are the matrix's own too.
ROADMAP_PHASES = [
    {"state": "root", "kind": "roll", "label": "RSA only (today)", "shared": True,
     "description": "today's root: RSASHA256, KSK and ZSK of 2048 bits"},
    {"state": "alg-prepublish", "kind": "roll", "label": "ECDSA KSK and ZSK published, RSA signing",
     "description": "ECDSAP256SHA256 KSK and ZSK published beside today's RSA keys, signing nothing yet"},
    {"state": "alg-double", "kind": "roll", "label": "double-signed, RSA ZSK 1536 bits",
     "description": "both algorithms sign every RRset, the RSA ZSK cut to 1536 bits as SAC133 endorses"},
    {"state": "alg-ecdsa-rsaksk", "kind": "roll", "label": "ECDSA signing, the RSA KSK still published",
     "description": "ECDSA keys sign; the RSA KSK is still published and signs nothing"},
    {"state": "ecdsap256", "kind": "roll", "label": "ECDSA only", "shared": True,
     "description": "the roll done: ECDSAP256SHA256 KSK and ZSK only"},
    {"state": "alg-double-2048", "kind": "control", "label": "double-signed, RSA ZSK 2048 bits (control)",
     "description": "the double-signed state with today's 2048-bit RSA ZSK: what the cut to 1536 bits saves"},
    {"state": "pq-falcon512", "kind": "model", "label": "Falcon-512 size model",
     "description": "size model, not a valid signature: keys and signatures as long as the standard says"},
    {"state": "pq-mldsa44", "kind": "model", "label": "ML-DSA-44 size model",
     "description": "size model, not a valid signature: keys and signatures as long as the standard says"},
    {"state": "pq-slhdsa128s", "kind": "model", "label": "SLH-DSA-SHA2-128s size model",
     "description": "size model, not a valid signature: keys and signatures as long as the standard says"},
]


def roadmap_only_states():
    """The states only the roadmap measures (not "shared" with the matrix's
    one-factor plan)."""
    return [ph["state"] for ph in ROADMAP_PHASES if not ph.get("shared")]
