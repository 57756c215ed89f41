"""rootbench.testbed without a testbed: the verbs' command lines, a failed
verb raised with its stderr, the user's testbed settings passed or named
as not taken (as exp_testbed_up; the live check is
scripts/tests/22-user-settings-reach-the-testbed.test), a refusal of
check, and FAMILY's rules."""

import json
import os
import stat

import pytest

from rootbench.lifecycle import RunError
from rootbench.testbed import Family, Testbed, TestbedError, family_both, family_parse

# A fake scripts/testbed: records its arguments, one a line, in $ARGS_FILE;
# FAIL_VERB=VERB makes that verb fail with a message on stderr.
FAKE = """#!/bin/sh
printf '%s\\n' "$@" > "$ARGS_FILE"
if [ "$1" = "${FAIL_VERB:-}" ]; then
    echo "line one" >&2; echo "testbed: error: no CPU left for server2" >&2; exit 3
fi
case $1 in
    processes) [ -z "${DOWN:-}" ] || exit 1; echo '[{"role": "server1", "running": true}, {"role": "server2", "running": false}]' ;;
    status) echo '{"backend": "netns"}' ;;
esac
"""


@pytest.fixture
def fake(tmp_path):
    top = tmp_path / "top"
    (top / "scripts").mkdir(parents=True)
    prog = top / "scripts" / "testbed"
    prog.write_text(FAKE)
    prog.chmod(prog.stat().st_mode | stat.S_IEXEC)
    (top / "scripts" / "testbed.settings.json").write_text(json.dumps({"settings": [
        {"name": "LINK", "up": True}, {"name": "SERVER_WORKERS", "up": True},
        {"name": "STEER", "up": True}, {"name": "RB_PREFIX"}]}))
    profile = top / "profile"
    profile.write_text("# the UDP profile\nLINK=none   # unshaped\nLB=l3\n")
    args = tmp_path / "args"
    env = {"PATH": os.environ["PATH"], "ARGS_FILE": str(args)}
    warnings, logs = [], []
    tb = Testbed(str(top), env=env, warn=warnings.append, log=logs.append)
    return tb, env, str(profile), args, warnings, logs


def argv_of(args):
    return args.read_text().splitlines()


def test_argv_is_the_verb_and_its_arguments(fake):
    tb = fake[0]
    assert tb.argv("server-stats", "server1", "server2") == [tb.program, "server-stats", "server1", "server2"]
    assert tb.sample_argv("s.jsonl", "s.json", "r", 50, "--stall-ms", "0")[1:] == [
        "sample", "--quiet", "--interval-ms", "50", "--series", "s.jsonl", "--summary", "s.json",
        "--ready", "r", "--stall-ms", "0"]


def test_json_verbs_parse_their_output(fake):
    tb = fake[0]
    assert tb.status() == {"backend": "netns"}
    assert tb.servers_down("server1", "server2") == ["server2"]


def test_a_failed_verb_raises_with_its_stderr(fake):
    tb, env = fake[0], fake[1]
    env["FAIL_VERB"] = "counters"
    with pytest.raises(TestbedError, match=r"scripts/testbed counters failed \(exit 3\): line one \| testbed: error: no CPU") as e:
        tb.counters()
    assert isinstance(e.value, RunError) and e.value.rc == 3


def test_user_settings_pass_and_fixed_ones_are_named(fake):
    tb, env, profile, args, warnings, logs = fake
    env.update(SERVER_WORKERS="2", LINK="100mbit", STEER="rps", FOO="1")
    tb.up_for(profile, ["STEER=napi"])
    assert argv_of(args) == ["up", "--profile", profile, "SERVER_WORKERS=2", "STEER=napi"]
    assert warnings == [
        "LINK=100mbit is not taken: this experiment sets LINK=none (its profile profile, or its own setting)",
        "STEER=rps is not taken: this experiment sets STEER=napi (its profile profile, or its own setting)"]
    assert not tb.started


def test_control_a_user_setting_equal_to_the_fixed_one_is_not_warned(fake):
    tb, env, profile, args, warnings, _ = fake
    env.update(LINK="none")
    tb.up_for(profile)
    assert argv_of(args) == ["up", "--profile", profile] and warnings == []


def test_a_testbed_brought_up_is_released_down(fake):
    tb, env, profile, args, _, logs = fake
    env["DOWN"] = "1"
    tb.up_for(profile)
    assert tb.started and "is down: bringing it up" in logs[0]
    tb.release()
    assert argv_of(args) == ["down"] and not tb.started


def test_up_that_fails_names_the_profile_and_the_message(fake):
    tb, env, profile = fake[0], fake[1], fake[2]
    env["FAIL_VERB"] = "up"
    with pytest.raises(TestbedError, match="testbed up with profile profile LB=l4: line one\ntestbed: error"):
        tb.up_for(profile, {"LB": "l4"})


