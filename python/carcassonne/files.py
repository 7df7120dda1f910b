"""Files the package reads and writes, under one set of rules.

Reading (specs, records, results, manifests): regular files only, opened without blocking
(a FIFO or a device is refused, never waited on), the size checked before reading against
a limit per kind of file, JSON nesting bounded before parsing, duplicate keys refused, and
any quote of the input in a message bounded (``quote``).

Writing: a file is written to a temporary file in its own directory and renamed over the
target (``os.replace``), so a reader sees the old file or the new one, never half of one,
and an error leaves the target as it was. A target that is one of the inputs (the same
file by any path, symbolic or hard link) is refused before anything is written, and so is
a directory no file can be written in (``probe_directory``: a file is made there and
removed, as the permission bits do not tell; root passes them everywhere).

A path with a NUL byte names no file: it is refused with the reader's or writer's error,
like any other path that cannot be opened.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

from carcassonne._core import CarcassonneError

__all__ = [
    "InputFileError",
    "MAX_JSON_DEPTH",
    "OutputFileError",
    "check_input",
    "check_output",
    "cut",
    "load_json",
    "probe_directory",
    "quote",
    "read_input",
    "write_atomically",
    "write_text_atomically",
]

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects a JSON or TOML input may have (the package's own
files nest four deep)."""

QUOTE_CHARS = 60
"""Longest quote of an input in a message."""


class OutputFileError(CarcassonneError):
    """An output file that cannot or must not be written (it is an input, its directory is
    missing or not writable); the message names the file."""


class InputFileError(CarcassonneError):
    """An input file that cannot be read: missing, not a regular file, too large, not
    text; the message names the file. Each reader raises its own documented subclass of
    ValueError (``StudyError``, ``ResultsFileError``...) with this message."""


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with its length said when it is cut."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}… ({len(text)} characters)"


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """``repr(value)``, cut to ``limit`` characters with the length said."""
    return cut(repr(value), limit)


def _check_kind(name: str, info: os.stat_result, error: Callable[[str], Exception], what: str) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{name}: cannot read the {what}: it is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{name}: cannot read the {what}: not a regular file (a FIFO, socket or device)")


def check_input(
    path: str | os.PathLike[str], error: Callable[[str], Exception] = InputFileError, what: str = "file"
) -> os.stat_result:
    """Checks, without opening it, that ``path`` is an existing regular file (symbolic links
    followed), for a reader that opens the file itself (pyarrow); ``error(message)``
    otherwise. Returns its status."""
    name = os.fspath(path)
    _check_name(name, error, f"cannot read the {what}")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except OSError as e:
        raise error(f"{name}: cannot read the {what}: {e.strerror or e}") from None
    _check_kind(name, info, error, what)
    return info


def _check_name(name: str, error: Callable[[str], Exception], doing: str) -> None:
    """Refuses a path with a NUL byte (the system calls raise a bare ``ValueError`` for
    it), quoted so that the byte shows in the message."""
    if "\0" in name:
        raise error(f"{quote(name, 300)}: {doing}: the path has a NUL byte")


