#!/usr/bin/python3
"""experiment: the driver every Python experiment runs under
(docs/development.md, "The Python driver").

  /usr/bin/python3 -I -S scripts/rootbench/experiment.py FOLDER [ARGS...]

(each folder's `run` is a shim that calls it so). The driver reads
FOLDER/settings.json by the rules of rootbench.settings (--help, checks,
old names, SCALE), finds the experiment in scripts/lib/experiments.json
(by its folder), loads FOLDER/experiment.py, opens a Run on
<run>/<NAME><family suffix> and calls the module's run(ctx).

The module declares:
  SCHEMA = "rootbench.NAME/1"   its summary's schema (required)
  NAME = "..."                  results folder and messages (default: the
                                registry entry's command or name)
  PROG = "..."                  the messages' name when it is not NAME's
                                (lb-verify writes <run>/lb)
  FAMILY = True                 it measures per address family: FAMILY=4|6|both
                                read (both: run once per family)
  ON_SIGNAL = "flag"            stop at its points (ctx.check()) rather than
                                at once ("raise", the default)
  def run(ctx): ...             the measurement (required)
  def summary(ctx, status, error): -> dict   its summary (default: the
                                status and error alone)
  VARIANTS = ["..."]            registry variants whose own defaults the
                                settings take (the first that has one)
  def parse_args(ctx, args): -> value   its command-line arguments, as
                                ctx.options (without it, any argument is refused)
  BAD_SETTINGS_SUMMARY = True   a run (no argument) refused for its settings
                                writes the failed status summary saying why
The module's docstring is its --help text, the settings' lines after it.
"""

import importlib.util
import os
import sys

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rootbench import settings as settings_rules  # noqa: E402
from rootbench.lifecycle import (Interrupted, Run, RunError, experiment_dir, project_top,  # noqa: E402
                                 status_summary, write_json)
from rootbench.testbed import Family, Testbed, family_both, family_parse, read_registry  # noqa: E402


class Context:
    """What run(ctx) is given.

    name      the experiment's name (NAME)     top     the project's top
    prog      the name its messages start with (PROG, default NAME)
    folder    the experiment's folder          args    the command-line arguments
    settings  {NAME: value string} of its table, resolved (one name per knob)
    given     the table's names the user set (NAME=VALUE strings)
    scale     SCALE, canonical                 family  a Family, or None
    dir       its results folder (<run>/NAME[-v6])
    run       the Run (run.work: scratch; run.spawn, run.at_end)
    testbed   the Testbed client (released at the end when it brought it up)
    registry  the registry's entries of this folder
    options   what the module's parse_args returned (None without one)
    table     the settings table, parsed"""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def log(self, msg):
        """PROG: MSG on stderr (log of common.sh)."""
        print("%s: %s" % (self.prog, msg), file=sys.stderr, flush=True)

    def warn(self, msg):
        print("%s: warning: %s" % (self.prog, msg), file=sys.stderr, flush=True)

    def die(self, msg):
        """Stop the run, failed, with MSG in its summary (die of common.sh)."""
        raise RunError(msg)

    def check(self):
        """Interrupted when SIGINT/SIGTERM came (call it at each point)."""
        self.run.check()

    @property
    def interrupted(self):
        return self.run.interrupted

    def int(self, name):
        """A setting as an integer (its table checked it already)."""
        return int(self.settings[name])

    def number(self, name):
        return float(self.settings[name])

    def flag(self, name):
        """A bool setting (1 or 0)."""
        return self.settings[name] == "1"

    def words(self, name):
        """A list setting's words."""
        return [w for w in settings_rules.LIST_SPLIT.split(self.settings[name]) if w]

    def settings_summary(self):
        """summary.settings: the fields the table records, typed."""
        return settings_rules.summary_fields(self.table, self.settings)


def load_path(path):
    """The Python file at path as a module, loaded once by path (folders
    may have dashes, and every folder has its own rules.py: each is kept
    under a name of its own, rootbench_exp_<its path from the top>)."""
    path = os.path.realpath(path)
    top = os.path.realpath(project_top())
    rel = os.path.relpath(path, top)
    key = "rootbench_exp_" + "".join(c if c.isalnum() else "_" for c in rel[:-3])
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[key] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[key]
        raise
    return mod


def sibling(anchor, name):
    """The module NAME.py beside the file anchor (pass __file__):
    rules = sibling(__file__, "rules") in an experiment.py,
    sibling(__file__, "../rules") in its tests/test_*.py."""
    return load_path(os.path.join(os.path.dirname(os.path.abspath(anchor)), name + ".py"))


def load_module(folder):
    """FOLDER/experiment.py as a module (load_path), its SCHEMA and run checked."""
    path = os.path.join(folder, "experiment.py")
    if not os.path.isfile(path):
        raise RunError("%s has no experiment.py" % folder)
    mod = load_path(path)
    for need in ("SCHEMA", "run"):
        if not hasattr(mod, need):
            raise RunError("%s declares no %s" % (path, need))
    return mod


def registry_entries(registry, top, folder):
    rel = os.path.relpath(folder, top)
    return [e for e in registry["experiments"] if e.get("folder") == rel]


def help_text(mod, table_path, top):
    """The module's docstring, then the settings' --help lines."""
    text = (mod.__doc__ or "").strip("\n")
    if os.path.isfile(table_path):
        t = settings_rules.read_table(table_path)
        t["file"] = os.path.relpath(table_path, top)
        text += "\n\n" + "\n".join(settings_rules.help_lines(t))
    return text


