"""tango.stats is generic: it imports nothing of tango but itself, so any layer may use it."""

from __future__ import annotations

import ast
from pathlib import Path

import tango.stats


def test_the_statistics_import_no_other_tango_module() -> None:
    package = Path(tango.stats.__file__).parent
    found = []
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            found += [
                (path.name, n)
                for n in names
                if n.split(".")[0] == "tango" and not n.startswith("tango.stats")
            ]
    assert len(list(package.glob("*.py"))) >= 3
    assert found == []
