"""Models load after the simulator's EGL context exists (torchvision.ops and open_clip import triton, whose LLVM
crashed beside Mesa llvmpipe's when it came second)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
from tango.sim.render import create_gl_context
context = create_gl_context()
import torchvision.ops
import open_clip
print("imported")
"""


def test_model_libraries_import_after_gl_context() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "imported" in result.stdout
