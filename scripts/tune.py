#!/usr/bin/env python3
"""Tunes Moku's search parameters ([search] in config.toml), and the classical evaluation's
numbers ([classical]), by SPSA over c-gomoku-cli games.

Each iteration perturbs the chosen parameters by +/- c_k (a random sign per parameter), plays
the two engines against each other on balanced openings (both colours of each), and moves the
parameters towards the side that scored better, as fishtest's SPSA does:
    c_k = c / (k+1)^0.101,  a_k = a / (A+k+1)^0.602,  theta += a_k / c_k * (W - L) * sign.
The state is saved after every iteration (--state), so a run can be stopped and resumed. The
result is the whole [search] table with the tuned values (--out), and with --apply it replaces
the [search] table of a configuration file in place.

    scripts/tune.py --params lmr_scale,razor_base,futility_per_depth --iterations 200 \\
        --pairs 2 --tc 0/0.1 --concurrency 2 --out tuned.toml
    scripts/tune.py --resume --state tune-state.json --iterations 400     # continue a run
    scripts/tune.py --state tune-state.json --apply configs/config.toml  # write the result

`RULE.KEY` tunes KEY for one rule only, in the [search.RULE] table (RULE: freestyle, standard,
renju, caro or caro5; for example freestyle.futility_per_depth, which the embedded
[search.freestyle] table sets over [search]). The engines get that rule's whole table with the
tuned value, and --out / --apply write it beside [search]:

    scripts/tune.py --params freestyle.razor_base,freestyle.futility_per_depth,lmr_scale

Values and ranges come from `pbrain-moku params` (the configuration given with --config, else the
embedded defaults); a perturbed value is clamped to its range and rounded where it must be whole.

A [classical] number is named `classical.KEY` (a whole number such as threat_block_percent) or
`classical.KEY.I` (element I, from 0, of a table such as threat_own). Its value comes from the
[classical] table of --config, else from configs/config.toml (the embedded defaults, which a
test keeps equal to that file); it is tuned as a whole number within the range the engine
accepts (table entries -32000..32000). The engines then get the whole [classical] table with
the tuned entries, and --out / --apply write it beside [search]:

    scripts/tune.py --params classical.threat_own.2,classical.threat_opponent.2 --iterations 300
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import ROOT, default_openings, summarize  # noqa: E402

LINE = re.compile(r"^(\w+) = (\S+)\s+# (\S+)\.\.([^,\s]+)(, whole)?$")


RULES = ("freestyle", "standard", "renju", "caro", "caro5")
RULE_LINE = re.compile(r"^(\w+) = (\S+)$")
HEADER = re.compile(r"\[([\w.]+)\]")  # a section's header line: [search], [search.renju]


def read_params(engine, config):
    """The [search] parameters (value, range, whole) that `engine --config config params` prints,
    and each value of its [search.RULE] tables as `RULE.KEY` with the range of KEY."""
    cmd = [engine] + (["--config", config] if config else []) + ["params"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"tune: {' '.join(cmd)} failed: {out.stderr.strip()}")
    params, per_rule, section = {}, {}, "search"
    for line in out.stdout.splitlines():
        header = HEADER.fullmatch(line)
        if header:
            section = header[1]
            continue
        m = LINE.match(line) if section == "search" else None
        if m:
            params[m[1]] = {"value": float(m[2]), "lo": float(m[3]), "hi": float(m[4]), "whole": bool(m[5])}
        elif section.startswith("search.") and (m := RULE_LINE.match(line)):
            per_rule[f"{section[len('search.'):]}.{m[1]}"] = float(m[2])
    if not params:
        sys.exit("tune: no parameters in the engine's `params` output")
    for name, value in per_rule.items():
        key = name.split(".", 1)[1]
        if key in params:
            params[name] = {**params[key], "value": value}
    return params


def add_rule_param(params, name):
    """Adds `RULE.KEY` (KEY in [search.RULE], starting from its [search] value when that table
    does not set it); False when there is no such rule or key."""
    rule, _, key = name.partition(".")
    if name in params:
        return True
    if rule not in RULES or key not in params:
        return False
    params[name] = dict(params[key])
    return True


# Ranges of the [classical] numbers, as src/eval/classical_config.cpp checks them (table entries
# are clamped to 16 bits when the tables are built).
CLASSICAL_SCALARS = {"threat_block_percent": (0, 100), "scale_percent": (1, 1000)}
CLASSICAL_ENTRY = (-32000, 32000)


def read_classical(config):
    """The [classical] table of `config`, over the one of configs/config.toml."""
    with open(os.path.join(ROOT, "configs", "config.toml"), "rb") as f:
        table = dict(tomllib.load(f).get("classical", {}))
    if config:
        with open(config, "rb") as f:
            table.update(tomllib.load(f).get("classical", {}))
    return table


def classical_param(classical, name):
    """The tunable parameter `classical.KEY[.I]` (value and range), or None if there is none."""
    parts = name.split(".")
    if parts[0] != "classical" or len(parts) not in (2, 3) or parts[1] not in classical:
        return None
    value = classical[parts[1]]
    if len(parts) == 2:
        if isinstance(value, list) or parts[1] not in CLASSICAL_SCALARS:
            return None
        lo, hi = CLASSICAL_SCALARS[parts[1]]
        return {"value": float(value), "lo": lo, "hi": hi, "whole": True}
    if not isinstance(value, list) or not parts[2].isdigit() or int(parts[2]) >= len(value):
        return None
    lo, hi = CLASSICAL_ENTRY
    return {"value": float(value[int(parts[2])]), "lo": lo, "hi": hi, "whole": True}


def add_classical(params, classical, name):
    """Adds the [classical] number `name` to params; False when there is no such number."""
    p = classical_param(classical, name)
    if p is not None:
        params[name] = p
    return p is not None


def classical_table(classical, params, values):
    """The [classical] table with the tuned values in place, or "" when none is tuned."""
    tuned = {n: clamp(params[n], v) for n, v in values.items() if n.startswith("classical.")}
    if not tuned:
        return ""
    table = {k: list(v) if isinstance(v, list) else v for k, v in classical.items()}
    for name, v in tuned.items():
        parts = name.split(".")
        if len(parts) == 2:
            table[parts[1]] = int(v)
        else:
            table[parts[1]][int(parts[2])] = int(v)
    lines = ["[classical]"]
    for key, v in table.items():
        text = "[" + ", ".join(str(x) for x in v) + "]" if isinstance(v, list) else str(v)
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


def clamp(p, v):
    v = min(max(v, p["lo"]), p["hi"])
    return round(v) if p["whole"] else v


def search_table(params, values):
    """The [search] table, then a [search.RULE] table for each rule that has values of its own."""
    lines, rules = ["[search]"], {}
    for name, p in params.items():
        if name.startswith("classical."):
            continue
        v = clamp(p, values.get(name, p["value"]))
        v = round(v, 6)
        rule, _, key = name.rpartition(".")
        line = f"{key} = {int(v) if p['whole'] or v == int(v) else repr(v)}"
        (rules.setdefault(rule, []) if rule else lines).append(line)
    for rule, rule_lines in rules.items():
        lines += ["", f"[search.{rule}]"] + rule_lines
    return "\n".join(lines) + "\n"


def split_sections(table):
    """(name, text) of each [section] of a table string, in order."""
    parts = re.split(r"(?m)^(?=\[)", table)
    return [(HEADER.match(p)[1], p) for p in parts if p.startswith("[")]


def with_search(config_text, table):
    """config_text with the sections of `table` ([search], and [classical] if it has one)
    replaced by (or extended with) those of `table`."""
    names = {name for name, _ in split_sections(table)}
    parts = re.split(r"(?m)^(?=\[)", config_text)
    kept = [p for p in parts if not (m := HEADER.match(p)) or m[1] not in names]
    text = "".join(kept).rstrip("\n")
    return (text + "\n\n" if text else "") + table


def apply_section(text, section, table):
    """text with the key lines of its [section] replaced by those of `table` (comments and the
    other keys kept, keys it lacks added after its last key), or with the table appended when it
    has no such section."""
    values = dict(re.findall(r"(?m)^(\w+) = (.+)$", table))
    header = re.search(rf"(?m)^\[{re.escape(section)}\]$", text)
    start = header.start() if header else -1
    if start < 0:
        return text.rstrip("\n") + "\n\n" + table
    end = text.find("\n[", start + 1)
    body = text[start:] if end < 0 else text[start:end + 1]

    def replace(m):
        if m[1] not in values:
            return m[0]
        comment = re.search(r"\s+#.*$", m[2]) if not m[2].lstrip().startswith("[") else None
        return f"{m[1]} = {values[m[1]]}" + (comment[0] if comment else "")

    body = re.sub(r"(?m)^(\w+) = (.+)$", replace, body)
    # Keys the section does not have yet go after its last key line.
    missing = [k for k in values if not re.search(rf"(?m)^{k} = ", body)]
    if missing:
        keys = list(re.finditer(r"(?m)^\w+ = .+$", body))
        at = keys[-1].end() if keys else body.index("]") + 1
        body = body[:at] + "".join(f"\n{k} = {values[k]}" for k in missing) + body[at:]
    return text[:start] + body + (text[end + 1:] if end >= 0 else "")


def apply_tables(text, tables):
    """text with each section of `tables` applied by apply_section."""
    for section, table in split_sections(tables):
        text = apply_section(text, section, table)
    return text


def play(args, plus_cfg, minus_cfg, seed):
    pgn = os.path.join(args.workdir, "iteration.pgn")
    if os.path.exists(pgn):
        os.remove(pgn)
    cmd = [args.cli, "-each", f"tc={args.tc}",
           "-engine", "name=plus", f"cmd={args.engine} --config {plus_cfg}",
           "-engine", "name=minus", f"cmd={args.engine} --config {minus_cfg}",
           "-rule", str(args.rule), "-boardsize", str(args.size), "-games", str(2 * args.pairs),
           "-repeat", "-concurrency", str(args.concurrency),
           "-openings", f"file={args.openings}", "type=pos", "order=random", f"srand={seed}",
           "-pgn", pgn]
    stuck = []
    try:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=args.iteration_timeout)
    except subprocess.TimeoutExpired:
        # c-gomoku-cli waits without a limit for a move after it sent YXSTOP; it is stopped
        # (its engines then see their input close) and the games it finished count.
        stuck = [f"c-gomoku-cli stopped after {args.iteration_timeout:g} s (a game did not end)"]
    if not os.path.exists(pgn):
        if stuck:
            return 0, 0, 0, stuck
        sys.exit("tune: c-gomoku-cli wrote no games: " + " ".join(cmd))
    w, l, d, trouble = summarize(pgn, "plus")
    trouble = stuck + trouble
    if w + l + d < 2 * args.pairs:
        print(f"tune: only {w + l + d} of {2 * args.pairs} games finished", file=sys.stderr)
    return w, l, d, trouble


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "pbrain-moku"))
    ap.add_argument("--config", help="configuration whose [search] values start the run (and the other sections the engines use)")
    ap.add_argument("--params", help="comma-separated names to tune, each optionally name:c_end (perturbation at the end)")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--pairs", type=int, default=1, help="game pairs (both colours of an opening) per iteration")
    ap.add_argument("--r-end", type=float, default=0.002, help="learning rate at the end (fishtest's r_end)")
    ap.add_argument("--tc", default="0/0.1")
    ap.add_argument("--rule", type=int, default=0)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--openings")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--iteration-timeout", type=float, default=900,
                    help="seconds an iteration's games may take before c-gomoku-cli is stopped (the games it finished count)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", default="tune-state.json", help="saved after every iteration")
    ap.add_argument("--resume", action="store_true", help="continue the run saved in --state")
    ap.add_argument("--out", help="write the tuned [search] table here")
    ap.add_argument("--apply", metavar="CONFIG", help="replace the [search] table of this configuration file with the result")
    ap.add_argument("--cli", default=os.environ.get("C_GOMOKU_CLI") or "c-gomoku-cli")
    args = ap.parse_args()

    if not os.path.exists(args.engine):
        ap.error(f"no engine at {args.engine}")
    params = read_params(args.engine, args.config)
    classical = read_classical(args.config)
    if args.resume or (args.apply and not args.params):
        if not os.path.exists(args.state):
            ap.error(f"no state file {args.state}")
        state = json.load(open(args.state))
        for name in state["tuned"]:
            if name.startswith("classical.") and not add_classical(params, classical, name):
                ap.error(f"{args.state}: no [classical] number '{name}'")
            if not name.startswith("classical.") and not add_rule_param(params, name):
                ap.error(f"{args.state}: no parameter '{name}'")
    else:
        if not args.params:
            ap.error("--params is required for a new run")
        tuned = {}
        for item in args.params.split(","):
            name, _, c_end = item.partition(":")
            if name.startswith("classical.") and not add_classical(params, classical, name):
                ap.error(f"unknown parameter '{name}' (classical.KEY.I for an entry of a "
                         "[classical] table, classical.KEY for threat_block_percent or scale_percent)")
            if not name.startswith("classical.") and not add_rule_param(params, name):
                ap.error(f"unknown parameter '{name}' (see pbrain-moku params; RULE.KEY for KEY in "
                         "[search.RULE], RULE one of " + ", ".join(RULES) + ")")
            p = params[name]
            if name.startswith("classical."):
                # (The 16-bit range says nothing about a number's scale.)
                default_c = max(abs(p["value"]) * 0.1, 5.0)
            else:
                default_c = max(abs(p["value"]) * 0.1, (p["hi"] - p["lo"]) * 0.01, 1.0 if p["whole"] else 0.0)
            tuned[name] = {"theta": p["value"], "c_end": float(c_end) if c_end else default_c}
        state = {"k": 0, "iterations": args.iterations, "tuned": tuned, "history": []}

    if args.apply and not args.resume and not args.params:
        args.iterations = state["k"]  # only write what the saved run reached
    else:
        args.openings = args.openings or default_openings(args.rule, args.size)
        if not args.openings or not os.path.exists(args.openings):
            ap.error("no openings file: give --openings")
        if args.pairs < 1:
            ap.error("--pairs must be at least 1")
        state["iterations"] = max(state["iterations"], args.iterations)

    n = state["iterations"]
    big_a = 0.1 * n
    rng = random.Random(args.seed * 1000003 + state["k"])
    with tempfile.TemporaryDirectory(prefix="moku-tune-") as workdir:
        args.workdir = workdir
        base_text = open(args.config).read() if args.config else ""
        while state["k"] < args.iterations:
            k = state["k"]
            plus, minus, signs = {}, {}, {}
            for name, t in state["tuned"].items():
                c = t["c_end"] * n ** 0.101
                c_k = c / (k + 1) ** 0.101
                signs[name] = rng.choice((-1, 1))
                plus[name] = clamp(params[name], t["theta"] + c_k * signs[name])
                minus[name] = clamp(params[name], t["theta"] - c_k * signs[name])
            files = []
            for tag, values in (("plus", plus), ("minus", minus)):
                path = os.path.join(workdir, f"{tag}.toml")
                merged = {**{m: t["theta"] for m, t in state["tuned"].items()}, **values}
                with open(path, "w") as f:
                    f.write(with_search(base_text, search_table(params, merged) + classical_table(classical, params, merged)))
                files.append(path)
            w, l, d, trouble = play(args, files[0], files[1], args.seed * 7919 + k)
            result = w - l
            for name, t in state["tuned"].items():
                c = t["c_end"] * n ** 0.101
                c_k = c / (k + 1) ** 0.101
                a = args.r_end * t["c_end"] ** 2 * (big_a + n) ** 0.602
                a_k = a / (big_a + k + 1) ** 0.602
                t["theta"] = clamp({**params[name], "whole": False}, t["theta"] + a_k / c_k * result * signs[name])
            state["k"] = k + 1
            state["history"].append({"k": k, "result": [w, l, d], **{m: t["theta"] for m, t in state["tuned"].items()}})
            with open(args.state, "w") as f:
                json.dump(state, f, indent=1)
            shown = ", ".join(f"{m}={t['theta']:.4g}" for m, t in state["tuned"].items())
            print(f"iteration {k + 1}/{args.iterations}: plus {w}-{l}-{d}; {shown}", flush=True)
            for t in trouble:
                print("  " + t, flush=True)

    result = {m: t["theta"] for m, t in state["tuned"].items()}
    table = search_table(params, result)
    ctable = classical_table(classical, params, result)
    tables = table + ("\n" + ctable if ctable else "")
    if args.out:
        with open(args.out, "w") as f:
            f.write(tables)
        print(f"tune: wrote {args.out}")
    if args.apply:
        # Keep the comments: only the key lines of [search] (and [classical]) are replaced.
        text = apply_tables(open(args.apply).read(), tables)
        with open(args.apply, "w") as f:
            f.write(text)
        print(f"tune: updated {args.apply}")
    if not args.out and not args.apply:
        sys.stdout.write(tables)
    return 0


if __name__ == "__main__":
    sys.exit(main())
