"""tango.habitat_compat: `import habitat` works without habitat-sim, and nothing is faked when it is installed."""

from __future__ import annotations

import subprocess
import sys
import textwrap


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
