"""Java classes of our own that Spark's JVM loads (sources in ``src/``, built by ``build.py``)."""
import os

#: ShellFreeLocalFileSystem (third_party_patches.local_checkpoint_settings).
HADOOP_JAR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyflink-compat-hadoop.jar")
