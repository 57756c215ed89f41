"""report.html from the bundle (every summary.json, table, figure list and
the paper's values of a run).

Rule of this file: no number is typed here. Every value shown comes from
the bundle, and every value from a results file is wrapped in
  <span data-src="FILE:JQPATH">text</span>            (FILE relative to the run)
  <span data-src="FILE#ROW,COL">text</span>           (a cell of a CSV table)
optionally with data-round="N" (text = value rounded to N decimals) and
data-scale="S" (text = value * S). Derived values (ours against the
paper's) carry data-calc="ratio|diff" data-a=SRC data-b=SRC. The checker
analysis/report-check recomputes each of them from the files. Each
experiment's section, Findings, rows and headline come from its folder's
section.py (rootbench.report.sections)."""

from rootbench.jqtext import to_text, truthy
from rootbench.report.findings import findings_section
from rootbench.report.lib import (at, cells_row, css_for, data_page, esc, fam_head, fam_pair, figure, figures, fixture_banner,
                                  getpath, head_row, in_order, kv_row, nm, num, paper_note, status_badge, status_text, val)
from rootbench.report.probe import latency_table


def _keys(x):
    """jq's keys: sorted by their bytes."""
    return sorted(x, key=lambda k: k.encode())


def testbed_src(b):
    """Where the run's description of its testbed lies: its testbed.json,
    or (a run without one) the copy the first experiment summary holds
    under .testbed; {doc, file, path} or None."""
    if b.get("testbed") is not None:
        return {"doc": b["testbed"], "file": "testbed.json", "path": []}
    for e in b["exps"].values():
        if isinstance(at(e, ["summary", "testbed"]), dict):
            return {"doc": e["summary"], "file": e["file"], "path": ["testbed"]}
    return None


def tv(src, p, round_=None, scale=None):
    return val(src["doc"], src["file"], src["path"] + p, round_, scale)


def lab_section(src):
    """A lab run's testbed (BACKEND=lab, docs/real-lab.md): the inventory,
    the ranges it declares as the lab's own, the router and the switch as
    it describes them, and the hosts as their facts say."""
    t = at(src["doc"], src["path"])
    ar = at(t, ["allow_ranges"])
    hosts = at(t, ["hosts"])
    out = ("<h3>The lab</h3>"
           + "<p>Each role ran on a host of its own, reached over SSH (one multiplexed connection per host; the cost of one call over it, measured when the testbed "
           + "came up, is a column below); the router and the switch are the lab's devices, described by its inventory and not configured by rootbench. The "
           + "hosts' facts were gathered from the hosts when the testbed came up, with each one's clock against the driving machine's "
           + "(up refuses a host too far off: its players start at one time of their own clocks).</p>"
           + '<table class="kv">'
           + kv_row("inventory", tv(src, ["inventory"]))
           + kv_row("ranges the lab declares as its own",
                    ", ".join(tv(src, ["allow_ranges", i]) for i in range(len(ar))) if isinstance(ar, list) and len(ar) > 0
                    else tv(src, ["allow_ranges"]))
           + kv_row("router",
                    "%s; balances %s; " % (tv(src, ["router", "model"]), tv(src, ["router", "lb"]))
                    + "client leg %s %s (MAC %s), " % (tv(src, ["router", "addr4_client"]), tv(src, ["router", "addr6_client"]), tv(src, ["router", "mac_client"]))
                    + "server leg %s %s; " % (tv(src, ["router", "addr4_server"]), tv(src, ["router", "addr6_server"]))
                    + ("SNMP agent %s: its ports sampled" % tv(src, ["router", "snmp_host"]) if at(t, ["router", "snmp_host"]) not in (None, False)
                       else "no SNMP agent: not sampled"))
           + kv_row("switch",
                    "%s; SNMP agent %s, " % (tv(src, ["switch", "model"]), tv(src, ["switch", "snmp_host"]))
                    + "the router's port ifIndex %s: its ports sampled" % tv(src, ["switch", "router_port_ifindex"]))
           + "</table>"
           + '<table class="csv"><caption>hosts</caption>'
           + head_row(["role", "hostname", "kernel", "CPUs", "CPU model", "NIC driver", "NIC speed, Mbit/s", "MAC", "daemon version",
                       "SSH call overhead, median µs", "clock offset, ms", "its uncertainty, ± ms"]))
    if isinstance(hosts, list) and len(hosts) > 0:
        cols = [["hostname"], ["kernel"], ["cpus"], ["cpu_model"], ["nic", "driver"], ["nic", "speed_mbit"], ["nic", "mac"],
                ["daemon_version"], ["ssh_call_us", "median"], ["clock", "offset_ms"], ["clock", "uncertainty_ms"]]
        for i in range(len(hosts)):
            h = ["hosts", i]
            out += "<tr><th>%s</th>" % tv(src, h + ["role"]) + "".join("<td>%s</td>" % tv(src, h + c) for c in cols) + "</tr>"
    else:
        out += '<tr><td colspan="12">%s</td></tr>' % tv(src, ["hosts"])
    return out + "</table>"


