"""Tests of scripts/tune.py's [classical] parameters: naming, the tables the engines get, and
--apply's rewrite of a configuration file (the engine named by MOKU_ENGINE checks the files)."""

import argparse
import os
import subprocess
import sys
import tempfile
import tomllib
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tune  # noqa: E402

CONFIG = os.path.join(tune.ROOT, "configs", "config.toml")
ENGINE = os.environ.get("MOKU_ENGINE")


def engine_accepts(path):
    """True when pbrain-moku reads the configuration file without an error."""
    out = subprocess.run([ENGINE, "--config", path, "params"], capture_output=True, text=True)
    return out.returncode == 0 and "error" not in out.stderr


class ClassicalParams(unittest.TestCase):
    def setUp(self):
        self.classical = tune.read_classical(None)
        with open(CONFIG, "rb") as f:
            self.file = tomllib.load(f)

    def test_names(self):
        own = self.file["classical"]["threat_own"]
        p = tune.classical_param(self.classical, "classical.threat_own.2")
        self.assertEqual(p["value"], own[2])
        self.assertTrue(p["whole"])
        p = tune.classical_param(self.classical, "classical.threat_block_percent")
        self.assertEqual((p["lo"], p["hi"]), (0, 100))
        for bad in ("classical.threat_own", "classical.threat_own.5", "classical.threat_own.x",
                    "classical.nothing.1", "classical.threat_block_percent.0", "threat_own.1",
                    "classical.move_own.1.2", "classical.pattern_to_move"):
            self.assertIsNone(tune.classical_param(self.classical, bad), bad)

    def test_config_overrides_the_defaults(self):
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write("[classical]\nthreat_own = [0, 1, 2, 3, 4]\n")
        try:
            c = tune.read_classical(f.name)
            self.assertEqual(tune.classical_param(c, "classical.threat_own.3")["value"], 3)
            self.assertEqual(c["threat_opponent"], self.file["classical"]["threat_opponent"])
        finally:
            os.unlink(f.name)

    def test_table_holds_the_tuned_entries_only(self):
        params = {n: tune.classical_param(self.classical, n)
                  for n in ("classical.threat_own.2", "classical.threat_block_percent")}
        values = {"classical.threat_own.2": 301.6, "classical.threat_block_percent": 140,
                  "lmr_scale": 0.5}
        table = tomllib.loads(tune.classical_table(self.classical, params, values))["classical"]
        want = dict(self.file["classical"])
        want["threat_own"] = list(want["threat_own"])
        want["threat_own"][2] = 302
        want["threat_block_percent"] = 100  # clamped to its range
        self.assertEqual(table, want)
        self.assertEqual(tune.classical_table(self.classical, params, {"lmr_scale": 1}), "")

    def test_engine_reads_the_candidate_and_apply_keeps_the_comments(self):
        params = tune.read_params(ENGINE, None)
        params["classical.threat_opponent.3"] = tune.classical_param(
            self.classical, "classical.threat_opponent.3")
        values = {"classical.threat_opponent.3": 250, "lmr_scale": 0.8}
        table = tune.search_table(params, values)
        self.assertNotIn("classical.", table)
        ctable = tune.classical_table(self.classical, params, values)
        original = open(CONFIG).read()
        with tempfile.TemporaryDirectory() as d:
            candidate = os.path.join(d, "candidate.toml")
            with open(candidate, "w") as f:
                f.write(tune.with_search("[engine]\nthreads = 1\n\n[search]\nlmr_scale = 2\n",
                                         table + ctable))
            text = open(candidate).read()
            self.assertEqual(text.count("[search]"), 1)
            self.assertEqual(text.count("[classical]"), 1)
            self.assertIn("threads = 1", text)
            self.assertTrue(engine_accepts(candidate))
            self.assertIn("lmr_scale = 0.8", subprocess.run(
                [ENGINE, "--config", candidate, "params"], capture_output=True, text=True).stdout)

            applied = os.path.join(d, "config.toml")
            with open(applied, "w") as f:
                f.write(tune.apply_tables(original, table + ctable))
            new = open(applied).read()
            self.assertTrue(engine_accepts(applied))
            changed = [(a, b) for a, b in zip(original.splitlines(), new.splitlines()) if a != b]
            self.assertEqual(len(original.splitlines()), len(new.splitlines()))
            self.assertEqual(sorted(b.split(" = ")[0] for _, b in changed),
                             ["lmr_scale", "threat_opponent"])
            parsed = tomllib.loads(new)
            self.assertEqual(parsed["classical"]["threat_opponent"][3], 250)
            self.assertEqual(parsed["search"]["lmr_scale"], 0.8)
            self.assertEqual(parsed["nnue"], self.file["nnue"])


