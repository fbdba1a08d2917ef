"""The plan: the job as plain data, built by the mirror (``pyflink_compat.common`` / ``.datastream``) and read by
the runtime. Nothing here imports the mirror's objects or Spark."""