def _first_key(x):
    if x is None or x is False:
        x = {}
    ks = _keys(x)
    return ks[0] if ks else None


def host_speed_line(e):
    """Under a headline (and in the bench's "This run"), the host's speed
    on the servers' CPU at the experiment's start and end; e: {summary,
    file}, an experiment of the bundle or the bench's own record."""
    s = at(e, ["summary"])
    h = at(s, ["host_speed"])
    h = h if truthy(h) else {}
    c = _first_key(at(h, ["start", "server"]))
    if c is None:
        return ""
    return ('<p class="hs"><small>host speed, server CPU: %s' % val(s, e["file"], ["host_speed", "start", "server", c, "ns_per_iter_median"], 2, None)
            + " &rarr; %s ns per loop " % val(s, e["file"], ["host_speed", "end", "server", c, "ns_per_iter_median"], 2, None)
            + '(<a href="#testbed">lower is faster</a>)</small></p>')


def host_speed_table(b):
    """How fast this host was on the servers' CPU and on the rig's at the
    start and the end of the bench and of each experiment, and the steal
    time the hypervisor took from those CPUs while it was timed."""
    rows = [{"name": "the bench (all its steps)", "e": {"summary": b.get("bench"), "file": "bench.json"}}] \
        + [{"name": k, "e": v} for k, v in b["exps"].items()]
    rows = [r for r in rows if isinstance(at(r["e"], ["summary", "host_speed", "start"]), dict)]
    if not rows:
        return ""
    out = ('<table class="cmp"><caption>Host speed: ns per iteration of a fixed loop (lower is faster), '
           + "at each experiment's start and end; steal while it was timed</caption>"
           + head_row(["experiment", "server CPU, start", "server CPU, end", "rig CPU, start", "rig CPU, end",
                       "steal on the server CPU, ms (start, end)"]))
    for r in rows:
        e = r["e"]
        h = e["summary"]["host_speed"]

        def one(when, side, k):
            c = _first_key(at(h, [when, side]))
            return nm() if c is None else val(e["summary"], e["file"], ["host_speed", when, side, c, k], 2, None)
        out += ("<tr><th>%s</th><td>%s</td>" % (esc(r["name"]), one("start", "server", "ns_per_iter_median"))
                + "<td>%s</td><td>%s</td>" % (one("end", "server", "ns_per_iter_median"), one("start", "rig", "ns_per_iter_median"))
                + "<td>%s</td>" % one("end", "rig", "ns_per_iter_median")
                + "<td>%s, %s</td></tr>" % (one("start", "server", "steal_ms"), one("end", "server", "steal_ms")))
    return out + "</table>"


