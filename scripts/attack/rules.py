"""The attack experiment's rules (docs/attack.md): what the legitimate
client saw at each attack step, the attack rate at which it first failed
RSSAC047's thresholds per server, defence and attack, what each defence
changed, the amplification and RRL's collateral damage. Pure: the run
stores what attack_judged returns as its summary; the report reads the
summary (section.py, through attack_summary_checked); tests/test_rules.py
checks these on the steps made by hand (testdata/steps.jsonl), and that
the report's fixture summary is what they write. No other file restates them.

Values are JSON as rootbench.rules.jqlib.loads reads it (every number a
double, as jq has it); rootbench.jqtext prints them as jq did.

A step (one line of steps.jsonl, schema rootbench.attack-step/1):
  {schema, server, defence ("off"|"on"), kind, rate (requested/s), seconds,
   flood: flood.json (rootbench.attack-flood/1: sent, achieved_rate,
          answers, answered_rate, amplification, servers.tcp, sink),
   probe: rbprobe's result (rootbench.probe/1) from the probe's block during
          the flood, or null (PROBE=off),
   collateral: rbprobe's result from the victims' /24 (UDP), or null,
   background: {sent, answered} (the trace from player2: the router's
          count of its queries, the Listener's of its answers), or null,
   server_cpu_pct: the servers' CPU busy share during the flood, or null}
A group (one testbed set-up: a server with its defences off or on):
  {server, defence, defences (status --json .server.defences), idle: rbprobe's idle result}
"""

import os
import re
import sys

if __name__ == "__main__":
    # (run as a command by scripts/attack/run: the package beside)
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rootbench.jqtext import to_text
from rootbench.rules.jqlib import (JqError, alt, div, eq, gt, is_number, jround, jfloor, ge, get, get_opt, jsort, loads,
                                   lt, minus, plus, sort_by, times, type_name)
from rootbench.rules.probe import probe_judged, probe_thresholds
from rootbench.rules.probe_stats import probe_raw_checked
from rootbench.rules.layers import cpu_busy_pct
from rootbench.rules.probe_sweep import probe_point, probe_protocol, probe_router_count, probe_sweep

ATTACK_SCHEMA = "rootbench.attack/1"
ATTACK_STEP_SCHEMA = "rootbench.attack-step/1"
ATTACK_KINDS = ["random-subdomain", "reflection-dnskey", "reflection-any", "syn-flood", "conn-hold"]


def attack_schema():
    """The schema of the attack experiment's summary."""
    return ATTACK_SCHEMA


def attack_protocol(kind):
    """The protocol the attack loads ("udp" or "tcp"); the legitimate
    client's figures that matter first are that protocol's."""
    return "tcp" if kind in ("syn-flood", "conn-hold") else "udp"


def attack_defence_name(kind):
    """The defence that "on" switches for an attack (the testbed's
    settings: docs/attack.md, "Defences per server")."""
    if attack_protocol(kind) == "udp":
        return "response rate limiting (SERVER_RRL)"
    if kind == "syn-flood":
        return "SYN cookies (SERVER_SYNCOOKIES)"
    return "a short TCP idle timeout (SERVER_TCP_TIMEOUT)"


def attack_step_checked(s):
    """A step of this schema with what the rules read, or an error naming
    what is wrong."""
    if type_name(s) != "object" or s.get("schema") != ATTACK_STEP_SCHEMA:
        raise JqError("an attack step of schema %s was expected; this one's schema is %s"
                      % (ATTACK_STEP_SCHEMA, to_text(alt(get_opt(s, "schema"), type_name(s)))))
    if not any(eq(s.get("kind"), k) for k in ATTACK_KINDS):
        raise JqError("attack step: unknown kind %s" % to_text(s.get("kind")))
    if s.get("defence") != "off" and s.get("defence") != "on":
        raise JqError("attack step: defence must be off or on, not %s" % to_text(s.get("defence")))
    f = s.get("flood")
    if type_name(f) != "object" or f.get("schema") != "rootbench.attack-flood/1":
        raise JqError("attack step %s/%s/%s/%s: no flood result of schema rootbench.attack-flood/1"
                      % tuple(to_text(s.get(k)) for k in ("server", "defence", "kind", "rate")))
    if not is_number(f.get("achieved_rate")):
        raise JqError("attack step %s/%s: the flood has no achieved_rate" % (to_text(s.get("kind")), to_text(s.get("rate"))))
    return s


