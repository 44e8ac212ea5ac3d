"""Tests of scripts/match.py's counting: W-L-D from a PGN file (games lost before the first move
left out) and the per-engine failures read from c-gomoku-cli's messages."""

import argparse
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import match  # noqa: E402


def pgn_game(n, black, white, result, termination, plies):
    return (f'[Event "{n}"]\n[Black "{black}"]\n[White "{white}"]\n[Result "{result}"]\n'
            f'[Termination "{termination}"]\n[PlyCount "{plies}"]\n{result}\n\n')


class Summarize(unittest.TestCase):
    def test_counts_and_failures_before_the_first_move(self):
        # c-gomoku-cli writes "0-1" for a black win and "1-0" for a white win.
        games = [
            pgn_game(1, "moku", "rapfi", "0-1", "Black win by five connection", 30),
            pgn_game(2, "rapfi", "moku", "0-1", "Black win by five connection", 41),
            pgn_game(3, "rapfi", "moku", "1-0", "White win by five connection", 22),
            pgn_game(4, "moku", "rapfi", "1/2-1/2", "Draw by board full", 225),
            pgn_game(5, "moku", "rapfi", "1-0", "White win by time forfeit", 0),
            pgn_game(6, "rapfi", "moku", "0-1", "Black win by time forfeit", 17),
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write("".join(games))
        try:
            w, l, d, trouble = match.summarize(f.name, "moku")
        finally:
            os.remove(f.name)
        # Wins: 1 (black), 3 (white); losses: 2, 6 (a forfeit during the game counts); draw: 4.
        self.assertEqual((w, l, d), (2, 2, 1))
        self.assertEqual(len(trouble), 2)
        self.assertIn("not counted", trouble[0])
        self.assertIn("game 6", trouble[1])
        self.assertNotIn("not counted", trouble[1])


class Failures(unittest.TestCase):
    def test_each_kind_is_named_with_its_engine(self):
        lines = [
            "[1] Started game 1 of 200 (moku vs rapfi)\n",
            "[2] engine rapfi output error: Unknown command: 15\n",
            # A stdout line cut by a stderr message when both went to one file.
            "Sta[1] engine rapfi output error: Unknown command: 15\n",
            "[2] engine rapfi timeout at 0 moves after opening\n",
            "[1] engine moku timeout before answering START\n",
            "[1] engine moku crashed at 12 moves after opening\n",
            "[2] engine other output illegal move at 3 moves after opening: 7,7\n",
            "Score of moku vs rapfi: 1 - 2 - 0  [0.333] 3\n",
        ]
        self.assertEqual(match.failures(lines), {
            "rapfi": {"answered ERROR to START (Unknown command: 15)": 2, "moved out of time": 1},
            "moku": {"did not answer START in time": 1, "crashed": 1},
            "other": {"played an illegal move": 1},
        })

    def test_no_failures(self):
        self.assertEqual(match.failures(["[1] Started game 1 of 2 (a vs b)\n", "Elo: 0\n"]), {})


class Command(unittest.TestCase):
    def args(self, **kw):
        base = dict(cli="cgc", engine="moku-bin", name="moku", opponent="rapfi-bin", opp_name="rapfi",
                    rule=0, size=15, tc="0/0.5", engine_tc=None, opp_tc=None, games=20,
                    concurrency=2, seed=7, option=[], engine_option=[], opp_option=[],
                    pgn="m.pgn", sgf=None, sprt=None)
        base.update(kw)
        return argparse.Namespace(**base)

    def engines(self, cmd):
        """Each -engine's arguments, up to the next option that starts with '-'."""
        out = []
        for i, a in enumerate(cmd):
            if a == "-engine":
                j = i + 1
                while j < len(cmd) and not cmd[j].startswith("-"):
                    j += 1
                out.append(cmd[i + 1:j])
        return out

    def test_both_engines_get_the_time_control(self):
        cmd = match.cli_command(self.args(), "open.txt")
        self.assertNotIn("-each", cmd)
        moku, rapfi = self.engines(cmd)
        self.assertIn("tc=0/0.5", moku)
        self.assertIn("tc=0/0.5", rapfi)

    def test_time_odds_and_options(self):
        # -each would override an engine's own tc, so it carries only the shared options.
        cmd = match.cli_command(self.args(engine_tc="0/0.75", option=["rule=0"],
                                          opp_option=["max_memory=1"]), "open.txt")
        self.assertEqual(cmd[1:3], ["-each", "option.rule=0"])
        moku, rapfi = self.engines(cmd)
        self.assertEqual(moku, ["name=moku", "cmd=moku-bin", "tc=0/0.75"])
        self.assertEqual(rapfi, ["name=rapfi", "cmd=rapfi-bin", "tc=0/0.5", "option.max_memory=1"])


if __name__ == "__main__":
    unittest.main()
