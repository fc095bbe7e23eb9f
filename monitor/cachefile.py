"""Cache files written atomically: the golden embeddings, the HNSW graph and the ONNX
exports live in a cache directory that several processes (workers on one machine, a
test's two workers) may fill at once. Each writer writes its own temporary file next to
the target and renames it into place, so a reader sees the old file or a whole new one,
and two writers never share a temporary file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from monitor.errors import ConfigError


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write`` with a fresh temporary path in ``path``'s folder, then rename it to
    ``path`` (the folder is created); the temporary file is removed on failure. A cache
    path that cannot be written (a folder in its place, a parent that is a file, no
    permission) is a :class:`ConfigError` naming ``path``, not the temporary file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise ConfigError(f"cannot write the cache file {path}: {exc.strerror or exc}") from exc
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the file from other users
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"cannot write the cache file {path}: {exc.strerror or exc}") from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