def attack_frac(a, b):
    """a over b to 6 places; null unless b is above 0 and a a number."""
    if gt(alt(b, 0), 0) and is_number(a):
        return jround(times(div(a, b), 1e6)) / 1e6
    return None


def attack_offered(s):
    """The attack rate a step is judged at: what the router counted
    (achieved), not what was asked of the generator."""
    return jround(get(get(s, "flood"), "achieved_rate"))


def attack_collateral(c):
    """The legitimate client inside a victim's prefix: its UDP queries,
    full answers, answers slipped (TC set: RRL's slip), timeouts
    (dropped), and the share answered in full."""
    if c is None:
        return None
    u = get(probe_raw_checked(c), "udp")
    v = get(u, "answers_by_verdict")
    full = alt(get(v, "correct"), 0)
    return {"sent": get(u, "sent"), "answered_full": full, "slipped": alt(get(v, "truncated"), 0),
            "dropped": get(u, "timeouts"), "full_share": attack_frac(full, get(u, "sent"))}


def attack_step_figures(s):
    """One step's figures, as the summary and the report show them."""
    s = attack_step_checked(s)
    proto = attack_protocol(s["kind"])
    p = s.get("probe")
    p = None if p is None else probe_raw_checked(p)
    f = s["flood"]
    sink = get(f, "sink")
    bg = s.get("background")
    return {"server": s.get("server"), "defence": s["defence"], "kind": s["kind"], "protocol": proto,
            "requested_rate": s.get("rate"), "seconds": s.get("seconds"),
            "achieved_rate": f["achieved_rate"], "generator_limited": lt(f["achieved_rate"], times(0.9, s.get("rate"))),
            "answered_rate": alt(f.get("answered_rate"), None),
            "answered_share": attack_frac(f.get("answers"), f.get("sent")),
            "answer_bytes": alt(f.get("answer_bytes"), None),
            "amplification": alt(get(f.get("amplification"), "bytes"), None),
            "sink_packets": plus(alt(get(get(sink, "reflected_udp"), "packets"), 0), alt(get(get(sink, "reflected_tcp"), "packets"), 0)),
            "tcp": alt(get(get(f, "servers"), "tcp"), None),
            "server_cpu_pct": alt(s.get("server_cpu_pct"), None),
            "legit": None if p is None else {"udp": probe_protocol(get(p, "udp")), "tcp": probe_protocol(get(p, "tcp"))},
            "collateral": attack_collateral(s.get("collateral")),
            "background": None if bg is None else plus(bg, {"answered_share": attack_frac(get(bg, "answered"), get(bg, "sent"))})}


def _group_by(xs, key):
    """jq's group_by: sorted by key in jq's order, equal keys together."""
    out = []
    for x in sort_by(xs, key):
        if out and eq(key(out[-1][0]), key(x)):
            out[-1].append(x)
        else:
            out.append([x])
    return out


