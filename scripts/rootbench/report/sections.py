"""Each experiment's part of the report, from its folder's section.py
(the registry's folder, scripts/lib/experiments.json), loaded by path: a
folder's name may hold dashes. The section interface (docs/development.md):
every function takes the bundle b and the experiment's registry entry e.
  section      its section of the report (HTML), "" when it has none;
               placed by the registry (comparison: first; place
               "per-cpu": in the capacity per CPU, before its rows)
  findings     its Findings (a list, maybe empty): each lib.finding(short,
               more), one short sentence and the sentences behind it
  family_rows  its rows of the IPv4 / IPv6 table (HTML)
  family_note  what follows that table (HTML, maybe "")
  per_cpu_rows its rows of "Capacity per CPU of this host" (a list of
               {name, s, f, path, fig, unit, budget_key?, rule_key?})
  headline     its first-screen card when the registry's headline is
               "verdict" (HTML, maybe "")
  latency_rows its rows of "Latency and availability (RSSAC047)": one per
               sweep (probe.latency_row), a sweep without a probe shown as
               such; [] for an experiment that is no sweep
section and findings are required; a section.py that does not define one
of the others has nothing there (SECTION_DEFAULTS: "" or []), so a
section writes only what it shows.
"""

import importlib.util
import os
import re

SECTION_INTERFACE = ["section", "findings", "family_rows", "family_note", "per_cpu_rows", "headline", "latency_rows"]
SECTION_REQUIRED = ["section", "findings"]
SECTION_DEFAULTS = {"family_rows": "", "family_note": "", "per_cpu_rows": [], "headline": "", "latency_rows": []}
_FOLDER_RE = re.compile(r"[A-Za-z0-9_./-]+")


class Sections:
    """The section modules of the registry's folders, loaded once."""

    def __init__(self, top, registry):
        self.top = top
        self.mods = {}
        bad = [e["folder"] for e in registry if not _FOLDER_RE.fullmatch(e.get("folder") or "")]
        if bad:
            raise ValueError("scripts/lib/experiments.json: a folder holds characters a section cannot be found by: %s" % bad)
        for e in registry:
            d = e["folder"]
            if d in self.mods:
                continue
            path = os.path.join(top, d, "section.py")
            if not os.path.isfile(path):
                raise ValueError("no section.py in the folder %s of the experiment %s (scripts/lib/experiments.json)" % (d, e["name"]))
            spec = importlib.util.spec_from_file_location("rootbench_section_" + re.sub(r"\W", "_", d), path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            missing = [fn for fn in SECTION_REQUIRED if not callable(getattr(mod, fn, None))]
            if missing:
                raise ValueError("%s/section.py lacks %s of the section interface" % (d, ", ".join(missing)))
            self.mods[d] = mod

    def call(self, fn, b, e):
        return section_call(self.mods[e["folder"]], fn, b, e)


def section_call(mod, fn, b, e):
    """The interface function fn of the section module mod on (b, e); its
    default (SECTION_DEFAULTS, a fresh copy) when mod does not define it."""
    f = getattr(mod, fn, None)
    if f is None and fn in SECTION_DEFAULTS:
        return type(SECTION_DEFAULTS[fn])()
    if not callable(f):
        raise AttributeError("%s of the section interface is not defined" % fn)
    return f(b, e)
