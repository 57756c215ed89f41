"""What the report needs of the attack experiment's rules: the summary's
schema, and the check that a summary is of it.

The run still writes its summary with scripts/attack/rules.jq
(attack_judged), which holds the same schema and check;
scripts/attack/tests/test_rules_agree.py checks that the two agree.
"""

from rootbench.jqtext import to_text

ATTACK_SCHEMA = "rootbench.attack/1"


def attack_schema():
    """The schema of the attack experiment's summary."""
    return ATTACK_SCHEMA


def _jq_type(x):
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, str):
        return "string"
    return "array" if isinstance(x, list) else "object"


def attack_summary_checked(s):
    """s when it is an attack summary of ATTACK_SCHEMA; else a ValueError
    that names the schema it has (or its type)."""
    if isinstance(s, dict) and s.get("schema") == ATTACK_SCHEMA:
        return s
    had = s.get("schema") if isinstance(s, dict) else None
    had = had if had is not None and had is not False else _jq_type(s)
    raise ValueError("an attack summary of schema %s (scripts/attack/rules.jq) was expected; this one's schema is %s"
                     % (ATTACK_SCHEMA, to_text(had)))