def attack_series(groups, steps):
    """One series per server, defence and attack: its steps' figures by
    rate and the legitimate client's probe block (rootbench.rules
    probe_sweep: a point per step, the attack's achieved rate as the
    offered load, the group's idle probe as idle), judged by RSSAC047's
    thresholds (rootbench.rules.probe): its rssac047.held_up_to is the
    highest attack rate at which the legitimate client kept every
    threshold, first_fail the lowest at which it did not."""
    checked = [attack_step_checked(s) for s in steps]
    out = []
    for g in _group_by(checked, lambda s: [s.get("server"), s.get("defence"), s.get("kind")]):
        f = g[0]
        grp = next((x for x in groups if eq(get(x, "server"), f.get("server")) and eq(get(x, "defence"), f.get("defence"))), None)
        if all(s.get("probe") is None for s in g):
            pb = None
        else:
            pb = probe_sweep(alt(get(grp, "idle"), None),
                             [probe_point(s.get("probe"), attack_offered(s), 1, get(s["flood"], "sent"), attack_protocol(s["kind"]))
                              for s in g],
                             None, probe_judged)
        out.append({"server": f.get("server"), "defence": f["defence"], "kind": f["kind"], "protocol": attack_protocol(f["kind"]),
                    "defence_name": attack_defence_name(f["kind"]) if f["defence"] == "on" else "none",
                    "steps": [attack_step_figures(s) for s in sort_by(g, lambda s: s.get("rate"))],
                    "probe": pb})
    return out


def attack_held_words(ser):
    """The legitimate client's verdict in words."""
    if get(ser, "probe") is None:
        return "the legitimate client was not probed (PROBE=off)"
    r = get(ser["probe"], "rssac047")
    ff = get(r, "first_fail")
    if get(r, "held_up_to") is None and ff is None:
        return get(r, "words")
    if get(r, "held_to_highest"):
        return "the legitimate client kept RSSAC047's thresholds up to the highest attack rate, %s/s" % to_text(get(r, "highest"))
    failed = ", ".join(get(ff, "failed"))
    if get(r, "held_up_to") is None:
        return "the legitimate client failed RSSAC047 already at the lowest attack rate, %s/s (%s)" % (to_text(get(ff, "offered")), failed)
    return ("the legitimate client kept RSSAC047's thresholds up to %s/s of attack and failed at %s/s (%s)"
            % (to_text(get(r, "held_up_to")), to_text(get(ff, "offered")), failed))


def _both(a, b, path):
    def at(x):
        for k in path:
            x = get(x, k)
        return alt(x, None)
    return {"off": at(a), "on": at(b)}


def attack_effect(off, on):
    """What switching the defence on changed for one server and attack, at
    the rates both measured: the attack's answers out (on over off: RRL
    should cut them), the amplification, the legitimate client's
    availability in the attack's protocol, the servers' SYN counters (SYN
    cookies), and where RSSAC047 stopped holding."""
    off_rates = [get(s, "requested_rate") for s in off["steps"]]
    on_rates = [get(s, "requested_rate") for s in on["steps"]]
    common = minus(off_rates, minus(off_rates, on_rates))
    x = off["protocol"]
    rates = []
    for r in common:
        a = next((s for s in off["steps"] if eq(s.get("requested_rate"), r)), None)
        b = next((s for s in on["steps"] if eq(s.get("requested_rate"), r)), None)
        row = {"rate": r,
               "answers_out": {"off": get(a, "answered_rate"), "on": get(b, "answered_rate"),
                               "on_over_off": attack_frac(get(b, "answered_rate"), get(a, "answered_rate"))},
               "bytes_out": {"off": get(a, "answer_bytes"), "on": get(b, "answer_bytes"),
                             "on_over_off": attack_frac(get(b, "answer_bytes"), get(a, "answer_bytes"))},
               "amplification": {"off": get(a, "amplification"), "on": get(b, "amplification")},
               "legit_availability": _both(a, b, ["legit", x, "availability"]),
               "collateral_full_share": _both(a, b, ["collateral", "full_share"]),
               "syn": ({"syn_queue_drops": _both(a, b, ["tcp", "req_q_full_drops"]),
                        "listen_drops": _both(a, b, ["tcp", "listen_drops"]),
                        "syncookies_sent": _both(a, b, ["tcp", "syncookies_sent"])}
                       if off["kind"] == "syn-flood" else None)}
        rates.append(row)
    e = {"server": off.get("server"), "kind": off["kind"], "defence_name": attack_defence_name(off["kind"]),
         "held_up_to": _both(off, on, ["probe", "rssac047", "held_up_to"]),
         "held_to_highest": _both(off, on, ["probe", "rssac047", "held_to_highest"]),
         "rates": rates}
    # recovered (SYN floods): at every rate where the client's TCP
    # availability fell under RSSAC047's 96 % with the defence off, it is at
    # least that with it on; null when the flood never pushed it under.
    m = probe_thresholds()["availability_min"]
    e["availability_min"] = m
    if off["kind"] != "syn-flood":
        e["recovered"] = None
    else:
        hurt = [row for row in rates if is_number(row["legit_availability"]["off"]) and lt(row["legit_availability"]["off"], m)]
        e["recovered"] = None if not hurt else all(
            is_number(row["legit_availability"]["on"]) and ge(row["legit_availability"]["on"], m) for row in hurt)
    return e


