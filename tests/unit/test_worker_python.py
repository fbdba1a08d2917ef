"""What the Python workers' path and Python are for a job's python.* settings (runtime/worker_python.py)."""
import os
import sys
import zipfile

import pytest

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.runtime import worker_python


def test_the_stand_in_for_pyflink_comes_first_then_the_job_directory_then_python_files(tmp_path, monkeypatch):
    module = tmp_path / "helpers.py"
    module.write_text("X = 1\n")
    package = tmp_path / "lib.zip"
    package.write_bytes(b"")
    monkeypatch.setattr(worker_python, "job_directory", "/jobs/mine")
    worker = worker_python.resolve({"python.files": "%s, %s" % (module, package)})
    assert worker.paths == (worker_python.SHIM_DIRECTORY, "/jobs/mine", str(tmp_path), str(package),
                            worker_python.PACKAGE_ROOT)
    assert os.path.isdir(os.path.join(worker_python.PACKAGE_ROOT, "pyflink_compat"))
    assert os.path.isfile(os.path.join(worker.paths[0], "pyflink", "__init__.py"))
    assert worker.executable is None


def test_file_uris_are_taken_as_flink_takes_them(tmp_path):
    """``env.add_python_file("file:///path/mod.py")``: real PyFlink 2.3.0 ships the file (probed)."""
    module = tmp_path / "helpers.py"
    module.write_text("X = 1\n")
    archive = tmp_path / "env.zip"
    with zipfile.ZipFile(archive, "w") as f:
        f.writestr("inside.txt", "x")
    worker = worker_python.resolve({"python.files": "file://%s,file:%s" % (module, tmp_path / "helpers.py"),
                                    "python.archives": "file://%s" % archive})
    assert str(tmp_path) in worker.paths
    assert os.path.isfile(os.path.join(worker_python.extract_archive(str(archive), "env.zip"), "inside.txt"))


def test_a_python_file_that_does_not_exist_is_named():
    with pytest.raises(worker_python.PythonDependencyError, match="Python file nowhere/x.py .python.files. does not"):
        worker_python.resolve({"python.files": "nowhere/x.py"})


def test_an_archive_is_extracted_once_and_an_executable_inside_it_is_resolved(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    archive = tmp_path / "venv.zip"
    info = zipfile.ZipInfo("bin/python")
    info.external_attr = 0o755 << 16
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr(info, "#!/bin/sh\n")
        z.writestr("data/words.txt", "a b\n")
    worker = worker_python.resolve({"python.archives": "%s#env" % archive, "python.executable": "env/bin/python"})
    assert worker.executable.endswith(os.path.join("env", "bin", "python"))
    assert os.access(worker.executable, os.X_OK)
    assert open(os.path.join(os.path.dirname(os.path.dirname(worker.executable)), "data", "words.txt")).read() == "a b\n"
    again = worker_python.resolve({"python.archives": "%s#env" % archive, "python.executable": "env/bin/python"})
    assert again.executable == worker.executable
    assert worker_python.resolve({"python.executable": "/usr/bin/python3"}).executable == "/usr/bin/python3"


def test_the_environment_records_python_dependencies_under_flinks_keys(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    env = StreamExecutionEnvironment.get_execution_environment(Configuration())
    env.add_python_file(str(lib))
    env.add_python_file(str(lib / "other.py"))
    env.set_python_requirements("req.txt", "packages")
    env.add_python_archive("venv.zip")
    env.add_python_archive("data.zip", "data")
    env.set_python_executable("venv.zip/bin/python")
    config = env._configuration
    assert config.get_string("python.files", "") == "%s,%s" % (lib, lib / "other.py")
    assert config.get_string("python.requirements", "") == "req.txt#packages"
    assert config.get_string("python.archives", "") == "venv.zip,data.zip#data"
    assert config.get_string("python.executable", "") == "venv.zip/bin/python"
    assert str(lib) in sys.path


def test_a_shipped_directory_leaves_caches_hidden_directories_and_virtual_environments_out(tmp_path):
    root = tmp_path / "job"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "models.py").write_text("")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "models.cpython-311.pyc").write_bytes(b"")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("")
    (root / "env" / "lib").mkdir(parents=True)
    (root / "env" / "pyvenv.cfg").write_text("")
    with zipfile.ZipFile(worker_python._zipped(str(root))) as z:
        assert sorted(z.namelist()) == ["models.py", "pkg/__init__.py"]