def testbed_section(b):
    t = b.get("testbed")
    src = testbed_src(b)
    lab = src is not None and at(src["doc"], src["path"] + ["backend"]) == "lab"
    P = b.get("paper")

    def pv(*p):
        return val(P, "paper.json", list(p))

    def tb(*p):
        return val(t, "testbed.json", list(p))
    out = '<section id="testbed"><h2>Testbed</h2>'
    if lab:
        out += ("<p>What the numbers below were measured on. The paper used a separate machine per role, a hardware router and a switch with links of "
                + "%s bit/s (paper %s); this run did the same on a " % (pv("setup", "link_bps"), pv("setup", "section"))
                + "lab of separate hosts, a router and a switch (BACKEND=lab; the lab, its hosts and devices below), so the roles did not share CPUs and the links "
                + "are the lab's wires, not shaped by rootbench. Read the methodology (docs/methodology.md) and the lab's guide (docs/real-lab.md) before comparing "
                + "absolute numbers.</p>")
    else:
        out += ("<p>What the numbers below were measured on. The paper used a separate machine per role, a hardware router and a switch with links of "
                + "%s bit/s (paper %s); this suite builds the same " % (pv("setup", "link_bps"), pv("setup", "section"))
                + "roles out of Linux network namespaces on one host, so all roles share this host's CPUs (see the pinning) and the links are virtual Ethernet pairs, "
                + "unshaped unless link shaping is set. Read the methodology (docs/methodology.md) before comparing absolute numbers.</p>")
    if t is None:
        out += ('<p class="err">No <code>testbed.json</code> in this results directory: the testbed configuration was not recorded'
                + (" (what follows is the copy " + esc(src["file"]) + " holds)" if src is not None else "") + ".</p>")
    else:
        out += ('<table class="kv">'
                + kv_row("testbed", "a lab: separate hosts, a router and a switch (see the lab below)" if lab else "namespaces on one machine", "")
                + kv_row("kernel" + (" (server1)" if lab else ""), tb("kernel"), "")
                + kv_row("CPUs of the " + ("server host (server1)" if lab else "host"), tb("cpus"), paper_note(pv("setup", "cpu")))
                + kv_row("CPU pinning",
                         "the servers on CPU %s of their hosts; " % tb("pinning", "servers")
                         + "the players and the listener on CPU %s of theirs (inventory: rb_cpus)" % tb("pinning", "clients") if lab
                         else "servers on CPU %s; players, listener, router, switch on CPU %s" % (tb("pinning", "servers"), tb("pinning", "clients")), "")
                + kv_row("Server",
                         "%s %s, workers %s, TCP clients %s, " % (tb("server", "name"), tb("server", "version"), tb("server", "workers"), tb("server", "tcp_clients"))
                         + "TCP timeout %s&nbsp;s, listen backlog %s" % (tb("server", "tcp_timeout_s"), tb("server", "listen_backlog")),
                         paper_note("NSD " + pv("setup", "nsd_version")))
                + kv_row("load balancing", tb("lb") + (" — " + tb("lb_note") if truthy(at(t, ["lb_note"])) else ""),
                         paper_note("hardware routers hashing on the source address"))
                + kv_row("link shaping", ("none (the lab's wires)" if lab else "none (unshaped veth)") if at(t, ["link"]) is None else tb("link"),
                         paper_note("%s bit/s Ethernet" % pv("setup", "link_bps")))
                + kv_row("service address", "%s %s" % (tb("service", "ipv4"), tb("service", "ipv6")), "")
                + kv_row("zones", "%s (%s)" % (tb("zones", "variant") if truthy(at(t, ["zones", "variant"])) else "default", tb("zones", "dir")), "")
                + "</table>")
        zones = b.get("zones") or {}
        if len(zones) > 0:
            out += ('<table class="cmp"><caption>Zone variants served in this run</caption>'
                    + head_row(["variant", "root serial", "records", "delegations", "keys", "denial"]))
            for v, m in zones.items():
                f = "zones/%s.json" % v
                out += ('<tr><th><code class="meta">%s</code></th><td>%s</td>' % (esc(v), val(m, f, ["zones", "root", "serial"]))
                        + "<td>%s</td><td>%s</td>" % (val(m, f, ["zones", "root", "records"]), val(m, f, ["zones", "root", "delegations"])))
                keys = at(m, ["zones", "root", "dnskeys"])
                if isinstance(keys, list) and len(keys) > 0:
                    out += ("<td>" + "<br>".join(
                        "%s %s (algorithm " % (val(m, f, ["zones", "root", "dnskeys", i, "role"]), val(m, f, ["algorithm", "name"]))
                        + "%s) %s bits" % (val(m, f, ["zones", "root", "dnskeys", i, "algorithm"]), val(m, f, ["zones", "root", "dnskeys", i, "bits"]))
                        for i in range(len(keys)))
                        + "</td><td>%s</td>" % val(m, f, ["denial"]))
                else:
                    out += "<td>%s</td><td></td>" % ("unsigned" if at(m, ["signed"]) is False else nm())
                out += "</tr>"
            out += "</table>"
        out += ("<p><small>paper: KSK %s %s bits, ZSK " % (pv("setup", "ksk", "algorithm"), pv("setup", "ksk", "bits"))
                + "%s %s bits, " % (pv("setup", "zsk", "algorithm"), pv("setup", "zsk", "bits"))
                + "%s.</small></p>" % pv("setup", "denial")
                + '<p class="more">Every value of the testbed and of each zone variant: <a href="%s#testbed">the data page</a>, or <a ' % data_page()
                + 'href="testbed.json"><code>testbed.json</code></a>.</p>')
    # (also without testbed.json: a comparison's run holds its servers' own)
    out += host_speed_table(b)
    if lab:
        out += lab_section(src)
    return out + "</section>"


