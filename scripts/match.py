#!/usr/bin/env python3
"""Plays Moku against a Gomocup engine through c-gomoku-cli and reports the result.

Balanced openings, both colours of each (-repeat), any concurrency, optional SPRT, PGN out.
At the end it prints W-L-D from the first engine's side, the score, and the Elo difference
with its 95 % error margin (trinomial, normal approximation), counted from the PGN file
(c-gomoku-cli's own stdout is block-buffered when piped). Games lost by a failure before the
first move are not counted: the PGN cannot say which engine failed. c-gomoku-cli's messages
can, and the end of the report counts them per engine (failed STARTs, moves out of time,
crashes, illegal moves).

    scripts/match.py --opponent /path/to/pbrain-rapfi --games 200 --concurrency 2
    scripts/match.py --opponent "build/pbrain-moku" --opp-name base --tc 0/0.2 \
        --sprt 0,10 --games 2000
    scripts/match.py --opponent /path/to/pbrain-rapfi --engine-tc 0/0.75 --opp-tc 0/0.5
    scripts/match.py --summary games.pgn          # only count an existing PGN

c-gomoku-cli is taken from --cli, else $C_GOMOKU_CLI, else PATH.
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULE_NAMES = {0: "fs", 1: "std", 4: "renju"}


def default_openings(rule, size):
    path = os.path.join(ROOT, "bench", "openings", f"balanced_{RULE_NAMES.get(rule, '?')}{size}.txt")
    return path if os.path.exists(path) else None


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def summarize(pgn_path, name):
    """W-L-D of `name` over every game of the PGN file, plus the time/crash losses seen."""
    w = l = d = 0
    trouble = []
    with open(pgn_path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for game in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        if "Result" not in tags:
            continue
        black, white, result = tags.get("Black"), tags.get("White"), tags["Result"]
        if name not in (black, white):
            continue
        term = tags.get("Termination", "")
        if re.search(r"time|crash|illegal|error", term, re.I):
            if tags.get("PlyCount") == "0":
                # Before the first move: when an engine fails to answer START, c-gomoku-cli
                # names the winner from the opening's side to move, not from who failed, so
                # the PGN cannot tell who failed; its own messages can (FAILURES).
                trouble.append(f"game {tags.get('Event', '?')}: not counted, {term} before the "
                               "first move (a failed START or a first move out of time; the "
                               "lines below name the engine)")
                continue
            trouble.append(f"game {tags.get('Event', '?')}: {term}")
        if result == "1/2-1/2":
            d += 1
        elif (result == "0-1") == (black == name):
            w += 1
        elif result in ("1-0", "0-1"):
            l += 1
    return w, l, d, trouble


# c-gomoku-cli's own messages about an engine that failed, and what each means. They name the
# engine, which the PGN cannot do for a game lost before its first move: when an engine fails
# to answer START, c-gomoku-cli scores the game from the opening's side to move, so in half the
# games the loss goes to the other engine.
FAILURES = [
    (re.compile(r"\[\d+\] engine (\S+) output error:\s*(?P<text>.*)"), "answered ERROR to START"),
    (re.compile(r"\[\d+\] engine (\S+) timeout before answering START"), "did not answer START in time"),
    (re.compile(r"\[\d+\] engine (\S+) crashed before answering START"), "crashed before answering START"),
    (re.compile(r"\[\d+\] engine (\S+) timeout at \d+ moves after opening"), "moved out of time"),
    (re.compile(r"\[\d+\] engine (\S+) crashed at \d+ moves after opening"), "crashed"),
    (re.compile(r"\[\d+\] engine (\S+) output illegal move at \d+ moves after opening"), "played an illegal move"),
    (re.compile(r"\[\d+\] engine (\S+) is unresponsive"), "was unresponsive"),
]


def failures(lines):
    """{engine: {what: count}} from c-gomoku-cli's output lines; an ERROR's text is kept."""
    seen = {}
    for line in lines:
        for pattern, what in FAILURES:
            m = pattern.search(line)
            if not m:
                continue
            if m.groupdict().get("text") is not None:
                what = f"{what} ({m.group('text').strip()})"
            counts = seen.setdefault(m.group(1), {})
            counts[what] = counts.get(what, 0) + 1
            break
    return seen


def run_cli(cmd):
    """Runs c-gomoku-cli, echoing its output, and returns its exit code and output lines.
    Its stdout and stderr are read apart (and so never interleaved within a line)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", bufsize=1)
    lines = []

    def pump(src, dst):
        for line in src:
            lines.append(line)
            dst.write(line)
            dst.flush()

    err = threading.Thread(target=pump, args=(proc.stderr, sys.stderr))
    err.start()
    pump(proc.stdout, sys.stdout)
    err.join()
    return proc.wait(), lines


