"""Output files written whole or not at all: exports, selections, task files, dataset folders.

Every file a command writes for the user (``tau-sim export --out``, ``tracer filter|construct|
export --out``) goes through ``atomic_output`` (one file) or ``write_outputs`` (several, e.g. a
dataset's ``train.jsonl`` and ``README.md``): the bytes go to a temporary file beside the target
(``.NAME.XXXXXXXX.tmp``, same folder, so same file system), which is flushed, ``fsync``-ed and
renamed onto the target only when complete; the folder is ``fsync``-ed after the rename.

- An existing target is refused before a byte is written (``UsageError``, exit 2, naming the path
  and ``--force``) unless ``force``: a non-empty file, and any symbolic link (never followed:
  ``--force`` replaces the link itself, its target is left alone). An empty file holds nothing to
  lose and is replaced (``out=$(mktemp)`` works). Without ``force`` a target that appears while
  writing is still not overwritten: the finished file is hard-linked into place, which fails if
  the name is taken (where the file system has no hard links, the name is checked again).
- A device or FIFO (``/dev/null``, a named pipe) is written to directly; it is never replaced.
- A write that fails (full disk, I/O error, read-only file system, permission) is a
  ``StoreError`` (exit 1): one line naming the path and the cause. A path that cannot name a
  file (no such folder, a directory, a name too long) is a ``UsageError`` (exit 2). Either way
  the previous file is intact, the temporary file is removed and so are the folders the write
  created.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from tau_sim.simulator.core.errors import StoreError, UsageError

_FAULTS = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EIO: "I/O error",
    errno.EROFS: "read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EFBIG: "file too large",
}
"""Write failures of a usable path: storage faults (exit 1), by ``errno``."""
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV}
_NO_HARD_LINKS.add(getattr(errno, "ENOSYS", errno.ENOTSUP))


def output_fault(path: str | Path, exc: OSError, flag: str = "--out") -> UsageError | StoreError:
    """The one-line error of ``exc`` on writing ``path``: ``FLAG PATH: CAUSE (the OS's words)``.

    A storage fault (``_FAULTS``) is a ``StoreError``; anything else (no such folder, not a
    folder, a name too long) is a ``UsageError``: the path is the problem.
    """
    words = exc.strerror or str(exc)
    cause = _FAULTS.get(exc.errno or 0)
    if cause is not None:
        return StoreError(f"{flag} {path}: {cause} ({words}); left unchanged")
    return UsageError(f"{flag} {path}: cannot write ({words})")


def check_output(
    path: str | Path, *, force: bool = False, flag: str = "--out", folder_needed: bool = True
) -> bool:
    """Whether ``path`` is a device or FIFO (written in place, never replaced).

    ``UsageError`` where it may not be written: a symbolic link or a non-empty file unless
    ``force``, a directory, and (where ``folder_needed``) a path whose folder does not exist.
    """
    path = Path(path)
    try:
        info = path.lstat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise output_fault(path, exc, flag) from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        if not force:
            raise UsageError(
                f"{flag} {path} already exists (a symbolic link, not followed); "
                "pass --force to replace the link"
            )
        return False
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{flag} {path} is a directory; give a file name")
    if info is not None and not stat.S_ISREG(info.st_mode):
        return True
    if info is not None and info.st_size > 0 and not force:
        raise UsageError(f"{flag} {path} already exists; pass --force to replace it")
    if info is None and folder_needed and not path.parent.is_dir():
        raise UsageError(f"{flag} {path}: cannot write (there is no folder {path.parent})")
    return False


def _sweep_leftovers(path: Path) -> None:
    """Remove the temporary files of ``path`` whose writing process no longer exists."""
    prefix = f".{path.name}."
    try:
        siblings = list(path.parent.iterdir())
    except OSError:
        return
    for temp in siblings:
        name = temp.name
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid = name[len(prefix) : -len(".tmp")].partition("-")[0]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        with suppress(OSError):
            temp.unlink()


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Staged:
    """A temporary file beside ``path`` that becomes ``path`` on ``commit``."""

    def __init__(self, path: Path, *, force: bool, flag: str) -> None:
        self.path, self.force, self.flag = path, force, flag
        self.temp: Path | None = None

    def open(self) -> int:
        """Create the temporary file (mode 0666 less the umask, as ``open`` would) and its fd.

        Its name holds this process's pid; the temporary files of ``path`` left by processes
        that are gone (``kill -9`` mid-write) are removed first.
        """
        _sweep_leftovers(self.path)
        while True:
            temp = self.path.with_name(
                f".{self.path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
            )
            try:
                fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                continue
            self.temp = temp
            return fd

    def commit(self) -> None:
        """Rename the finished temporary file onto ``path`` (not over a new one unless forced)."""
        assert self.temp is not None
        if self.force or _replaceable(self.path):
            os.replace(self.temp, self.path)
        else:
            try:
                os.link(self.temp, self.path)
            except FileExistsError:
                raise UsageError(
                    f"{self.flag} {self.path} already exists (it appeared while writing); "
                    "pass --force to replace it"
                ) from None
            except OSError as exc:
                if exc.errno not in _NO_HARD_LINKS:
                    raise
                if os.path.lexists(self.path):
                    raise UsageError(
                        f"{self.flag} {self.path} already exists; pass --force to replace it"
                    ) from None
                os.replace(self.temp, self.path)
            else:
                os.unlink(self.temp)
        self.temp = None

    def discard(self) -> None:
        """Remove the temporary file, if one is left."""
        if self.temp is not None:
            with suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


def _replaceable(path: Path) -> bool:
    """Whether ``path`` is an empty regular file (``check_output`` let it be replaced)."""
    try:
        info = path.lstat()
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == 0


def _sync_folder(folder: Path) -> None:
    """``fsync`` a folder so a rename in it is durable (where the file system allows)."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@contextmanager
def atomic_output(
    path: str | Path, *, force: bool = False, flag: str = "--out"
) -> Iterator[IO[str]]:
    """``path`` opened for writing text (UTF-8, newlines as written), replaced only when whole.

    The block writes to a temporary file; when it ends without an error the file is flushed,
    ``fsync``-ed and renamed onto ``path``. An ``OSError`` of the writes (``output_fault``) or any
    other exception leaves ``path`` as it was and no temporary file. See the module docstring.
    """
    target = Path(path)
    in_place = check_output(target, force=force, flag=flag)
    if in_place:
        try:
            with target.open("w", encoding="utf-8", newline="") as handle:
                yield handle
        except OSError as exc:
            raise output_fault(target, exc, flag) from None
        return
    staged = _Staged(target, force=force, flag=flag)
    try:
        fd = staged.open()
        with open(fd, "w", encoding="utf-8", newline="") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        staged.commit()
    except OSError as exc:
        raise output_fault(target, exc, flag) from None
    finally:
        staged.discard()
    _sync_folder(target.parent)


def write_outputs(
    files: Mapping[Path, bytes],
    *,
    force: bool = False,
    flag: str = "--out",
    make_folders: bool = False,
) -> None:
    """Write each file of ``files`` whole, all staged before the first is renamed into place.

    Every target is checked first (``check_output``); with ``make_folders`` their missing
    folders are created, and removed again when the write fails. A fault while staging
    replaces none of the files.
    """
    for path in files:
        if check_output(path, force=force, flag=flag, folder_needed=not make_folders):
            raise UsageError(f"{flag} {path} is not a regular file")
    created: list[Path] = []
    staged: list[_Staged] = []
    current = Path(".")
    done = False
    try:
        for path, data in files.items():
            current = path
            created.extend(_make_folders(path.parent))
            stage = _Staged(path, force=force, flag=flag)
            staged.append(stage)
            with open(stage.open(), "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        for stage in staged:
            current = stage.path
            stage.commit()
        done = True
    except OSError as exc:
        raise output_fault(current, exc, flag) from None
    finally:
        for stage in staged:
            stage.discard()
        for folder in reversed(created if not done else []):
            with suppress(OSError):
                folder.rmdir()
    for folder in {path.parent for path in files}:
        _sync_folder(folder)


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; returns those created, outermost first."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    missing.reverse()
    for each in missing:
        each.mkdir()
    return missing
