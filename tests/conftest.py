import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402
import torch  # noqa: E402


@pytest.fixture
def one_thread():
    """Run a test on one intra-op thread (bitwise-reproducible CPU results), then restore."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


@pytest.fixture
def restore_torch_globals():
    """Restore torch's thread count and deterministic-algorithms flag after a test that runs the
    CLI in-process (``companion train`` sets both)."""
    threads, det = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    yield
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(det)
