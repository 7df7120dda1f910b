"""Writing output files safely: atomically, and never over an input.

A file is written to a temporary file in its own directory and renamed over the target
(``os.replace``), so a reader sees the old file or the new one, never half of one, and an
error leaves the target as it was. A target that is one of the inputs (the same file, by
any path or hard link) is refused before anything is written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable

__all__ = ["OutputFileError", "write_text_atomically"]


class OutputFileError(ValueError):
    """An output file that cannot or must not be written (it is an input, its directory is
    missing or not writable); the message names the file."""


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def write_text_atomically(
    path: str | os.PathLike[str], text: str, inputs: Iterable[str | os.PathLike[str]] = ()
) -> None:
    """Writes ``text`` (UTF-8) to ``path`` atomically; refuses a ``path`` that is one of
    ``inputs`` or is not a regular file (a directory, a FIFO, a device), with
    ``OutputFileError``."""
    target = os.fspath(path)
    for given in inputs:
        if _same_file(target, given):
            raise OutputFileError(f"{target}: is the input {os.fspath(given)}; choose another output file")
    if os.path.lexists(target) and not os.path.isfile(target):
        raise OutputFileError(f"{target}: not a regular file; choose another output file")
    directory = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=directory)
    except OSError as e:
        raise OutputFileError(f"{target}: cannot write here: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        # A new file's permissions as open() would give it (mkstemp makes it 0600).
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise OutputFileError(f"{target}: cannot write: {e.strerror or e}") from None
        raise
