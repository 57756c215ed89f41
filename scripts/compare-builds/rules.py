"""rules: the comparison of two builds (make compare-builds), as pure
functions the run and its tests call.

The statistics: each pair i (one run of A and one of B, back to back) gives
a ratio r_i = B_i / A_i of a measure (CPU time per answered query,
instructions per answered query). The pairs' log ratios l_i = ln r_i are
taken as a sample of a normal law: their mean m and standard deviation s
(n - 1 in the denominator) give the 95 % confidence interval of the ratio
exp(m -/+ t(0.975, n - 1) * s / sqrt(n)) (Student's t-interval on the log
ratios, n - 1 degrees of freedom), and exp(m) is the ratio stated (the
geometric mean of the pairs' ratios). Logs make B/A and A/B symmetric and
the interval of a ratio never negative. A pair is a block: what the host
did in its minute (another tenant, a frequency step) falls on both sides of
it and cancels in its ratio, which is why the sides alternate in every pair
and the pairs are the unit of the interval, not the runs.

The verdict: "B costs X % less|more <what> per query (95 % CI LO-HI %)"
when the interval lies wholly below or above 1, else "no difference
detected (LO % ... HI %)" with the interval as signed changes.
"""

import math

SCHEMA = "rootbench.compare-builds/1"
CONFIDENCE = 0.95

# Student's t quantile t(0.975, dof) for dof 1..30, then a few more (between
# them the quantile is interpolated in 1/dof, exact to 3 decimals).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
        16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074,
        23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045,
        30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}
Z975 = 1.960

# The measures, in the order of the table: key, what the verdict says is
# costlier or cheaper, the unit of its per-query value.
MEASURES = [
    ("cpu_udp", "CPU per query", "us"),
    ("cpu_tcp", "CPU per TCP query", "us"),
    ("instr_udp", "instructions per query", "instr"),
]
MEASURE_WORDS = {k: w for k, w, _ in MEASURES}
MEASURE_UNITS = {k: u for k, _, u in MEASURES}


def t975(dof):
    """t(0.975, dof) of Student's law (dof >= 1)."""
    if dof < 1:
        raise ValueError("degrees of freedom must be at least 1, not %r" % dof)
    if dof in T975:
        return T975[dof]
    keys = sorted(T975)
    if dof > keys[-1]:
        lo, hi, tlo, thi = keys[-1], math.inf, T975[keys[-1]], Z975
    else:
        lo = max(k for k in keys if k < dof)
        hi = min(k for k in keys if k > dof)
        tlo, thi = T975[lo], T975[hi]
    # linear in 1/dof between the two neighbours
    x, xlo, xhi = 1.0 / dof, 1.0 / lo, (0.0 if hi == math.inf else 1.0 / hi)
    return thi + (tlo - thi) * (x - xhi) / (xlo - xhi)


def per_query(amount, answered):
    """amount / answered, or None when nothing was answered."""
    if not answered or answered <= 0 or amount is None:
        return None
    return amount / answered


def pair_ratios(pairs):
    """B/A of each pair whose two sides have a value (others left out)."""
    out = []
    for a, b in pairs:
        if a is None or b is None:
            continue
        if a <= 0 or b <= 0:
            raise ValueError("a per-query value must be positive (A %r, B %r)" % (a, b))
        out.append(b / a)
    return out


def ratio_interval(ratios):
    """{n, ratio, lo, hi, method} of the pairs' ratios: the geometric mean
    and the 95 % t-interval on the log ratios (lo, hi None with one pair:
    no spread to state)."""
    n = len(ratios)
    if n == 0:
        return {"n": 0, "ratio": None, "lo": None, "hi": None, "method": METHOD}
    logs = [math.log(r) for r in ratios]
    m = sum(logs) / n
    if n == 1:
        return {"n": 1, "ratio": math.exp(m), "lo": None, "hi": None, "method": METHOD}
    s = math.sqrt(sum((x - m) ** 2 for x in logs) / (n - 1))
    half = t975(n - 1) * s / math.sqrt(n)
    return {"n": n, "ratio": math.exp(m), "lo": math.exp(m - half), "hi": math.exp(m + half), "method": METHOD}


METHOD = "95 % Student t-interval on the pairs' log ratios ln(B/A), n - 1 degrees of freedom; ratio: their geometric mean"


def pct_digits(lo, hi):
    """Decimals for percentages: one, or two when the interval is narrower
    than 0.5 % (instruction counts)."""
    if lo is None or hi is None:
        return 1
    return 2 if abs(hi - lo) * 100 < 0.5 else 1


def fmt_pct(x, digits):
    return "%.*f" % (digits, x)


def fmt_signed(x, digits):
    s = "%+.*f" % (digits, x)
    # a minus sign, not a hyphen, as the words have it
    return s.replace("-", "\u2212")


