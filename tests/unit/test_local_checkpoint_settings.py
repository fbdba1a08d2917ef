"""Checkpoints on the local disk without a process per file: the committed jar is built from its source, and the
settings leave a user's own choices alone."""
import os
import zipfile

from pyflink_compat import jars, third_party_patches
from pyflink_compat.jars import build


def test_the_committed_jar_is_built_from_the_current_source():
    with zipfile.ZipFile(jars.HADOOP_JAR) as jar:
        manifest = jar.read("META-INF/MANIFEST.MF").decode()
        names = jar.namelist()
    # manifest lines longer than 72 bytes continue on the next line after a space
    attributes = dict(line.split(": ", 1) for line in manifest.replace("\r\n", "\n").replace("\n ", "").splitlines()
                      if ": " in line)
    assert attributes[build.DIGEST_ATTRIBUTE] == build.source_digest(), \
        "pyflink-compat-hadoop.jar is older than its source: python -m pyflink_compat.jars.build"
    assert "pyflink_compat/hadoop/ShellFreeLocalFileSystem.class" in names


def test_the_local_settings_add_the_file_system_and_the_checkpoint_manager():
    settings = third_party_patches.local_checkpoint_settings({})
    assert settings == {
        "spark.sql.streaming.checkpointFileManagerClass": third_party_patches.FILE_SYSTEM_CHECKPOINT_MANAGER,
        "spark.hadoop.fs.file.impl": third_party_patches.SHELL_FREE_LOCAL_FS,
        "spark.driver.extraClassPath": jars.HADOOP_JAR}


def test_a_users_class_path_keeps_its_entries_and_their_own_choices_win():
    settings = third_party_patches.local_checkpoint_settings({"spark.driver.extraClassPath": "/opt/mine.jar"})
    assert settings["spark.driver.extraClassPath"] == "/opt/mine.jar" + os.pathsep + jars.HADOOP_JAR
    own = {"spark.hadoop.fs.file.impl": "org.example.Fs",
           "spark.sql.streaming.checkpointFileManagerClass": "org.example.Manager"}
    assert third_party_patches.local_checkpoint_settings(own) == {}


def test_launch_settings_of_local_mode_only(monkeypatch):
    from pyflink_compat.runtime import session
    local = dict(session._launch_settings({}).settings)
    assert local["spark.hadoop.fs.file.impl"] == third_party_patches.SHELL_FREE_LOCAL_FS
    cluster = dict(session._launch_settings({"spark.master": "spark://somewhere:7077"}).settings)
    assert "spark.hadoop.fs.file.impl" not in cluster
    assert "spark.sql.streaming.checkpointFileManagerClass" not in cluster
