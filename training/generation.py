#!/usr/bin/env python3
"""One generation of the network loop in one command: self-play shards on every core, training,
export, and a match of the new network against the classical evaluation at equal time.

    training/generation.py --out gen1 --jobs 16 --selfplay-seconds 200 --train-seconds 170 \\
        --match-games 400 --match-seconds 150
    # the next generation: self-play with the network the last one made
    training/generation.py --out gen2 --network gen1/net.bin.lz4 ...

Each phase is the project's own command (pbrain-moku selfplay, train.py, export.py,
scripts/match.py), run as a subprocess with its output in OUT/logs/; the budgets in seconds make
a run fit a fixed slot (a borrowed GPU machine), and counts (--games, --epochs, --match-games)
bound it otherwise. Self-play shards are OUT/data/shard-N.mksp.lz4 with seeds --seed-base + N: a
second run with the same OUT resumes them (a shard stopped by its time budget writes every
game it finished). Renju trains and exports one network per side to move (net-black, net-white).
OUT/generation.json records each phase's wall time and the match's result.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from match import default_openings  # noqa: E402

GOMOCUP_RULE = {"freestyle": 0, "standard": 1, "renju": 4}


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="the generation's folder")
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "pbrain-moku"))
    ap.add_argument("--rule", choices=sorted(GOMOCUP_RULE), default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--phases", default="selfplay,train,export,match",
                    help="comma-separated subset, in this order (a later phase reads what an earlier run left)")
    # self-play
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="self-play shards, one process each")
    ap.add_argument("--games", type=int, default=200, help="games a shard holds when it ends")
    ap.add_argument("--selfplay-seconds", type=float, default=0, help="stop the shards after this long (0: none)")
    ap.add_argument("--nodes", help="node budget MIN:MAX of each self-play move (default: the engine's)")
    ap.add_argument("--openings", help="default bench/openings/balanced_<rule><size>.txt")
    ap.add_argument("--network", help="self-play with this network (FILE, or BLACK,WHITE for renju): the next generation")
    ap.add_argument("--seed-base", type=int, default=1000)
    # training and export
    ap.add_argument("--python", default=sys.executable, help="the interpreter with PyTorch")
    ap.add_argument("--train-seconds", type=float, default=0, help="training budget (split between the sides for renju)")
    ap.add_argument("--epochs", type=float, default=4)
    ap.add_argument("--steps", type=int, help="optimiser steps instead of --epochs")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--value-mix", type=float, default=0.5)
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    # match
    ap.add_argument("--match-games", type=int, default=200, help="0: no match")
    ap.add_argument("--match-seconds", type=float, default=0, help="stop the match after this long; finished games count")
    ap.add_argument("--tc", default="0/0.5")
    ap.add_argument("--concurrency", type=int, help="games at a time (default --jobs)")
    ap.add_argument("--match-seed", type=int, default=72)
    args = ap.parse_args(argv)
    args.phases = [p for p in args.phases.split(",") if p]
    for p in args.phases:
        if p not in ("selfplay", "train", "export", "match"):
            ap.error(f"unknown phase '{p}'")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if not os.path.isfile(args.engine):
        ap.error(f"engine not found: {args.engine} (build it, or give --engine)")
    if args.openings is None:
        args.openings = default_openings(GOMOCUP_RULE[args.rule], args.size)
    if args.match_games % 2:
        ap.error("--match-games must be even (both colours of each opening)")
    args.cli = os.environ.get("C_GOMOKU_CLI") or shutil.which("c-gomoku-cli")
    if "match" in args.phases and args.match_games and not args.cli:
        ap.error("the match needs c-gomoku-cli: set C_GOMOKU_CLI (README, Measuring strength), "
                 "or leave the phase out (--phases selfplay,train,export) or give --match-games 0")
    return args


class Run:
    def __init__(self, args):
        self.a = args
        self.out = os.path.abspath(args.out)
        self.logs = os.path.join(self.out, "logs")
        self.data = os.path.join(self.out, "data")
        os.makedirs(self.logs, exist_ok=True)
        os.makedirs(self.data, exist_ok=True)
        self.record_path = os.path.join(self.out, "generation.json")
        self.record = {}
        if os.path.exists(self.record_path):
            with open(self.record_path) as f:
                self.record = json.load(f)
        self.record["args"] = vars(args)

    def save(self):
        with open(self.record_path, "w") as f:
            json.dump(self.record, f, indent=1)

    def sides(self):
        return ["black", "white"] if self.a.rule == "renju" else ["any"]

    def run_dir(self, side):
        return os.path.join(self.out, "run" if side == "any" else f"run-{side}")

    def net_path(self, side):
        return os.path.join(self.out, "net.bin.lz4" if side == "any" else f"net-{side}.bin.lz4")

    def say(self, msg):
        print(f"generation: {msg}", flush=True)

    # ------------------------------------------------------------------ phases
    def selfplay(self):
        a = self.a
        procs = []
        for i in range(1, a.jobs + 1):
            cmd = [a.engine, "selfplay", "--games", str(a.games), "--seed", str(a.seed_base + i),
                   "--rule", a.rule, "--size", str(a.size),
                   "--output", os.path.join(self.data, f"shard-{i}.mksp.lz4")]
            if a.nodes:
                cmd += ["--nodes", a.nodes]
            if a.openings:
                cmd += ["--openings", a.openings]
            if a.network:
                cmd += ["--network", a.network]
            log = open(os.path.join(self.logs, f"selfplay-{i}.log"), "w")
            procs.append((subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), log))
        deadline = time.time() + a.selfplay_seconds if a.selfplay_seconds > 0 else None
        stopped = 0
        while any(p.poll() is None for p, _ in procs):
            if deadline and time.time() >= deadline:
                for p, _ in procs:
                    if p.poll() is None:
                        p.terminate()  # SIGTERM: the shard ends after its game in play, written
                        stopped += 1
                for p, _ in procs:
                    try:
                        p.wait(timeout=120)
                    except subprocess.TimeoutExpired:
                        p.kill()  # a game that long is not worth waiting for: its frame is lost
                        p.wait()
                break
            time.sleep(0.2)
        failed = [i + 1 for i, (p, _) in enumerate(procs) if p.returncode not in (0, -9)]
        for _, log in procs:
            log.close()
        if failed:
            raise SystemExit(f"generation: self-play shard(s) {failed} failed; see {self.logs}/selfplay-N.log")
        size = sum(os.path.getsize(f) for f in glob.glob(os.path.join(self.data, "*.mksp.lz4")))
        games = positions = 0  # this run's, from each shard's summary line
        for i in range(1, a.jobs + 1):
            with open(os.path.join(self.logs, f"selfplay-{i}.log")) as f:
                m = re.search(r"^selfplay: (\d+) games \(.*\), (\d+) positions", f.read(), re.M)
            if m:
                games += int(m.group(1))
                positions += int(m.group(2))
        self.say(f"self-play: {a.jobs} shards, {stopped} stopped by the time budget; {games} games, "
                 f"{positions} positions played now; {size} bytes of records in all")
        return {"shards": a.jobs, "stopped_by_budget": stopped, "games": games, "positions": positions,
                "bytes": size}

    def train(self):
        a = self.a
        out = {}
        sides = self.sides()
        for side in sides:
            run_dir = self.run_dir(side)
            cmd = [a.python, os.path.join(HERE, "train.py"), "--data", os.path.join(self.data, "*.mksp.lz4"),
                   "--rule", a.rule, "--size", str(a.size), "--side", side, "--batch", str(a.batch),
                   "--value-mix", str(a.value_mix), "--device", a.device, "--out", run_dir]
            cmd += ["--steps", str(a.steps)] if a.steps else ["--epochs", str(a.epochs)]
            if a.train_seconds > 0:
                cmd += ["--time-limit", str(a.train_seconds / len(sides))]
            if os.path.exists(os.path.join(run_dir, "checkpoint.pt")):
                shutil.rmtree(run_dir)  # a generation trains from scratch on its data
            log_path = os.path.join(self.logs, f"train-{side}.log")
            self.run(cmd, log_path)
            text = open(log_path).read()
            rates = [float(x) for x in re.findall(r"; (\d+) positions/s", text)]
            used = re.findall(r"^train: (\d+) positions, validation: (\d+)", text, re.M)
            out[side] = {"positions_per_s": rates[-1] if rates else None,
                         "train_positions": int(used[0][0]) if used else None,
                         "last": [line for line in text.splitlines() if line.startswith("step ")][-1:]}
            self.say(f"train ({side}): {out[side]['train_positions']} positions, "
                     f"{out[side]['positions_per_s']} positions/s; {run_dir}/curve.png")
        return out

    def export(self):
        a = self.a
        out = {}
        for side in self.sides():
            run_dir = self.run_dir(side)
            log_path = os.path.join(self.logs, f"export-{side}.log")
            self.run([a.python, os.path.join(HERE, "export.py"), os.path.join(run_dir, "checkpoint.pt"),
                      "--out", self.net_path(side), "--device", a.device], log_path)
            out[side] = open(log_path).read().strip().splitlines()[-1]
            self.say(f"export ({side}): {self.net_path(side)}")
        return out

    def match(self):
        a = self.a
        if a.match_games == 0:
            return None
        cli = a.cli
        nets = ",".join(self.net_path(s) for s in self.sides())
        # c-gomoku-cli splits an engine's command at spaces: a small launcher keeps paths whole
        launcher = os.path.join(self.out, "moku-net.sh")
        with open(launcher, "w") as f:
            f.write(f"#!/bin/sh\nexec '{a.engine}' --network '{nets}' \"$@\"\n")
        os.chmod(launcher, 0o755)
        pgn = os.path.join(self.out, "match.pgn")
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "match.py"), "--engine", launcher, "--name", "net",
               "--opponent", a.engine, "--opp-name", "classical", "--rule", str(GOMOCUP_RULE[a.rule]),
               "--size", str(a.size), "--tc", a.tc, "--games", str(a.match_games),
               "--concurrency", str(a.concurrency or a.jobs), "--seed", str(a.match_seed), "--pgn", pgn,
               "--cli", cli]
        if a.openings:
            cmd += ["--openings", a.openings]
        log_path = os.path.join(self.logs, "match.log")
        self.run(cmd, log_path, seconds=a.match_seconds, check=False)
        summary = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "match.py"), "--summary", pgn,
                                  "--name", "net", "--opp-name", "classical"], capture_output=True, text=True)
        line = summary.stdout.strip().splitlines()[0] if summary.stdout.strip() else "no finished game"
        self.say(f"match: {line}")
        return line

    # ------------------------------------------------------------------ helpers
    def run(self, cmd, log_path, seconds=0, check=True):
        with open(log_path, "w") as log:
            log.write(" ".join(cmd) + "\n")
            log.flush()
            # its own process group, so that a budget stops c-gomoku-cli and its engines too
            p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                p.wait(timeout=seconds if seconds > 0 else None)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, 15)
                p.wait()
        if check and p.returncode != 0:
            tail = "".join(open(log_path).readlines()[-8:])
            raise SystemExit(f"generation: {os.path.basename(cmd[1])} failed ({log_path}):\n{tail}")


def main(argv=None):
    args = parse_args(argv)
    r = Run(args)
    t_all = time.time()
    for phase in args.phases:
        t0 = time.time()
        r.say(f"{phase} ...")
        result = getattr(r, phase)()
        r.record[phase] = {"seconds": round(time.time() - t0, 1), "result": result}
        r.save()
    r.record["seconds"] = round(time.time() - t_all, 1)
    r.save()
    r.say(f"done in {r.record['seconds']} s; {r.record_path}")


if __name__ == "__main__":
    main()