def test_check_refusal_names_what_the_testbed_lacks(fake):
    tb, env, profile, args, warnings, _ = fake
    env.update(FAIL_VERB="check", LINK="100mbit", BACKEND="lab")
    with pytest.raises(TestbedError) as e:
        tb.check_for(profile)
    assert str(e.value) == "refused before anything starts (BACKEND=lab): no CPU left for server2"
    assert warnings == []   # check is quiet about settings not taken


@pytest.mark.parametrize("given,want", [("", "4"), ("ipv4", "4"), ("v6", "6"), ("6", "6"), ("both", "both")])
def test_family_parse_normalises(given, want):
    assert family_parse(given) == want


def test_family_parse_refuses_unknown_and_a_family_not_measured():
    with pytest.raises(RunError, match="FAMILY=5: must be 4, 6 or both"):
        family_parse("5")
    reg = {"experiments": [{"name": "tcp-limits", "only_family": 4, "why": "its IPv4 results"}]}
    with pytest.raises(RunError, match=r"FAMILY=6: tcp-limits measures over IPv4 only \(FAMILY=4\): its IPv4 results"):
        family_parse("6", "tcp-limits", reg)
    assert family_parse("4", "tcp-limits", reg) == "4"


def test_family_suffix_and_service():
    assert (Family("4").suffix, Family("4").service) == ("", "198.18.0.53")
    assert (Family("6").suffix, Family("6").service) == ("-v6", "2001:2::53")


def test_family_both_runs_both_and_stops_at_an_interrupt():
    ran = []
    assert family_both(lambda f: ran.append(f) or 0) == 0 and ran == ["4", "6"]
    ran.clear()
    assert family_both(lambda f: ran.append(f) or (130 if f == "4" else 0)) == 130 and ran == ["4"]
    assert family_both(lambda f: 1 if f == "4" else 2) == 1
    assert family_both(lambda f: 0 if f == "4" else 2) == 2


def test_host_speed_is_none_on_a_lab(fake):
    assert fake[0].host_speed({"backend": "lab"}) is None


SAMPLER = """#!/bin/sh
# a fake sampler: takes its first sample (the --ready file), then runs
# until TERM, when it writes its summary
while [ $# -gt 0 ]; do case $1 in --summary) s=$2 ;; --ready) r=$2 ;; esac; shift; done
trap 'echo "{}" > "$s"; exit 0' TERM
[ -n "${NO_READY:-}" ] || : > "$r"
echo "sampling" >&2
[ -z "${DIE:-}" ] || { echo "no sampler here" >&2; exit 1; }
while :; do sleep 0.05; done
"""


def test_the_sampler_starts_waits_for_its_first_sample_and_stops(fake, tmp_path):
    from rootbench.lifecycle import Run
    tb, env = fake[0], fake[1]
    with open(tb.program, "w") as f:
        f.write(SAMPLER)
    out = tmp_path / "exp"
    with Run(str(out)) as run:
        s = tb.sampler(run, str(out), "--stall-ms", "0")
        assert s.ready_ns > 0
        s.stop()
    assert (out / "sample.json").read_text() == "{}\n"
    env["DIE"] = "1"
    env["NO_READY"] = "1"
    with pytest.raises(SystemExit):
        with Run(str(tmp_path / "exp2")) as run:
            with pytest.raises(TestbedError, match="the testbed sampler did not start: sampling\nno sampler here"):
                tb.sampler(run, str(tmp_path / "exp2"))
            raise TestbedError("x")


def test_record_writes_the_status_and_the_zone_manifests_beside_the_results(fake, tmp_path):
    tb = fake[0]
    zb = os.path.join(tb.top, "zones", "build")
    os.makedirs(os.path.join(zb, "signed"))
    os.makedirs(os.path.join(zb, "broken"))
    with open(os.path.join(zb, "signed", "variant.json"), "w") as f:
        f.write('{"serial": 2026120201}')
    with open(os.path.join(zb, "broken", "variant.json"), "w") as f:
        f.write("not json")
    env = {"RB_RUN": str(tmp_path / "run")}
    assert tb.record(env=env) == {"backend": "netns"}
    assert (tmp_path / "run" / "testbed.json").read_text() == '{\n  "backend": "netns"\n}\n'
    assert (tmp_path / "run" / "zones" / "signed.json").read_text() == '{\n  "serial": 2026120201\n}\n'
    # control: the manifest that is not JSON is named, not recorded
    assert not (tmp_path / "run" / "zones" / "broken.json").exists()
    assert any("broken/variant.json is not JSON" in w for w in fake[4])
