"""Flink SQL on the DataStream plan: statements parsed by a Flink dialect of sqlglot (``dialect``), tables in
a catalog (``catalog``), SQL types (``types``), expressions compiled to Python functions (``expressions``), and
INSERT statements planned as DataStream pipelines of the mirror (``planner``)."""