def attack_effects(series):
    """attack_effect for every server and attack measured with the defence off and on."""
    out = []
    for g in _group_by(series, lambda s: [s.get("server"), s.get("kind")]):
        off = next((s for s in g if s["defence"] == "off"), None)
        on = next((s for s in g if s["defence"] == "on"), None)
        if off is not None and on is not None:
            out.append(attack_effect(off, on))
    return out


def attack_amplification(series):
    """Per reflection attack and server, the bytes out per byte in at each
    rate, defence off and on (switch counters)."""
    out = []
    for s in series:
        if not s["kind"].startswith("reflection-"):
            continue
        amps = jsort([st.get("amplification") for st in s["steps"] if is_number(st.get("amplification"))])
        out.append({"server": s.get("server"), "defence": s["defence"], "kind": s["kind"],
                    "by_rate": [{"rate": st.get("requested_rate"), "achieved_rate": st.get("achieved_rate"),
                                 "amplification": st.get("amplification")} for st in s["steps"]],
                    "median": amps[int(jfloor(len(amps) / 2))] if amps else None})
    return out


def attack_judged(settings, groups, steps, status):
    """The summary."""
    series = attack_series(groups, steps)
    return {"schema": ATTACK_SCHEMA, "experiment": "attack", "status": status, "settings": settings,
            "groups": groups,
            "series": [plus(s, {"words": attack_held_words(s)}) for s in series],
            "effects": attack_effects(series),
            "amplification": attack_amplification(series),
            "steps_measured": float(len(steps))}


def attack_summary_checked(s):
    """s when it is an attack summary of ATTACK_SCHEMA; else an error that
    names the schema it has (or its type): the accessor the report and
    other experiments read it through (a ValueError: what the report
    stops a page with)."""
    if type_name(s) == "object" and s.get("schema") == ATTACK_SCHEMA:
        return s
    raise ValueError("an attack summary of schema %s (scripts/attack/rules.py) was expected; this one's schema is %s"
                  % (ATTACK_SCHEMA, to_text(alt(get_opt(s, "schema"), type_name(s)))))


def attack_plot_rows(series, kind):
    """The figure's data for one attack, a line each: a block per server and
    defence (two blank lines between blocks: gnuplot's index), each line
    the attack rate (achieved) and the legitimate client's availability in
    the attack's protocol, in percent; the block's title first as a comment."""
    out = []
    for ser in series:
        if ser["kind"] != kind:
            continue
        name = ("with " + re.sub(r" \(.*", "", ser["defence_name"], count=1)) if ser["defence"] == "on" else "no defence"
        out.append("# %s %s" % (to_text(ser.get("server")), name))
        for st in ser["steps"]:
            if st.get("legit") is None:
                continue
            a = get(get(st["legit"], ser["protocol"]), "availability")
            out.append("%s\t%s" % (to_text(jround(st["achieved_rate"])),
                                   to_text(jround(a * 1000) / 10) if is_number(a) else "NaN"))
        out += ["", ""]
    return out