def read_input(
    path: str | os.PathLike[str],
    limit: int,
    error: Callable[[str], Exception] = InputFileError,
    what: str = "file",
) -> bytes:
    """The bytes of the regular file ``path`` (symbolic links followed), at most ``limit``
    of them; ``error(message)`` is raised, the message naming the file, for anything else."""
    name = os.fspath(path)
    _check_name(name, error, f"cannot read the {what}")
    try:
        # O_NONBLOCK: opening a FIFO with no writer would wait forever.
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(f"{name}: cannot read the {what}: no such file") from None
    except OSError as e:
        raise error(f"{name}: cannot read the {what}: {e.strerror or e}") from None
    try:
        info = os.fstat(fd)
        _check_kind(name, info, error, what)
        if info.st_size > limit:
            raise error(f"{name}: {info.st_size} bytes, more than the {limit} a {what} may have")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise error(f"{name}: cannot read the {what}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while being read
        raise error(f"{name}: more than the {limit} bytes a {what} may have")
    return data


def read_text_input(
    path: str | os.PathLike[str],
    limit: int,
    error: Callable[[str], Exception] = InputFileError,
    what: str = "file",
) -> str:
    """``read_input`` decoded as UTF-8 (a byte that is not: ``error`` naming its offset)."""
    data = read_input(path, limit, error, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{os.fspath(path)}: not UTF-8 text (byte {e.start}): not a {what}") from None


def json_depth(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped), found
    without parsing: checked before ``json.loads``, which recurses once per level."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def load_json(
    text: str | bytes,
    where: str,
    error: Callable[[str], Exception] = InputFileError,
    max_depth: int = MAX_JSON_DEPTH,
) -> Any:
    """``json.loads`` with the input rules: nesting at most ``max_depth``, no key given
    twice in one object, and ``error`` naming ``where`` for anything refused."""
    if json_depth(text) > max_depth:
        raise error(f"{where} is nested more than {max_depth} deep")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as e:
        raise error(f"{where}: key {quote(e.key)} is given twice in one object") from None
    except (ValueError, RecursionError) as e:
        raise error(f"{where} is not valid JSON: {e}") from None


def checksum(doc: dict[str, Any]) -> str:
    """The SHA-256 (hex) of ``doc`` without its ``checksum`` field, as canonical JSON (keys
    sorted, separators ``,`` and ``:``, ASCII, no NaN): what a data file that refuses
    hand edits (a ladder, a weights file) stores in its ``checksum`` field.
    ``ValueError`` for a NaN or infinite number."""
    content = {k: v for k, v in doc.items() if k != "checksum"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def probe_directory(directory: str | os.PathLike[str]) -> str | None:
    """Whether a file can be written in ``directory``, asked of the file system: a file of
    a unique hidden name is made there, a byte written to it, and the file removed. None
    if it could, else why not. ``os.access`` answers from the permission bits alone, which
    root passes everywhere: a read-only mount, ``/proc`` or a full disk would only refuse
    the output once the games it holds were played."""
    where = os.fspath(directory)
    try:
        fd, probe = tempfile.mkstemp(prefix=".", suffix=".probe", dir=where)
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the name
        return f"cannot create a file in {quote(where) if isinstance(e, ValueError) else where}: {_why(e)}"
    failure: OSError | None = None
    try:
        os.write(fd, b"\n")
    except OSError as e:
        failure = e
    finally:
        try:
            os.close(fd)  # a file system may report a failed write only here
        except OSError as e:
            failure = failure or e
        try:
            os.unlink(probe)
        except OSError:
            pass
    return None if failure is None else f"cannot write a file in {where}: {_why(failure)}"


def _why(e: Exception) -> str:
    """The reason an ``OSError`` gives, without its errno and path."""
    return (e.strerror if isinstance(e, OSError) else None) or str(e)


def check_output(
    path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = (), what: str = "file"
) -> str:
    """Checks, before anything is played or computed, that ``path`` may be written: not
    one of ``inputs`` (by any link), not a directory or special file, in an existing
    directory this process can write a file in (``probe_directory``). Returns the path;
    ``OutputFileError`` otherwise."""
    target = _check_target(path, inputs, what)
    reason = probe_directory(os.path.dirname(os.path.abspath(target)))
    if reason is not None:
        raise OutputFileError(f"{target}: cannot write the {what}: {reason}")
    return target


def _check_target(path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]], what: str) -> str:
    """``check_output`` without its probe: for a writer, whose own temporary file, made
    next, is one."""
    target = os.fspath(path)
    _check_name(target, OutputFileError, f"cannot write the {what}")
    for given in inputs:
        if _same_file(target, given):
            raise OutputFileError(
                f"{target}: would overwrite its input file {os.fspath(given)}; choose another output file"
            )
    if os.path.isdir(target):
        raise OutputFileError(f"{target}: cannot write the {what}: it is a directory")
    if os.path.lexists(target) and not os.path.isfile(target):
        raise OutputFileError(f"{target}: cannot write the {what}: not a regular file")
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        raise OutputFileError(f"{target}: cannot write the {what}: no directory {directory}")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise OutputFileError(f"{target}: cannot write the {what}: the directory {directory} is not writable")
    return target


def write_atomically(
    path: str | os.PathLike[str],
    write: Callable[[str], None],
    inputs: Iterable[str | os.PathLike[str]] = (),
    what: str = "file",
) -> None:
    """Calls ``write(temporary_path)`` to fill a new file beside ``path``, then renames it
    over ``path``; refuses what ``check_output`` refuses. An error (``OSError`` as
    ``OutputFileError``) leaves ``path`` as it was and no temporary file behind."""
    target = _check_target(path, inputs, what)
    directory = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=directory)
    except OSError as e:
        raise OutputFileError(f"{target}: cannot write the {what}: {e.strerror or e}") from None
    os.close(fd)
    try:
        write(tmp)
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
            raise OutputFileError(f"{target}: cannot write the {what}: {e.strerror or e}") from None
        raise


def write_text_atomically(
    path: str | os.PathLike[str], text: str, inputs: Iterable[str | os.PathLike[str]] = (), what: str = "file"
) -> None:
    """Writes ``text`` (UTF-8) to ``path`` with ``write_atomically``."""

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)

    write_atomically(path, write, inputs, what)
