"""Builds ``pyflink-compat-hadoop.jar`` from ``src/`` (needs a JDK 17 and pyspark's Hadoop jar):

    python -m pyflink_compat.jars.build

The jar is committed with its source; its manifest records the source's SHA-256 (a test checks it is current).
"""
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = os.path.join(HERE, "pyflink-compat-hadoop.jar")
SOURCES = os.path.join(HERE, "src")
DIGEST_ATTRIBUTE = "Pyflink-Compat-Source-SHA256"


def source_files():
    return sorted(glob.glob(os.path.join(SOURCES, "**", "*.java"), recursive=True))


def source_digest() -> str:
    """SHA-256 over the sources' paths (relative to src/) and contents."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(os.path.relpath(path, SOURCES).replace(os.sep, "/").encode() + b"\0")
        with open(path, "rb") as f:
            digest.update(f.read() + b"\0")
    return digest.hexdigest()


def main():
    import pyspark
    hadoop = glob.glob(os.path.join(os.path.dirname(pyspark.__file__), "jars", "hadoop-client-api-*.jar"))
    if not hadoop:
        sys.exit("pyspark's hadoop-client-api jar not found")
    work = tempfile.mkdtemp()
    try:
        classes = os.path.join(work, "classes")
        subprocess.run(["javac", "--release", "17", "-cp", hadoop[0], "-d", classes, *source_files()], check=True)
        manifest = os.path.join(work, "MANIFEST.MF")
        with open(manifest, "w") as f:
            f.write("%s: %s\n" % (DIGEST_ATTRIBUTE, source_digest()))
        subprocess.run(["jar", "--create", "--file", JAR, "--manifest", manifest, "-C", classes, "."], check=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(JAR)


if __name__ == "__main__":
    main()