def report(w, l, d, name, opp):
    n = w + l + d
    if n == 0:
        print("no finished games")
        return
    score = (w + 0.5 * d) / n
    # Per-game variance of the score, then the 95 % interval mapped through the Elo curve.
    var = (w * (1 - score) ** 2 + l * score**2 + d * (0.5 - score) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = score - 1.96 * se, score + 1.96 * se
    e = elo(score)
    err = (elo(hi) - elo(lo)) / 2 if 0 < lo and hi < 1 else float("inf")
    print(f"{name} vs {opp}: {w}-{l}-{d} ({n} games), score {100 * score:.1f} %, "
          f"Elo {e:+.0f} +/- {err:.0f} (95 %)")


def cli_command(args, openings):
    """c-gomoku-cli's command line for the parsed arguments. c-gomoku-cli's -each overrides what
    an -engine says, so each engine names its own tc (--engine-tc, --opp-tc, else --tc)."""
    def opts(pairs):
        return ["option.%s=%s" % tuple(kv.split("=", 1)) for kv in pairs]

    cmd = [args.cli, *(["-each", *opts(args.option)] if args.option else []),
           "-engine", f"name={args.name}", f"cmd={args.engine}", f"tc={args.engine_tc or args.tc}",
           *opts(args.engine_option),
           "-engine", f"name={args.opp_name}", f"cmd={args.opponent}", f"tc={args.opp_tc or args.tc}",
           *opts(args.opp_option),
           "-rule", str(args.rule), "-boardsize", str(args.size), "-games", str(args.games),
           "-repeat", "-concurrency", str(args.concurrency),
           "-openings", f"file={os.path.abspath(openings)}", "type=pos", "order=random", f"srand={args.seed}",
           "-pgn", args.pgn]
    if args.sgf:
        cmd += ["-sgf", args.sgf]
    if args.sprt:
        e0, e1 = args.sprt.split(",")
        cmd += ["-sprt", f"elo0={e0}", f"elo1={e1}"]
    return cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "pbrain-moku"), help="first engine's command (Moku)")
    ap.add_argument("--name", default="moku", help="first engine's name")
    ap.add_argument("--opponent", help="opponent's command (any Gomocup brain)")
    ap.add_argument("--opp-name", default="opponent")
    ap.add_argument("--rule", type=int, default=0, help="Gomocup rule: 0 freestyle, 1 standard, 4 renju")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--tc", default="0/0.5", help="c-gomoku-cli time control, match/turn+inc in seconds")
    ap.add_argument("--engine-tc", help="the first engine's own time control (time odds); default --tc")
    ap.add_argument("--opp-tc", help="the opponent's own time control (time odds); default --tc")
    ap.add_argument("--games", type=int, default=200, help="games in all (even: both colours of each opening)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--openings", help="openings file (c-gomoku-cli pos format); default bench/openings/balanced_<rule><size>.txt")
    ap.add_argument("--seed", type=int, default=1, help="opening order seed (srand)")
    ap.add_argument("--sprt", help="elo0,elo1: stop on a sequential probability ratio test")
    ap.add_argument("--option", action="append", default=[], help="KEY=VALUE INFO for both engines")
    ap.add_argument("--engine-option", action="append", default=[], help="KEY=VALUE INFO for the first engine")
    ap.add_argument("--opp-option", action="append", default=[], help="KEY=VALUE INFO for the opponent")
    ap.add_argument("--pgn", default="match.pgn")
    ap.add_argument("--sgf", help="also write the games with their moves (for scripts/judge.py)")
    ap.add_argument("--cli", default=os.environ.get("C_GOMOKU_CLI") or shutil.which("c-gomoku-cli"))
    ap.add_argument("--summary", metavar="PGN", help="only count the games of an existing PGN file")
    args = ap.parse_args()

    if args.summary:
        w, l, d, trouble = summarize(args.summary, args.name)
        report(w, l, d, args.name, args.opp_name)
        for t in trouble:
            print("  " + t)
        return 0
    if not args.opponent:
        ap.error("--opponent is required")
    if not args.cli or not os.path.exists(args.cli):
        ap.error("c-gomoku-cli not found: give --cli or set C_GOMOKU_CLI (see README, Measuring strength)")
    openings = args.openings or default_openings(args.rule, args.size)
    if not openings or not os.path.exists(openings):
        ap.error(f"no openings file for rule {args.rule} size {args.size}: give --openings")
    if args.games < 2 or args.games % 2:
        ap.error("--games must be even and at least 2")
    if args.name == args.opp_name:
        ap.error("the two engines need different names")

    for kv in args.option + args.engine_option + args.opp_option:
        if "=" not in kv:
            ap.error(f"option '{kv}' is not KEY=VALUE")
    cmd = cli_command(args, openings)
    if args.sgf and os.path.exists(args.sgf):
        os.remove(args.sgf)
    print(" ".join(cmd), flush=True)
    if os.path.exists(args.pgn):
        os.remove(args.pgn)
    rc, lines = run_cli(cmd)
    w, l, d, trouble = summarize(args.pgn, args.name) if os.path.exists(args.pgn) else (0, 0, 0, [])
    report(w, l, d, args.name, args.opp_name)
    for t in trouble:
        print("  " + t)
    for engine, counts in sorted(failures(lines).items()):
        print(f"  c-gomoku-cli says {engine}: " +
              ", ".join(f"{what} {n}x" for what, n in sorted(counts.items())))
    return rc


if __name__ == "__main__":
    sys.exit(main())