def attack_step_line(s):
    """The line the run prints after a step (its figures in words)."""
    f = attack_step_figures(s)
    line = "attack: %s defences %s: %s %s/s: sent %s/s, answered %s/s" % (
        to_text(f["server"]), f["defence"], f["kind"], to_text(f["requested_rate"]), to_text(jround(f["achieved_rate"])),
        to_text(jround(alt(f["answered_rate"], 0))))
    if f["amplification"] is not None and f["amplification"] is not False:
        line += ", amplification %sx" % to_text(jround(times(f["amplification"], 10)) / 10)
    if f["legit"] is not None:
        lp = get(f["legit"], f["protocol"])
        line += ", legitimate %s availability %s, median %s ms" % (
            f["protocol"].upper(), to_text(alt(get(lp, "availability"), "n/a")), to_text(alt(get(lp, "p50_ms"), "n/a")))
    if f["background"] is not None:
        line += ", background answered %s" % to_text(alt(get(f["background"], "answered_share"), "n/a"))
    if f["generator_limited"]:
        line += " (GENERATOR-LIMITED)"
    return line


def attack_series_lines(summary):
    """The lines the run prints at its end: each series' verdict in words."""
    return ["attack: %s %s, defences %s: %s" % (to_text(s.get("server")), s["kind"], s["defence"], to_text(s.get("words")))
            for s in attack_summary_checked(summary)["series"]]


def attack_background(c0, c1):
    """The background's figures from two counter snapshots (`scripts/testbed
    counters`): its queries as the router counted them (the trace's source,
    the Listener's address: trace_udp_queries) and its answers at the Listener."""
    def d(path):
        return minus(alt(_path(c1, path), 0), alt(_path(c0, path), 0))
    return {"sent": d(["router", "trace_udp_queries", "packets"]), "answered": d(["listener", "dns_answers", "packets"])}


def _path(v, path):
    for k in path:
        v = get(v, k)
    return v


def attack_step_record(server, defence, kind, rate, seconds, settings_id, flood, probe, collateral, background, cpu_pct):
    """One line of steps.jsonl (schema rootbench.attack-step/1) of what a
    step measured: its flood's record, the probe's result (with its queries
    as the router counted them), the collateral client's, the background's
    figures (or null: none ran) and the servers' CPU busy share."""
    return {"schema": ATTACK_STEP_SCHEMA, "server": server, "defence": defence, "kind": kind, "rate": rate, "seconds": seconds,
            "settings_id": settings_id, "flood": flood, "probe": probe, "collateral": collateral, "background": background,
            "server_cpu_pct": cpu_pct}