def verdict(iv, what):
    """(word, sentence) of an interval (ratio_interval) for measure what:
    word is "cheaper", "costlier", "same" (no difference detected) or
    "unknown" (fewer than two pairs)."""
    r, lo, hi = iv["ratio"], iv["lo"], iv["hi"]
    if r is None:
        return "unknown", "not measured"
    if lo is None:
        return "unknown", "one pair: B/A %.4f, no interval (COMPARE_PAIRS >= 2 states one)" % r
    d = pct_digits(lo, hi)
    if hi < 1:
        return "cheaper", "B costs %s %% less %s (95 %% CI %s-%s %%)" % (
            fmt_pct((1 - r) * 100, d), what, fmt_pct((1 - hi) * 100, d), fmt_pct((1 - lo) * 100, d))
    if lo > 1:
        return "costlier", "B costs %s %% more %s (95 %% CI %s-%s %%)" % (
            fmt_pct((r - 1) * 100, d), what, fmt_pct((lo - 1) * 100, d), fmt_pct((hi - 1) * 100, d))
    return "same", "no difference detected (%s %% \u2026 %s %%)" % (
        fmt_signed((lo - 1) * 100, d), fmt_signed((hi - 1) * 100, d))


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    k = len(xs) // 2
    return xs[k] if len(xs) % 2 else (xs[k - 1] + xs[k]) / 2


def compare_measure(key, points):
    """One measure's comparison from its points: [{pair, side, value}, ...]
    (value: per answered query, None when not measured). Returns the
    summary's entry: the pairs' A, B and ratio, A's and B's medians, the
    interval and the verdict."""
    by_pair = {}
    for p in points:
        by_pair.setdefault(p["pair"], {})[p["side"]] = p.get("value")
    pairs_out, ab = [], []
    for i in sorted(by_pair):
        a, b = by_pair[i].get("A"), by_pair[i].get("B")
        ratio = b / a if (a and b) else None
        pairs_out.append({"pair": i, "A": a, "B": b, "ratio": ratio})
        ab.append((a, b))
    iv = ratio_interval(pair_ratios(ab))
    word, sentence = verdict(iv, MEASURE_WORDS.get(key, key))
    return {"measure": key, "unit": MEASURE_UNITS.get(key, ""),
            "A": median(a for a, _ in ab), "B": median(b for _, b in ab),
            "ratio": iv["ratio"], "ci95": [iv["lo"], iv["hi"]], "n_pairs": iv["n"],
            "verdict": word, "words": sentence, "pairs": pairs_out}


def order_of_pair(i):
    """The sides' order in pair i (1-based): AB, BA, AB, ... so that a
    drift over the run falls on both sides alike."""
    return ("A", "B") if i % 2 == 1 else ("B", "A")


def fmt_value(v, unit):
    if v is None:
        return "-"
    if unit == "instr":
        return "%.0f" % v
    return "%.3f" % v


def table_lines(measures):
    """The terminal table: a header and one line per measure (at most ten
    lines in all)."""
    rows = [("measure", "A", "B", "B/A", "95% CI", "verdict")]
    for m in measures:
        lo, hi = m["ci95"]
        unit = m["unit"]
        name = "%s (%s/q)" % (m["measure"], unit)
        ci = "-" if lo is None else "%.4f-%.4f" % (lo, hi)
        rows.append((name, fmt_value(m["A"], unit), fmt_value(m["B"], unit),
                     "-" if m["ratio"] is None else "%.4f" % m["ratio"], ci, m["words"]))
    widths = [max(len(r[c]) for r in rows) for c in range(5)]
    out = []
    for r in rows:
        out.append("  ".join(r[c].ljust(widths[c]) for c in range(5)) + "  " + r[5])
    return out[:10]


def callgrind_total(text):
    """The instructions a callgrind output file counts (its summary: line,
    else its totals: line); None when it has neither (a process killed
    before it wrote its counts)."""
    total = None
    for line in text.splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
        if line.startswith("totals:"):
            total = int(line.split()[1])
    return total


def instructions_per_query(short_total, long_total, short_n, long_n):
    """Instructions per query from two runs of the same daemon that differ
    only in the number of queries: what the start, the zone load and the
    stop cost is the same in both and cancels in the difference."""
    if long_n <= short_n:
        raise ValueError("the long run must answer more queries than the short one (%d, %d)" % (short_n, long_n))
    return (long_total - short_total) / (long_n - short_n)


def cpu_usec(cpu_stat_text):
    """usage_usec of a cgroup v2 cpu.stat."""
    for line in cpu_stat_text.splitlines():
        k, _, v = line.partition(" ")
        if k == "usage_usec":
            return int(v)
    raise ValueError("cpu.stat has no usage_usec")


# The daemons' counters of answers by code, as server-stats names them:
# NSD's num.rcode.*, BIND's statistics channel's rcodes (rcode.*), Knot's
# mod-stats response-code[*].
ANSWER_CODE_PREFIXES = ("num.rcode.", "rcode.", "mod-stats.response-code[")


def answered(stats):
    """Answers a server counted, from its server-stats entry: the sum of
    its answer codes, else its queries when it counts no codes."""
    if not stats:
        return 0
    c = stats.get("counters") or {}
    codes = [v for k, v in c.items() if k.startswith(ANSWER_CODE_PREFIXES)]
    if codes:
        return int(sum(codes))
    return int(stats.get("queries") or 0)
