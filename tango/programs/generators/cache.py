"""On-disk cache of generated programs keyed by (generator, model, prompt hash, instruction): reruns make no
model calls. One JSON file per key, written atomically."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from tango.programs.generators.record import GenerationRecord

logger = logging.getLogger(__name__)


def cache_key(generator: str, model: str, prompt_hash: str, instruction: str) -> str:
    payload = json.dumps([generator, model, prompt_hash, instruction], ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


class ProgramCache:
    """A folder of `{key}.json` records."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> GenerationRecord | None:
        """The cached record, or None when absent; an unreadable entry is reported and treated as absent."""
        path = self._path(key)
        if not path.is_file():
            return None
        try:
            return GenerationRecord.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as error:
            logger.warning("ignoring unreadable program cache entry %s: %s", path, error)
            return None

    def put(self, key: str, record: GenerationRecord) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self._path(key)
        temporary = path.with_suffix(f".tmp{os.getpid()}")
        temporary.write_text(json.dumps(record.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(temporary, path)