def bench_section(b):
    bench = b.get("bench")
    if bench is None:
        return ""

    def bv(p):
        return val(bench, "bench.json", p)
    out = ('<section id="bench"><h2>This run</h2><table class="kv">'
           + "".join(kv_row(p[0], bv(p)) for p in [["scale"], ["started"], ["finished"], ["status"]]) + "</table>"
           + host_speed_line({"summary": bench, "file": "bench.json"})
           + '<details><summary>Each step of the bench</summary><table class="csv">' + head_row(["step", "make target", "status", "seconds", "message"]))
    steps = at(bench, ["steps"])
    for i, st in enumerate(steps if truthy(steps) else []):
        out += cells_row([bv(["steps", i, "name"]), bv(["steps", i, "target"]), bv(["steps", i, "status"]), bv(["steps", i, "seconds"]),
                          bv(["steps", i, "error"]) if truthy(at(st, ["error"])) else ""])
    return out + "</table></details></section>"


def family_section(b, S):
    """Every experiment run over IPv6 (<name>-v6/) beside its IPv4 run
    (<name>/), figure by figure; nothing when none ran over IPv6."""
    ran = [r for r in b["registry"] if truthy(r.get("v6")) and truthy(at(b["exps"].get(r["name"] + "-v6"), ["dir_exists"]))]
    if not ran:
        return ""
    out = ('<section id="family"><h2>IPv4 and IPv6 side by side</h2>'
           + "<p><b>What is compared.</b> Each experiment below ran once over IPv4 (to the service address %s, " % val(b.get("testbed"), "testbed.json", ["service", "ipv4"])
           + "results in <code>&lt;experiment&gt;/</code>) and once over IPv6 (to %s through the router's IPv6 " % val(b.get("testbed"), "testbed.json", ["service", "ipv6"])
           + "ECMP, answers to the Listener's IPv6 address, results in <code>&lt;experiment&gt;-v6/</code>), with the same settings and, where it replays "
           + "queries, the same DNS queries. An IPv6 header without extensions is twice as long as an IPv4 header without options, so every query and answer is "
           + "longer on the wire by the difference; what else IPv6 changes for an experiment follows its table.</p>")
    for r in ran:
        e4, e6 = fam_pair(b, r)
        out += ("<h3>%s %s %s</h3>" % (esc(r["title"]), status_badge(e4), status_badge(e6))
                + status_text(e6, "the IPv6 run")
                + fam_head() + S.call("family_rows", b, r) + "</table>"
                + S.call("family_note", b, r)
                + "<details><summary>Figures of the IPv6 run of %s</summary>" % esc(r["title"]) + figures(e6) + "</details>")
    return out + "</section>"


def per_cpu_section(b, S):
    """"Capacity per CPU of this host", when any experiment ran its servers
    under a CPU budget (SERVER_CPU): each experiment's figure per CPU, or
    why it has none. Shown only then."""
    rows = [r for e in b["registry"] for r in S.call("per_cpu_rows", b, e)]
    rows = [r for r in rows if num(getpath(r["s"], r["path"] + [r.get("budget_key") or "budget"]))]
    # the sections placed here (registry: place "per-cpu", the method's
    # validation): shown with the rows, and on their own when they ran
    here = [e for e in b["registry"] if e.get("place") == "per-cpu"]
    if not rows and not [e for e in here if at(b["exps"].get(e["name"]), ["summary"]) is not None]:
        return ""
    out = ('<section id="per-cpu"><h2>Capacity per CPU of this host</h2>'
           + "<p><b>Method.</b> On this machine the rig (generator, router, switch) runs out before a whole-CPU server, so the servers ran under a CPU budget "
           + "(SERVER_CPU: each daemon may use that share of a CPU) that makes them the bottleneck; the figure per CPU is the rate the server handled over the "
           + "server CPU's busy share while the load ran (the daemon and, with its receive path steered to its CPU, its kernel work), only where the server's "
           + "CPU was what ran out and the generator kept its schedule. It is a projection to a whole CPU, not a measurement of one, and it depends on the "
           + "budget (docs/tcp.md, docs/methodology.md: the method's validation across budgets).</p>"
           + "".join(S.call("section", b, e) for e in here))
    if rows:
        out += '<table class="cmp">' + head_row(["experiment", "server CPU budget", "per CPU (projection)", "unit", "or why none"])
        for r in rows:
            out += ("<tr><th>%s</th><td>%s</td>" % (esc(r["name"]), val(r["s"], r["f"], r["path"] + [r.get("budget_key") or "budget"]))
                    + "<td>%s</td><td>%s</td>" % (val(r["s"], r["f"], r["path"] + [r["fig"]], 0, None), to_text(r["unit"]))
                    + "<td>%s</td></tr>" % ("" if num(getpath(r["s"], r["path"] + [r["fig"]]))
                                           else val(r["s"], r["f"], r["path"] + [r.get("rule_key") or "rule"])))
        out += "</table>"
    return out + "</section>"


