"""Shared paths and helpers of the trainer's tests (training/tests)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINING = os.path.dirname(HERE)
ROOT = os.path.dirname(TRAINING)
sys.path.insert(0, TRAINING)

DATA_DIR = os.environ.get("MOKU_TEST_DATA_DIR", os.path.join(ROOT, "tests", "data"))


def engine_path():
    """pbrain-moku: $MOKU_ENGINE (CTest sets it), else build/pbrain-moku if it exists."""
    p = os.environ.get("MOKU_ENGINE") or os.path.join(ROOT, "build", "pbrain-moku")
    return p if os.path.isfile(p) and os.access(p, os.X_OK) else None
