"""The watched render process of the fuzz test: ``depyf-report DUMP -o SITE`` under an
audit hook.

    python -I -B fuzz_child.py AUDIT_LOG CONFIG_JSON DUMP -o SITE --no-progress

The hook logs, one tab-separated line each, every open of a path outside
``config["read"]``, every write or change outside ``config["write"]``, every listing
outside ``config["read"]`` and every blocking open of something that is not a regular
file or folder. Symlinks are resolved, so a link out of the dump counts as outside.
If the render is still running after ``config["hang_after"]`` seconds, faulthandler
prints every thread's stack to stderr. Stdlib only: it imports nothing of the tests.
"""

import faulthandler
import json
import os
import stat
import sys

WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# Audit events that change the file system, and which of their arguments are paths.
CHANGES = {
    "os.mkdir": (0,),
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.chmod": (0,),
    "os.utime": (0,),
    "os.truncate": (0,),
    "os.rename": (0, 1),
    "os.link": (1,),
    "os.symlink": (1,),
    "shutil.rmtree": (0,),
    "shutil.copyfile": (1,),
    "shutil.move": (1,),
}


class Watcher:
    def __init__(self, log, read: list[str], write: list[str]):
        self.log, self.read, self.write = log, tuple(read), tuple(write)
        self.busy = False

    def __call__(self, event: str, args: tuple) -> None:
        if self.busy:
            return
        self.busy = True
        try:
            self.check(event, args)
        except Exception as error:  # never let the watcher break what it watches
            self.note("audit hook error", event, repr(error))
        finally:
            self.busy = False

    def check(self, event: str, args: tuple) -> None:
        if event == "open":
            self.check_open(*args)
        elif event in ("os.listdir", "os.scandir"):
            target = _real(args[0] if args[0] is not None else ".")
            if target is not None and not _within(target, self.read):
                self.note("listed a folder outside the dump", repr(args[0]), target)
        elif event in CHANGES and not (len(args) > 2 and isinstance(args[-1], int)):
            for i in CHANGES[event]:  # (a path relative to a dir_fd cannot be placed)
                target = _real(args[i])
                if target is not None and not _within(target, self.write):
                    self.note("write outside the site", f"{event} {args[i]!r}", target)

    def check_open(self, path, mode, flags) -> None:
        flags = flags if isinstance(flags, int) and flags >= 0 else 0
        target = _real(path)
        if target is None:
            return
        if flags & os.O_NOFOLLOW:  # a link as the last part fails to open: not followed
            name = os.path.abspath(os.fsdecode(path))
            target = os.path.join(os.path.realpath(os.path.dirname(name)), os.path.basename(name))
        writes = any(c in (mode or "") for c in "wax+") or bool(flags & WRITES)
        if writes and not _within(target, self.write):
            self.note("write outside the site", repr(path), target)
        elif not writes and not _within(target, self.read):
            self.note("read outside the dump", repr(path), target)
        elif not writes and not flags & os.O_NONBLOCK and os.path.exists(target):
            kind = os.stat(target).st_mode
            if not (stat.S_ISREG(kind) or stat.S_ISDIR(kind) or target.startswith("/dev/")):
                self.note("opened a non-regular file", repr(path), target)

    def note(self, what: str, path: str, target: str) -> None:
        self.log.write(f"{what}\t{path}\t{target}\n")


def _real(path) -> str | None:
    if path is None or isinstance(path, int):
        return None
    try:
        return os.path.realpath(os.path.abspath(os.fsdecode(path)))
    except (TypeError, ValueError):
        return None


def _within(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def main() -> int:
    log_path, config, argv = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
    log = open(log_path, "w", buffering=1)  # noqa: SIM115 (open until the process ends)
    # Opened before the hook, which would count them as reads and writes of render's.
    status = os.open("/proc/self/status", os.O_RDONLY)
    peak = os.open(config["peak"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    faulthandler.dump_traceback_later(config["hang_after"], exit=False)
    sys.path[:0] = config["path"]
    sys.addaudithook(Watcher(log, config["read"], config["write"]))
    sys.argv = ["depyf-report", *argv]
    from depyf_report.cli import main as cli  # after the hook, so its imports are watched

    try:
        return cli(argv)
    finally:
        faulthandler.cancel_dump_traceback_later()
        os.write(peak, _peak_kb(status).encode())


def _peak_kb(status: int) -> str:
    """This process's own peak memory (VmHWM). The rusage a parent reads keeps the
    high mark of the process it was forked from (pytest, with torch loaded), even
    after exec."""
    text = os.pread(status, 1 << 16, 0).decode()
    return next(line.split()[1] for line in text.splitlines() if line.startswith("VmHWM:"))


if __name__ == "__main__":
    raise SystemExit(main())
