"""rules: the toy's rules and the accessor other experiments read its
summary through."""

SCHEMA = "rootbench.toy/1"


class SchemaError(ValueError):
    """A summary of another schema than the one the rules read."""


def toy_counted(s):
    """The points a toy summary counted (its schema checked)."""
    if s.get("schema") != SCHEMA:
        raise SchemaError("a toy summary of schema %s was expected; this one's schema is %s" % (SCHEMA, s.get("schema")))
    return s["counted"]


if __name__ == "__main__":
    # rules.py SUMMARY: the points it counted (what 05-toy-experiment reads)
    import json
    import sys
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            print(toy_counted(json.load(f)))
    except SchemaError as e:
        print("rules: error: %s" % e, file=sys.stderr)
        sys.exit(1)
