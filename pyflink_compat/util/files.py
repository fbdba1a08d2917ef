"""Writing a file so that a reader sees the old content or the new, never a part."""
import os


def write_atomically(path: str, data, binary: bool = False) -> None:
    """Write ``data`` (text, or bytes with ``binary``) to a file of this process beside ``path``, then rename
    it over ``path``. The staging name carries the process id: two processes writing the same path never
    write into one staging file."""
    staging = "%s.%d.tmp" % (path, os.getpid())
    with open(staging, "wb" if binary else "w") as f:
        f.write(data)
    os.replace(staging, path)