def _read_json(path):
    """The first JSON value of a file, None when it is missing or empty."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError:
        return None
    return loads(text) if text.strip() else None


def attack_step_files(folder, server, defence, kind, rate, seconds, settings_id, c0, c1, sample, cpus, background_on, probe_on):
    """A step's record from the files it left in folder (flood/flood.json,
    probe.json, collateral.json) and the sampler's summary (sample, a
    file); probe.json gets the probe's queries as the router counted them
    (counted_at_router), kept compact as before."""
    flood = _read_json(os.path.join(folder, "flood", "flood.json"))
    if flood is None:
        raise ValueError("%s/flood/flood.json: no flood record" % folder)
    probe_path = os.path.join(folder, "probe.json")
    probe = _read_json(probe_path) if probe_on else None
    if probe is not None:
        probe = plus(probe, {"counted_at_router": probe_router_count(c0, c1)})
        with open(probe_path + ".tmp", "w") as f:
            f.write(to_json_text(probe) + "\n")
        os.replace(probe_path + ".tmp", probe_path)
    elif probe_on:
        probe = _read_json(probe_path)
    s = _read_json(sample) if sample else None
    cpu = None if s is None else alt(cpu_busy_pct(s, get(cpus, "server")), None)
    return attack_step_record(server, defence, kind, rate, seconds, settings_id, flood, probe,
                              _read_json(os.path.join(folder, "collateral.json")),
                              attack_background(c0, c1) if background_on else None, cpu)


def to_json_text(v):
    from rootbench.jqtext import to_json
    return to_json(v)


def _jsonl(path):
    """The JSON values of a file, one a line (none when it is missing)."""
    try:
        with open(path) as f:
            return [loads(l) for l in f if l.strip()]
    except FileNotFoundError:
        return []


def attack_figures_data(summary, folder):
    """Per attack of the summary, its figure's data written to
    folder/attack-<kind>.dat; (kind, blocks, protocol) of those with a
    point to draw (a file without one removed)."""
    out = []
    for kind in sorted({s["kind"] for s in attack_summary_checked(summary)["series"]}):
        rows = attack_plot_rows(summary["series"], kind)
        path = os.path.join(folder, "attack-%s.dat" % kind)
        if not any(r and not r.startswith("#") for r in rows):
            if os.path.exists(path):
                os.remove(path)
            continue
        with open(path, "w") as f:
            f.write("".join(r + "\n" for r in rows))
        out.append((kind, sum(1 for r in rows if r.startswith("# ")), attack_protocol(kind).upper()))
    return out


USAGE = """usage: rules.py summary STATUS ERROR SETTINGS SETTINGS_ID HOST_SPEED FINISHED GROUPS STEPS
       rules.py step DIR SERVER DEFENCE KIND RATE SECONDS SETTINGS_ID COUNTERS_BEFORE COUNTERS_AFTER SAMPLE CPUS BACKGROUND PROBE
       rules.py step-line < STEP
       rules.py figures SUMMARY FOLDER
       rules.py series-lines SUMMARY"""


def main(argv):
    """The run's uses of the rules, one process each: the summary (compact
    JSON on stdout) of the groups and the steps measured with SETTINGS_ID,
    a step's line, the figures' data, the closing lines."""
    from rootbench.jqtext import to_json
    try:
        if argv[:1] == ["summary"] and len(argv) == 9:
            status, err, settings, sid, host_speed, finished, groups, steps = argv[1:]
            steps = [s for s in _jsonl(steps) if get(s, "settings_id") == sid]
            out = plus(attack_judged(loads(settings), _jsonl(groups), steps, status),
                       {"finished": finished, "family": 4, "error": err or None, "host_speed": loads(host_speed)})
            print(to_json(out))
        elif argv[:1] == ["step"] and len(argv) == 14:
            d, server, defence, kind, rate, secs, sid, c0, c1, sample, cpus, bg, probe = argv[1:]
            step = attack_step_files(d, server, defence, kind, loads(rate), loads(secs), sid, loads(c0), loads(c1),
                                     sample if sample and os.path.isfile(sample) and os.path.getsize(sample) > 0 else None,
                                     loads(cpus), bg == "1", probe == "on")
            print(to_json(step))
            # (the step's line, as the run prints it)
            print(attack_step_line(step), file=sys.stderr)
        elif argv == ["step-line"]:
            print(attack_step_line(loads(sys.stdin.read())))
        elif argv[:1] == ["figures"] and len(argv) == 3:
            with open(argv[1]) as f:
                for k, n, proto in attack_figures_data(loads(f.read()), argv[2]):
                    print("%s %d %s" % (k, n, proto))
        elif argv[:1] == ["series-lines"] and len(argv) == 2:
            with open(argv[1]) as f:
                print("\n".join(attack_series_lines(loads(f.read()))))
        else:
            print(USAGE, file=sys.stderr)
            return 2
    except (JqError, ValueError, OSError) as e:
        print("attack rules: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
