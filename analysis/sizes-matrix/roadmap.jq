# roadmap.jq: the rules of the root's DNSSEC roadmap (docs/sizes-matrix.md,
# "The root's DNSSEC roadmap"), over the sizing matrix's derived cells
# (rules.jq's cell_derive), tested against fixture points
# (analysis/sizes-matrix/tests/75-roadmap-rules.test, testdata/roadmap-cells.json).
#
#   roadmap($tcp; $rate; $cpus)   {phases, first_crossing, sac133, models,
#                                  tcp, findings} or null (no roadmap state measured)
#
# $tcp: {conn_per_cpu: number|null, status, source} (the TCP experiment's
# capacity per CPU of the server); $rate: the stated query rate (q/s);
# $cpus: the CPUs an instance's servers have for TCP.

# The TCP experiment's summary is read through its accessors, which check
# its schema (found from this folder: jq 1.6 would look in the current directory first).
import "tcpbench/sweep/rules" as tcp {search: "../.."};

# The answers compared, and the sizes they are compared with: 512 (the
# pre-EDNS limit), 1232 (DNS Flag Day 2020), 1400, 4096.
def roadmap_answers: ["priming", "dnskey", "referral", "nxdomain"];
def answer_limits: [512, 1232, 1400, 4096];
def flag_day_limit: 1232;

# The states, in the algorithm roll's order; then the control and the
# post-quantum size models. analysis/sizes-matrix/run plans its cells from
# this list; "shared" states are the matrix's own too.
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

# The query profiles of the roadmap's cells: a root server's mix, and the
# same with every query DO=1.
def mix_profile: "root-2016";
def do_profile: "do100";