def headlines(b, S):
    """One figure per experiment for the first screen, as the registry
    names it (headline: a figure's file name, or "verdict" for a verdict
    card; the experiment's first figure when that one is absent), each
    linked to its section."""
    out = []
    for r in b["registry"]:
        if r.get("headline") is None:
            continue
        e = b["exps"].get(r["name"])
        if e is None or e.get("summary") is None:
            continue
        head = '<div class="headline"><a class="to" href="#%s">%s &rarr;</a>' % (to_text(r["name"]), esc(r["short"]))
        if r["headline"] == "verdict":
            h = S.call("headline", b, r)
            if h != "":
                out.append(head + h + host_speed_line(e) + "</div>")
        else:
            figs = e.get("figures") or []
            fig = next((x for x in figs if x["png"].endswith("/" + r["headline"])), None) or (figs[0] if figs else None)
            if fig is not None:
                out.append(head + figure(fig) + host_speed_line(e) + "</div>")
    return out


def page(b, css, S):
    exps = b["exps"]
    out = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>rootbench '
           + "report</title><style>" + css_for(css, "report") + "</style></head><body>\n"
           + "<h1>rootbench report</h1>\n"
           + fixture_banner(b)
           + '<p class="intro">Results <code class="meta">%s</code>, generated <span class="meta">%s</span>. The reference ' % (esc(b["run"]), esc(b["generated"]))
           + "study: %s. Every number is read from the results directory (hover: its file and path); every value and table " % val(b.get("paper"), "paper.json", ["citation"])
           + 'is on <a href="%s">the data page</a>.</p>\n' % data_page())
    # A comparison (registry: comparison, make compare-servers) holds the
    # experiments in each server's own directories: its page shows the
    # comparison, the testbed and the experiments this directory itself
    # holds, not a "did not run" section for each of the others.
    cmp = any(truthy(at(exps.get(r["name"]), ["dir_exists"])) for r in b["registry"] if truthy(r.get("comparison")))

    def shown(k):
        return not cmp or truthy(at(exps.get(k), ["dir_exists"]))
    experiments = [[r["name"], r["short"]] for r in b["registry"] if truthy(r.get("bench"))]
    if not cmp:
        out += ("<p>Experiments: " + " · ".join('<a href="#%s">%s</a> %s' % (to_text(n), to_text(s), status_badge(exps.get(n)))
                                                for n, s in experiments) + "</p>\n")
    heads = headlines(b, S)
    fs = findings_section(b, [] if cmp else experiments, lambda e: S.call("findings", b, e))
    if not heads:
        out += fs
    else:
        out += '<div class="first"><div>' + fs + "</div>" + '<div class="headlines">' + "".join(heads) + "</div></div>"
    out += ("\n" + bench_section(b) + "\n"
            + "".join(S.call("section", b, r) for r in b["registry"] if truthy(r.get("comparison"))) + "\n"
            + per_cpu_section(b, S) + "\n"
            # every sweep's latency under load, as RSSAC047 judges it
            + latency_table([x for r in b["registry"] if not truthy(r.get("comparison")) and shown(r["name"])
                             for x in S.call("latency_rows", b, r)]) + "\n"
            + testbed_section(b) + "\n"
            + "".join(S.call("section", b, r) + "\n"
                      for r in in_order(b["registry"], at(b, ["order", "sections"]) or [])
                      if not truthy(r.get("comparison")) and r.get("place") is None and shown(r["name"]))
            + family_section(b, S) + "\n"
            + "</body></html>")
    return out