class RuleParams(unittest.TestCase):
    """RULE.KEY: a [search] value for one rule, in its [search.RULE] table."""

    def setUp(self):
        self.params = tune.read_params(ENGINE, None)
        with open(CONFIG, "rb") as f:
            self.file = tomllib.load(f)

    def test_names(self):
        fs = self.file["search"]["freestyle"]
        p = self.params["freestyle.razor_base"]
        self.assertEqual(p["value"], fs["razor_base"])
        self.assertEqual((p["lo"], p["hi"]), (self.params["razor_base"]["lo"],
                                              self.params["razor_base"]["hi"]))
        self.assertNotEqual(p["value"], self.params["razor_base"]["value"])
        self.assertNotIn("renju.lmr_scale", self.params)
        self.assertTrue(tune.add_rule_param(self.params, "renju.lmr_scale"))
        self.assertEqual(self.params["renju.lmr_scale"]["value"], self.params["lmr_scale"]["value"])
        for bad in ("gomoku.lmr_scale", "renju.nothing", "renju", "nothing", "renju.lmr_scale.1"):
            self.assertFalse(tune.add_rule_param(self.params, bad), bad)
        self.assertTrue(tune.add_rule_param(self.params, "lmr_scale"))

    def test_engine_reads_the_candidate_and_apply_adds_missing_keys(self):
        tune.add_rule_param(self.params, "renju.lmr_scale")
        values = {"freestyle.futility_per_depth": 70.4, "renju.lmr_scale": 0.6, "lmr_scale": 0.8}
        table = tune.search_table(self.params, values)
        parsed = tomllib.loads(table)["search"]
        self.assertEqual(parsed["futility_per_depth"], self.file["search"]["futility_per_depth"])
        self.assertEqual(parsed["freestyle"]["futility_per_depth"], 70.4)
        self.assertEqual(parsed["freestyle"]["razor_base"], self.file["search"]["freestyle"]["razor_base"])
        self.assertEqual(parsed["renju"]["lmr_scale"], 0.6)
        self.assertEqual(parsed["lmr_scale"], 0.8)
        self.assertEqual([n for n, _ in tune.split_sections(table)],
                         ["search", "search.freestyle", "search.standard", "search.renju"])
        original = open(CONFIG).read()
        with tempfile.TemporaryDirectory() as d:
            candidate = os.path.join(d, "candidate.toml")
            with open(candidate, "w") as f:
                f.write(tune.with_search(original, table))
            self.assertTrue(engine_accepts(candidate))
            shown = subprocess.run([ENGINE, "--config", candidate, "params"], capture_output=True,
                                   text=True).stdout
            renju = shown[shown.index("[search.renju]"):]
            self.assertIn("lmr_scale = 0.6", renju)
            self.assertIn("futility_per_depth = 70.4", shown[shown.index("[search.freestyle]"):])
            text = open(candidate).read()
            for section in ("[search]", "[search.freestyle]", "[search.renju]", "[classical]"):
                self.assertEqual(text.count("\n" + section + "\n"), 1, section)

            applied = os.path.join(d, "config.toml")
            new = tune.apply_tables(original, table)
            with open(applied, "w") as f:
                f.write(new)
            self.assertTrue(engine_accepts(applied))
            changed = [b for a, b in zip(original.splitlines(), new.splitlines()) if a != b]
            self.assertEqual(len(new.splitlines()), len(original.splitlines()) + 1)
            after = tomllib.loads(new)["search"]
            self.assertEqual(after["freestyle"]["futility_per_depth"], 70.4)
            self.assertEqual(after["standard"], self.file["search"]["standard"])
            self.assertEqual(after["renju"]["lmr_scale"], 0.6)
            self.assertEqual(after["lmr_scale"], 0.8)
            self.assertEqual(after["futility_per_depth"], self.file["search"]["futility_per_depth"])
            self.assertIn("lmr_scale = 0.8", changed[0])


class StuckIteration(unittest.TestCase):
    """An iteration whose c-gomoku-cli never ends is stopped; the games it finished count."""

    def run_fake(self, body):
        with tempfile.TemporaryDirectory() as d:
            cli = os.path.join(d, "fake-cli")
            with open(cli, "w") as f:
                # Writes the PGN named after -pgn (the last argument), then hangs.
                f.write("#!/bin/sh\nfor a; do pgn=$a; done\n" + body + "exec sleep 60\n")
            os.chmod(cli, 0o755)
            args = argparse.Namespace(workdir=d, cli=cli, tc="0/0.1", engine="pbrain-moku",
                                      rule=0, size=15, pairs=1, concurrency=1, openings="x",
                                      iteration_timeout=0.5)
            return tune.play(args, "plus.toml", "minus.toml", 1)

    def test_nothing_finished(self):
        w, l, d, trouble = self.run_fake("")
        self.assertEqual((w, l, d), (0, 0, 0))
        self.assertIn("stopped after 0.5 s", trouble[0])

    def test_finished_games_count(self):
        game = '[Event "1"]\\n[Black "plus"]\\n[White "minus"]\\n[Result "0-1"]\\n\\n0-1\\n'
        w, l, d, trouble = self.run_fake(f"printf '{game}' > \"$pgn\"\n")
        self.assertEqual((w, l, d), (1, 0, 0))
        self.assertEqual(len(trouble), 1)


if __name__ == "__main__":
    unittest.main()
