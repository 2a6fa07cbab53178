"""The Linux calls a page's box is made of that Python's os module lacks: mount, mount_setattr,
capabilities and the loopback interface. Each raises OSError with the call's errno."""
from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct

_libc = ctypes.CDLL(None, use_errno=True)

# Python 3.12 has os.unshare and these; the engine runs on 3.11 too.
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x20000, 0x4000000, 0x8000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 0x40000
MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID = 0x1, 0x2
_AT_FDCWD, _AT_RECURSIVE = -100, 0x8000
_SYS_MOUNT_SETATTR = 442  # the same number on every architecture (the generic table)
_SYS_CAPSET = {"x86_64": 126, "aarch64": 91}.get(os.uname().machine)
_PR_SET_PDEATHSIG, _PR_SET_CHILD_SUBREAPER, _PR_CAPBSET_DROP, _PR_SET_SECUREBITS, _PR_SET_NO_NEW_PRIVS = 1, 36, 24, 28, 38
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
_SECBIT_LOCKED_ALL = 0x3F  # noroot, no_setuid_fixup, keep_caps: set and locked
_CAP_LAST = 63


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _path(path: str | None) -> bytes | None:
    return None if path is None else os.fsencode(path)


def unshare(flags: int) -> None:
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(_libc.mount(_path(source), _path(target), _path(fstype), ctypes.c_ulong(flags), _path(data)),
           f"mount {target}")


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]


def mount_setattr(target: str, attr_set: int = 0, attr_clr: int = 0, recursive: bool = True) -> None:
    """Sets mount flags on the mount at target and, recursive, on every mount below it, at once."""
    attr = _MountAttr(attr_set, attr_clr, 0, 0)
    _check(_libc.syscall(_SYS_MOUNT_SETATTR, _AT_FDCWD, _path(target), _AT_RECURSIVE if recursive else 0,
                         ctypes.byref(attr), ctypes.sizeof(attr)), f"mount_setattr {target}")


def prctl(option: int, value: int, what: str) -> None:
    _check(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0), what)


def die_with_parent(signal_number: int) -> None:
    prctl(_PR_SET_PDEATHSIG, signal_number, "prctl(PR_SET_PDEATHSIG)")


def become_subreaper() -> bool:
    """Orphaned descendants are then reparented to us, to be killed."""
    return _libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """No capability now or after any exec, and no way to gain one (setuid binaries included): the
    process keeps its user id but none of the powers of root."""
    for cap in range(_CAP_LAST + 1):
        if _libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() != 22:  # EINVAL: no such cap
            _check(-1, f"prctl(PR_CAPBSET_DROP, {cap})")
    _check(_libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "prctl(PR_CAP_AMBIENT)")
    prctl(_PR_SET_SECUREBITS, _SECBIT_LOCKED_ALL, "prctl(PR_SET_SECUREBITS)")
    header, data = _CapHeader(0x20080522, 0), (_CapData * 2)()
    if _SYS_CAPSET is None:
        raise OSError(38, f"capset: unknown on {os.uname().machine}")
    _check(_libc.syscall(_SYS_CAPSET, ctypes.byref(header), ctypes.byref(data)), "capset")
    prctl(_PR_SET_NO_NEW_PRIVS, 1, "prctl(PR_SET_NO_NEW_PRIVS)")


_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1


def loopback_up() -> None:
    """Brings up `lo` of a fresh network namespace: pages may talk to themselves, and to nothing else."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s, _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))
