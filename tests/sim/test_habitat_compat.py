"""tango.habitat_compat: `import habitat` works without habitat-sim, and nothing is faked when it is installed."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def _run(code: str, tmp_path=None) -> subprocess.CompletedProcess:
    env_path = [str(tmp_path)] if tmp_path is not None else []
    prelude = f"import sys; sys.path[:0] = {env_path!r}\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_habitat_imports_with_placeholders_only_when_needed() -> None:
    result = _run(
        """
        import importlib.util
        assert importlib.util.find_spec("habitat_sim") is None
        from tango.habitat_compat import ensure_habitat_importable, habitat_sim_available
        ensure_habitat_importable()
        ensure_habitat_importable()
        import habitat
        from habitat.tasks.nav.object_nav_task import ObjectNavigationTask
        assert not habitat_sim_available()
        print("ok", habitat.__version__)
        """
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("ok")


def test_real_habitat_sim_is_left_alone(tmp_path) -> None:
    (tmp_path / "habitat_sim").mkdir()
    (tmp_path / "habitat_sim" / "__init__.py").write_text("REAL = True\n")
    result = _run(
        """
        import sys
        from tango.habitat_compat import _PlaceholderFinder, ensure_habitat_importable, habitat_sim_available
        ensure_habitat_importable()
        assert habitat_sim_available()
        assert not any(isinstance(f, _PlaceholderFinder) for f in sys.meta_path)
        import habitat_sim
        assert habitat_sim.REAL
        print("ok")
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]


@pytest.mark.parametrize(
    "first_import",
    # every tango module that imports gym, each as the first import of a fresh process (the training env reaches
    # gym through habitat_sim, which once imported gym before silencing it)
    [
        "tango.sim.habitat_env",
        "tango.sim.habitat_sim",
        "tango.sim.habitat_sensors",
        "tango.navigation.train.env",
    ],
)
def test_no_gym_banner_when_habitat_comes_through_tango(first_import: str) -> None:
    bare = _run("import gym")  # gym_notices' table names this gym version: the banner shows without tango
    through_tango = _run(f"import {first_import}, gym, habitat; print('ok')")
    assert through_tango.returncode == 0, through_tango.stderr[-2000:]
    assert "Gym has been unmaintained" in bare.stderr
    assert "Gym has been unmaintained" not in through_tango.stderr


def test_habitat_maps_load_under_opencv_5s_row_colour_maps() -> None:
    """OpenCV 5's applyColorMap colours a 1-D array as a (1, N, 3) row (simulated here on OpenCV 4); habitat-lab's
    maps.py squeezes axis 1 and fails without the shim, with it gets OpenCV 4's table."""
    result = _run(
        """
        import cv2, numpy as np
        opencv4 = cv2.applyColorMap
        jet = opencv4(np.arange(246, dtype=np.uint8).reshape(-1, 1), cv2.COLORMAP_JET)[:, 0, ::-1]
        def opencv5(src, *args):
            out = opencv4(np.asarray(src).reshape(-1, 1) if np.ndim(src) == 1 else src, *args)
            return out.reshape(1, -1, 3) if np.ndim(src) == 1 else out
        cv2.applyColorMap = opencv5
        from tango.habitat_compat import colormap_takes_1d_as_row, ensure_habitat_importable
        assert colormap_takes_1d_as_row()
        ensure_habitat_importable()
        from habitat.utils.visualizations import maps
        assert (maps.TOP_DOWN_MAP_COLORS[10:] == jet).all()
        assert cv2.applyColorMap is opencv5  # only while maps.py loaded
        print("ok")
        """
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]
