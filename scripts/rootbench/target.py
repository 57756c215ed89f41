"""The target guard for Python experiments: analysis/target-check (the
rule of analysis/lib/target.c, written once in C) must admit every address
a generator sends to and every source its answers go back to (loopback,
198.18.0.0/15, 2001:2::/48 and a lab's own ranges, RB_ALLOW_RANGES) before
the generator is called."""

import os
import subprocess

from rootbench.lifecycle import RunError


def guard(top, addresses, allow=None):
    """None when analysis/target-check admits every address (numeric, or
    ADDRESS/LENGTH for a source block); RunError with its refusal
    otherwise (scripts/lib/target.sh's words). allow: the lab's ranges
    (default RB_ALLOW_RANGES)."""
    prog = os.path.join(top, "analysis", "target-check")
    if not os.access(prog, os.X_OK):
        raise RunError("missing %s: run make" % prog)
    if allow is None:
        allow = os.environ.get("RB_ALLOW_RANGES", "")
    addresses = [a for a in addresses if a]
    if not addresses:
        raise RunError("the target guard was given no address to check")
    argv = [prog] + (["--allow-range", allow] if allow else []) + list(addresses)
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode == 0:
        return
    out = p.stdout.rstrip("\n").replace("target-check: ", "").replace("error: --allow-range:", "RB_ALLOW_RANGES:")
    raise RunError(out[len("error: "):] if out.startswith("error: ") else out)
