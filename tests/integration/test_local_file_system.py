"""Spark's local mode writes checkpoints through our ShellFreeLocalFileSystem: permissions set through java.nio
(no chmod process per file), with the modes Hadoop asks for."""
import os
import stat

import pytest

from pyflink_compat import third_party_patches

pytestmark = pytest.mark.integration


def _local_file_system(spark):
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    return jvm, jvm.org.apache.hadoop.fs.FileSystem.get(jvm.java.net.URI("file:///"), conf)


def test_the_sessions_local_file_system_sets_the_modes_hadoop_asks_for(spark, tmp_path):
    jvm, fs = _local_file_system(spark)
    raw = fs.getRawFileSystem()
    assert raw.getClass().getName() == third_party_patches.SHELL_FREE_LOCAL_FS + "$Raw"
    assert spark.conf.get("spark.sql.streaming.checkpointFileManagerClass") == \
        third_party_patches.FILE_SYSTEM_CHECKPOINT_MANAGER
    permission = jvm.org.apache.hadoop.fs.permission.FsPermission
    directory = jvm.org.apache.hadoop.fs.Path("file://%s/made" % tmp_path)
    assert fs.mkdirs(directory, permission(0o750))
    assert stat.S_IMODE(os.stat(tmp_path / "made").st_mode) == 0o750
    written = jvm.org.apache.hadoop.fs.Path("file://%s/made/file" % tmp_path)
    fs.create(written, permission(0o604), True, 4096, 1, 1024 * 1024, None).close()
    assert stat.S_IMODE(os.stat(tmp_path / "made" / "file").st_mode) == 0o604
    # a mode beyond the nine permission bits goes Hadoop's own way (the sticky bit)
    fs.setPermission(directory, permission(0o1770))
    assert stat.S_IMODE(os.stat(tmp_path / "made").st_mode) == 0o1770