# tcp_capacity($source): the server's TCP capacity per CPU from a TCP
# experiment's summary (the input; null when there is none): the largest
# figure of its configurations that have one (a figure exists only when the
# server was the bottleneck, tcpbench/sweep/rules.jq's per_cpu), else null
# with the first configuration's reason. Never a number of our own.
def tcp_capacity($source):
  if . == null then
    {conn_per_cpu: null, status: "not measured", source: null,
     note: "no tcp results in this results directory: run make tcp TCP_SERVER_CPU=0.1 (a figure per CPU needs the server to be the bottleneck), or make bench"}
  else
    tcp::tcp_configs(.) as $configs
    | [$configs[] | tcp::tcp_per_cpu(.) as $pc | select(($pc.conn_per_cpu | type) == "number")
       | {name: tcp::tcp_config_name(.), conn_per_cpu: $pc.conn_per_cpu}] as $ok
    | if ($ok | length) > 0 then ($ok | max_by(.conn_per_cpu)) as $b
        | {conn_per_cpu: $b.conn_per_cpu, status: "measured", source: $source, config: $b.name, note: null}
      else {conn_per_cpu: null, status: "not measured", source: $source,
            note: ("the TCP experiment gave no capacity per CPU: "
                   + ([$configs[] | "\(tcp::tcp_config_name(.) // "?"): \(tcp::tcp_per_cpu(.).rule // "no rule")"] | .[0]
                      // "no configuration"))} end
  end;

# crosses($limit): an answer of BYTES does not fit a buffer of $limit (an
# answer exactly as long fits).
def crosses($limit): . != null and . > $limit;

def r4: . * 10000 | round / 10000;

# cell($z; $p): the 1232-byte cell of zone state $z and profile $p, or null.
def cell($z; $p): [.[] | select(.zone_state == $z and .profile == $p and .edns == "1232")] | .[0];

# phase_row($cells; $tcp; $rate; $cpus): one state's answers, crossings, TC
# shares and what its TCP fallback costs.
def phase_row($cells; $tcp; $rate; $cpus):
  . as $ph
  | ([$cells[] | select(.zone_state == $ph.state and .probes != null) | .probes] | .[0]) as $a
  | ($cells | cell($ph.state; mix_profile)) as $mix
  | ($cells | cell($ph.state; do_profile)) as $all
  | ($mix.tc_share // null) as $tc
  | (if $tc == null then null else ($rate * $tc | round) end) as $need
  | $ph + {
      measured: ($a != null),
      answers: (if $a == null then null else
                 [roadmap_answers[] as $n | {answer: $n, bytes: ($a[$n].bytes // null), rcode: ($a[$n].rcode // null)}] end),
      crosses: (if $a == null then null else
                 [answer_limits[] as $l | {limit: $l, answers: [roadmap_answers[] as $n | select($a[$n].bytes | crosses($l)) | $n]}] end),
      dnskey_predicted_bytes: ($a.dnskey.predicted_bytes // null),
      size_model: ([$cells[] | select(.zone_state == $ph.state) | .size_model // empty
                    | {standard, key_bytes, signature_bytes, algorithm, note}] | .[0]),
      tc_share_mix: $tc,
      tc_share_do100: ($all.tc_share // null),
      bytes_per_query_out_mix: ($mix.bytes_per_query_out // null),
      tcp_conn_needed: $need,
      tcp_cpus_needed: (if $need == null or ($tcp.conn_per_cpu // null) == null then null
                        else ($need / $tcp.conn_per_cpu * 100 | round / 100) end),
      tcp_has_them: (if $need == null or ($tcp.conn_per_cpu // null) == null then null
                     else ($need <= $tcp.conn_per_cpu * $cpus) end)};

# first_crossing($rows; $limit): the first state of the roll whose answers
# cross $limit, with those answers; null when none does.
def first_crossing($rows; $limit):
  [$rows[] | select(.kind == "roll" and .measured)
   | . as $r | ($r.crosses[] | select(.limit == $limit) | .answers) as $x
   | select(($x | length) > 0) | {state: $r.state, label: $r.label, answers: $x}] | .[0];

# sac133($rows): SAC133's premise, that cutting the RSA ZSK to 1536 bits
# keeps the double-signed root's answers within 1232 bytes: for the
# double-signed state and its 2048-bit control, each answer's margin
# (1232 - bytes; negative: by how much it does not fit), whether the
# priming and DNSKEY answers fit (the premise as stated), and whether all
# four do.
def sac133($rows):
  def of($s): [$rows[] | select(.state == $s and .measured)] | .[0];
  def fit($r): if $r == null then null else
      ([$r.answers[] | {answer, bytes, margin: (flag_day_limit - .bytes), fits: ((.bytes | crosses(flag_day_limit)) | not)}]) as $a
      | {answers: $a,
         priming_dnskey_fit: ([$a[] | select(.answer == "priming" or .answer == "dnskey") | .fits] | all),
         all_fit: ([$a[] | .fits] | all),
         tc_share_mix: $r.tc_share_mix} end;
  {rule: "the priming and DNSKEY answers (DO=1) of the double-signed state fit \(flag_day_limit) bytes (SAC133's premise); all four answers fit",
   double_1536: fit(of("alg-double")), control_2048: fit(of("alg-double-2048"))};

def roadmap($tcp; $rate; $cpus):
  . as $cells
  | [roadmap_phases[] | phase_row($cells; $tcp; $rate; $cpus)] as $rows
  | if ($rows | map(select(.measured)) | length) == 0 then null
    else
      first_crossing($rows; flag_day_limit) as $fc
      | sac133($rows) as $sac
      | {limit_bytes: flag_day_limit, limits: answer_limits,
         mix_profile: mix_profile, do_profile: do_profile,
         mix_do_share: ([$cells[] | select(.profile == mix_profile and .edns == "1232") | .trace_do_share // empty] | .[0]),
         phases: $rows,
         first_crossing: $fc,
         control_crossing: ([$rows[] | select(.kind == "control" and .measured)
                             | . as $r | ($r.crosses[] | select(.limit == flag_day_limit) | .answers) as $x
                             | {state: $r.state, label: $r.label, answers: $x}] | .[0]),
         first_crossing_by_limit: [answer_limits[] as $l | {limit: $l, first: first_crossing($rows; $l)}],
         sac133: $sac,
         tcp: ($tcp + {stated_rate_qps: $rate, instance_cpus: $cpus,
                       rule: ("TCP connections/s needed = stated query rate x the share of answers truncated at a \(flag_day_limit)-byte buffer with the "
                         + "\(mix_profile) mix (each truncated answer is retried over one TCP connection); the instance has them when that is at most the TCP "
                         + "capacity per CPU x its CPUs")}),
         models: [$rows[] | select(.kind == "model" and .measured)
                  | {state, label: .label, tc_share_mix, tc_share_do100, tcp_conn_needed}]}
    end;
