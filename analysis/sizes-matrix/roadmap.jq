# roadmap.jq: the states of the root's DNSSEC roadmap, for the report's
# former sizing-matrix section (section.jq, still read by the report's jq
# tests) alone. The roadmap's rules, and this list, are roadmap.py's (the
# run plans its cells from there); tests/test_roadmap_states.py checks that
# this copy is the same list. It goes with section.jq.

# The states, in the algorithm roll's order; then the control and the
# post-quantum size models; "shared" states are the matrix's own too.
def roadmap_phases: [
  {state: "root", kind: "roll", label: "RSA only (today)", shared: true,
   description: "today's root: RSASHA256, KSK and ZSK of 2048 bits"},
  {state: "alg-prepublish", kind: "roll", label: "ECDSA KSK and ZSK published, RSA signing",
   description: "ECDSAP256SHA256 KSK and ZSK published beside today's RSA keys, signing nothing yet"},
  {state: "alg-double", kind: "roll", label: "double-signed, RSA ZSK 1536 bits",
   description: "both algorithms sign every RRset, the RSA ZSK cut to 1536 bits as SAC133 endorses"},
  {state: "alg-ecdsa-rsaksk", kind: "roll", label: "ECDSA signing, the RSA KSK still published",
   description: "ECDSA keys sign; the RSA KSK is still published and signs nothing"},
  {state: "ecdsap256", kind: "roll", label: "ECDSA only", shared: true,
   description: "the roll done: ECDSAP256SHA256 KSK and ZSK only"},
  {state: "alg-double-2048", kind: "control", label: "double-signed, RSA ZSK 2048 bits (control)",
   description: "the double-signed state with today's 2048-bit RSA ZSK: what the cut to 1536 bits saves"},
  {state: "pq-falcon512", kind: "model", label: "Falcon-512 size model",
   description: "size model, not a valid signature: keys and signatures as long as the standard says"},
  {state: "pq-mldsa44", kind: "model", label: "ML-DSA-44 size model",
   description: "size model, not a valid signature: keys and signatures as long as the standard says"},
  {state: "pq-slhdsa128s", kind: "model", label: "SLH-DSA-SHA2-128s size model",
   description: "size model, not a valid signature: keys and signatures as long as the standard says"}];

# roadmap_only_states: the states only the roadmap measures (not "shared"
# with the matrix's one-factor plan).
def roadmap_only_states: [roadmap_phases[] | select(.shared | not) | .state];