def resolve(table_path, env, registry_file, variants):
    """(settings, given, scale) of the table from env; RunError at the first
    value that does not fit (settings_load); warnings printed."""
    t = settings_rules.read_table(table_path)
    registry = settings_rules.read_table(registry_file)
    try:
        scale = settings_rules.canonical_scale(registry, env.get("SCALE", ""))
    except settings_rules.SettingsError as e:
        raise RunError(str(e)) from e
    env["SCALE"] = scale
    given = dict(env)
    values, warnings, errors = settings_rules.resolve_values(t, given, scale, variants)
    for w in warnings:
        settings_warn(w)
    if errors:
        raise RunError(errors[0])
    names = settings_rules.table_names(t)
    given_list = ["%s=%s" % (n, given[n]) for n in names if given.get(n)]
    return t, values, given_list, scale


def settings_warn(msg):
    print("%s: warning: %s" % (os.environ.get("RB_PROG", "experiment"), msg), file=sys.stderr, flush=True)


def settings_refused(mod, name, error):
    """A run refused for its settings leaves the failed status summary
    saying why (BAD_SETTINGS_SUMMARY: under a shared run, make bench,
    the experiment's place then says failed, never a stale ok)."""
    fam = os.environ.get("FAMILY", "")
    suffix = "-v6" if fam in ("6", "ipv6", "v6") else ""
    d = experiment_dir(name + suffix, os.environ)
    write_json(os.path.join(d, "summary.json"), status_summary(d, mod.SCHEMA, "failed", error))


def run_family(mod, ctx_base, family, env):
    """One run of the module in one family (None: no family); its exit status."""
    name = ctx_base["name"]
    fam = Family(family) if family else None
    d = experiment_dir(name + (fam.suffix if fam else ""), env, ctx_base["top"])
    testbed = Testbed(ctx_base["top"], prog=ctx_base["prog"])
    ctx = Context(family=fam, dir=d, testbed=testbed, **ctx_base)
    summary = None
    if hasattr(mod, "summary"):
        def summary(status, error):
            return mod.summary(ctx, status, error)
    try:
        with Run(d, schema=mod.SCHEMA, prog=ctx_base["prog"], summary=summary, testbed=testbed,
                 on_signal=getattr(mod, "ON_SIGNAL", "raise")) as run:
            ctx.run = run
            mod.run(ctx)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0


def main(argv):
    if not argv:
        print("usage: experiment.py FOLDER [ARGS...]", file=sys.stderr)
        return 2
    top = project_top()
    os.environ["RB_TOP"] = top
    folder = os.path.abspath(argv[0])
    args = argv[1:]
    # the project's top: from analysis.sizes import rules (a folder with
    # dashes: sibling())
    if top not in sys.path:
        sys.path.insert(0, top)
    table_path = os.path.join(folder, "settings.json")
    registry_file = os.path.join(top, "scripts", "lib", "experiments.json")
    prog = os.path.basename(folder)
    try:
        mod = load_module(folder)
        registry = read_registry(top)
        entries = registry_entries(registry, top, folder)
        name = getattr(mod, "NAME", None) or (entries and (entries[0].get("command") or entries[0]["name"])) or prog
        prog = getattr(mod, "PROG", None) or name
        os.environ["RB_PROG"] = prog
        if args[:1] in (["-h"], ["--help"]):
            print(help_text(mod, table_path, top))
            return 0
        variants = list(getattr(mod, "VARIANTS", []))
        if os.path.isfile(table_path):
            try:
                table, values, given, scale = resolve(table_path, os.environ, registry_file, variants)
            except RunError as e:
                if getattr(mod, "BAD_SETTINGS_SUMMARY", False) and not args:
                    settings_refused(mod, name, str(e))
                raise
        else:
            table, values, given = {"settings": []}, {}, []
            scale = settings_rules.canonical_scale(registry, os.environ.get("SCALE", ""))
            os.environ["SCALE"] = scale
        ctx_base = dict(name=name, prog=prog, folder=folder, top=top, args=args, settings=values, given=given,
                        scale=scale, registry=entries, table=table, options=None)
        if hasattr(mod, "parse_args"):
            ctx_base["options"] = mod.parse_args(Context(**ctx_base), args)
        elif args:
            raise RunError("unknown argument %s (see --help)" % args[0])
        if not getattr(mod, "FAMILY", False):
            return run_family(mod, ctx_base, None, os.environ)
        fam = family_parse(os.environ.get("FAMILY", ""), name, registry)
        os.environ["FAMILY"] = fam
        if fam != "both":
            return run_family(mod, ctx_base, fam, os.environ)
        print("%s: FAMILY=both: IPv4, then IPv6" % prog, file=sys.stderr, flush=True)

        def once(f):
            os.environ["FAMILY"] = f
            return run_family(mod, ctx_base, f, os.environ)
        return family_both(once)
    except RunError as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr, flush=True)
        return 1
    except (Interrupted, KeyboardInterrupt):
        return 130


if __name__ == "__main__":
    # through the package's module, so that the experiment's own
    # `from rootbench.experiment import ...` gets this same one
    from rootbench import experiment
    sys.exit(experiment.main(sys.argv[1:]))
