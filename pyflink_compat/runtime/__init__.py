"""The translation layer: PyFlink job graph -> Spark Structured Streaming queries."""
