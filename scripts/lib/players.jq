# players.jq -- the load split over the players (scripts/lib/players.sh):
# each player's share of a rate and of a source block, and the start skew
# of players started at one absolute time. Pure: the shell passes the
# players, the rate, the block and the measured starts.

# cidr_bits($cidr): an IPv4 or IPv6 CIDR as {width: 32|128, len, bits:
# [0|1, ...]} (the address's bits, most significant first); an error
# naming it when it is not one.
def cidr_bits($cidr):
  def bad: error("not a CIDR: \($cidr)");
  def binary($n; $w): [range($w - 1; -1; -1) as $i | ($n / pow(2; $i) | floor) % 2];
  ($cidr | split("/")) as $p
  | if ($p | length) != 2 or ($p[1] | test("^[0-9]{1,3}$") | not) then bad else . end
  | ($p[1] | tonumber) as $len
  | if ($p[0] | test(":")) then
      ($p[0] | split("::")) as $h
      | if ($h | length) > 2 then bad else . end
      | ($h | map(if . == "" then [] else split(":") end)) as $g
      | (if ($g | length) == 2 then $g[0] + [range(0; 8 - ($g[0] | length) - ($g[1] | length)) | "0"] + $g[1] else $g[0] end) as $x
      | if ($x | length) != 8 or any($x[]; test("^[0-9a-fA-F]{1,4}$") | not) or $len > 128 then bad else . end
      | {width: 128, len: $len,
         bits: [$x[] | ascii_downcase | explode | reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end)) | binary(.; 16)[]]}
    else
      ($p[0] | split(".")) as $o
      | if ($o | length) != 4 or any($o[]; test("^[0-9]{1,3}$") | not) or any($o[]; tonumber > 255) or $len > 32 then bad else . end
      | {width: 32, len: $len, bits: [$o[] | tonumber | binary(.; 8)[]]}
    end;

# cidr_text($c): cidr_bits's form back as text (IPv6 with its longest run
# of zero groups, two or more, written "::").
def cidr_text($c):
  def num($b): reduce $b[] as $x (0; . * 2 + $x);
  def hex: if . == 0 then "0"
           else [recurse(if . >= 16 then (. / 16 | floor) else empty end) | . % 16] | reverse
                | map(if . < 10 then . + 48 else . + 87 end) | implode end;
  if $c.width == 32 then
    ([range(0; 4) as $i | num($c.bits[$i * 8:($i + 1) * 8]) | tostring] | join(".")) + "/\($c.len)"
  else
    [range(0; 8) as $i | num($c.bits[$i * 16:($i + 1) * 16])] as $g
    | (reduce range(0; 8) as $i ({best: {i: 0, n: 0}, cur: {i: 0, n: 0}};
         if $g[$i] == 0 then .cur = (if .cur.n == 0 then {i: $i, n: 1} else .cur + {n: (.cur.n + 1)} end)
                             | if .cur.n > .best.n then .best = .cur else . end
         else .cur = {i: 0, n: 0} end) | .best) as $z
    | [$g[] | hex] as $h
    | (if $z.n >= 2 then ($h[0:$z.i] | join(":")) + "::" + ($h[$z.i + $z.n:] | join(":")) else $h | join(":") end) + "/\($c.len)"
  end;

# cidr_split($cidr; $n): $cidr as $n disjoint blocks of one size, the
# first $n of its 2^k equal parts (2^k >= $n, k the least), in address
# order; null when $cidr holds fewer than $n addresses' worth of parts.
def cidr_split($cidr; $n):
  cidr_bits($cidr) as $c
  | ([range(0; 64) | select(pow(2; .) >= $n)] | first) as $k
  | if $c.len + $k > $c.width then null
    else
      [range(0; $n) as $i
       | [range($k - 1; -1; -1) as $j | ($i / pow(2; $j) | floor) % 2] as $ib
       | cidr_text({width: $c.width, len: ($c.len + $k),
                    bits: ($c.bits[0:$c.len] + $ib + [range(0; $c.width - $c.len - $k) | 0])})]
    end;

# player_shares($players; $rate; $sources): each player's share of the
# rate and its sources, [{player, rate, sources}] in the order of
# $players: an integer rate in whole parts that sum to it (the first
# rate % n players one more), any other rate in equal parts; $sources
# split into disjoint blocks, one each (cidr_split), or, when it is too
# small for that (the Listener's one address), the whole of it to every
# player, and then sources_shared is true. A player whose share is 0
# sends nothing. $sources null: no sources (the player's own).
def player_shares($players; $rate; $sources):
  ($players | length) as $n
  | if $n < 1 then error("no players to share the load") else . end
  | if ($rate | type) != "number" or $rate < 0 then error("rate \($rate): not a rate") else . end
  | (if $sources == null then null else cidr_split($sources; $n) end) as $blocks
  | [range(0; $n) as $i
     | {player: $players[$i],
        rate: (if $rate == ($rate | floor) then ($rate / $n | floor) + (if $i < $rate % $n then 1 else 0 end) else $rate / $n end),
        sources: (if $sources == null then null elif $blocks == null then $sources else $blocks[$i] end),
        sources_shared: ($sources != null and $blocks == null and $n > 1)}];

# start_skew($at; $starts): players started at one absolute time $at
# (seconds since the epoch, null when they were not), from the measured
# start of each one's sending ($starts: [{player, start}], each on its
# host's own clock, start null when not measured): each one's lateness,
# the spread between the first and the last, in ms.
def start_skew($at; $starts):
  def ms: . * 1e6 | round / 1e3;
  ([$starts[] | .start | select(. != null)]) as $t
  | {at: $at,
     players: [$starts[] | {player, start, late_ms: (if $at != null and .start != null then (.start - $at) | ms else null end)}],
     late_ms_max: (if $at != null and ($t | length) > 0 then ($t | max) - $at | ms else null end),
     skew_ms: (if ($t | length) > 0 then ($t | max) - ($t | min) | ms else null end),
     measured: ($t | length)};

# players_sweep($sources; $lead; $starts): a sweep's players: who sent
# ($sources: [{player, sources, shared}], each one's block of the
# sources) and, over its points' start skews ($starts: start_skew's, one a
# point measured in this run), the worst lateness and the widest spread,
# in ms; null where nothing was measured (a point kept from an earlier
# run has none; players not started at one time have no lateness).
def players_sweep($sources; $lead; $starts):
  def maxof(f): [$starts[] | f | select(. != null)] | max;
  {roles: [$sources[].player], sources: $sources,
   sources_shared: any($sources[]; .shared),
   rate_split: "equal shares of the rate, whole ones of a whole rate (players.jq player_shares)",
   start: {absolute: any($starts[]; .at != null), lead_s: $lead, points: ($starts | length),
           measured: ([$starts[] | select(.measured == (.players | length))] | length),
           late_ms_max: maxof(.late_ms_max), skew_ms_max: maxof(.skew_ms),
           source: ("each player's first packet as its generator reports it (tcpreplay's Test start, tcpbench's first connection; "
                    + "kxdpgun's ready line stamped on its host, plus its fixed 1 s sleep), on its host's own clock")}};
