"""pyflink.table.udf: Python user-defined scalar and table functions (``udf``, ``udtf``, ``ScalarFunction``,
``TableFunction``), as PyFlink's: made by decorator or call, type checks and messages as PyFlink's. A call
(``f(col('a'))``, or ``f(a)`` in SQL once registered) is a SQL function call node that carries the wrapper, so
the planner calls the Python function row by row; aggregate functions (``udaf``, ``udtaf``) per group."""
import abc
import functools
import inspect
import sys

from pyflink_compat import missing
from pyflink_compat.table.types import DataType

__all__ = ['FunctionContext', 'AggregateFunction', 'ScalarFunction', 'TableFunction', 'TableAggregateFunction',
           'AsyncScalarFunction', 'udf', 'udtf', 'udaf', 'udtaf']

_StandIns = missing.stand_ins(__name__)


class FunctionContext(object):
    """What a function's ``open`` is given: job parameters and the subtask it runs in."""

    def __init__(self, base_metric_group, job_parameters, task_name=None, task_name_with_subtasks=None,
                 number_of_parallel_subtasks=None, max_number_of_parallel_subtasks=None,
                 index_of_this_subtask=None, attempt_number=None):
        self._base_metric_group = base_metric_group
        self._job_parameters = dict(job_parameters or {})
        self._task_name, self._task_name_with_subtasks = task_name, task_name_with_subtasks
        self._parallel = number_of_parallel_subtasks
        self._max_parallel = max_number_of_parallel_subtasks
        self._index, self._attempt = index_of_this_subtask, attempt_number

    def get_metric_group(self):
        if self._base_metric_group is None:
            # Python functions of SQL run as Spark UDFs: their metrics work and are not reported (metrics section)
            from pyflink_compat.metrics.group import OperatorMetricGroup
            self._base_metric_group = OperatorMetricGroup(self._task_name or "PythonCalc", self._index or 0)
        return self._base_metric_group

    def get_job_parameter(self, key: str, default_value: str) -> str:
        return self._job_parameters.get(key, default_value)

    def get_task_name(self) -> str:
        return self._task_name

    def get_task_name_with_subtasks(self) -> str:
        return self._task_name_with_subtasks

    def get_number_of_parallel_subtasks(self) -> int:
        return self._parallel

    def get_max_number_of_parallel_subtasks(self) -> int:
        return self._max_parallel

    def get_index_of_this_subtask(self) -> int:
        return self._index

    def get_attempt_number(self) -> int:
        return self._attempt


class UserDefinedFunction(abc.ABC):
    """The base of Python user-defined functions."""

    def open(self, function_context: FunctionContext):
        pass

    def close(self):
        pass

    def is_deterministic(self) -> bool:
        return True


class ScalarFunction(UserDefinedFunction):
    """A function of a row's values to one value: its ``eval``."""

    @abc.abstractmethod
    def eval(self, *args):
        pass


class TableFunction(UserDefinedFunction):
    """A function of a row's values to any number of rows: its ``eval`` returns or yields them."""

    @abc.abstractmethod
    def eval(self, *args):
        pass


class ImperativeAggregateFunction(UserDefinedFunction):
    """The base of aggregate functions: an accumulator per group, updated by ``accumulate``."""

    @abc.abstractmethod
    def create_accumulator(self):
        pass

    @abc.abstractmethod
    def accumulate(self, accumulator, *args):
        pass

    def retract(self, accumulator, *args):
        raise RuntimeError("Method retract is not implemented")

    def merge(self, accumulator, accumulators):
        raise RuntimeError("Method merge is not implemented")

    def get_result_type(self):
        raise RuntimeError("Method get_result_type is not implemented")

    def get_accumulator_type(self):
        raise RuntimeError("Method get_accumulator_type is not implemented")


class AggregateFunction(ImperativeAggregateFunction):
    """An aggregate function: ``get_value`` gives the group's result from its accumulator."""

    @abc.abstractmethod
    def get_value(self, accumulator):
        pass


class TableAggregateFunction(ImperativeAggregateFunction):
    """A table aggregate function (``flat_aggregate``): ``emit_value`` gives the group's rows from its
    accumulator (a value that is not a Row is a row of one column)."""

    @abc.abstractmethod
    def emit_value(self, accumulator):
        pass


AsyncScalarFunction = _StandIns.AsyncScalarFunction


class _Delegating(ScalarFunction):
    def __init__(self, func):
        self.func = func

    def eval(self, *args):
        return self.func(*args)


class _DelegatingTable(TableFunction):
    def __init__(self, func):
        self.func = func

    def eval(self, *args):
        return self.func(*args)


def _types_list(types, what: str):
    if types is None:
        return None
    from pyflink_compat.table.types import RowType
    if isinstance(types, RowType):
        types = types.field_types()
    elif isinstance(types, (DataType, str)):
        types = [types]
    else:
        types = list(types)
    for each in types:
        if not isinstance(each, (DataType, str)):
            raise TypeError("Invalid %s: %s should be DataType or str but contains %s" % (what, what, each))
    return types


class UserDefinedFunctionWrapper(object):
    """A Python function made a user-defined function: its name, types and how to call it."""

    def __init__(self, func, input_types, func_type, deterministic=None, name=None):
        if inspect.isclass(func) or (not isinstance(func, UserDefinedFunction) and not callable(func)):
            raise TypeError("Invalid function: not a function or callable (__call__ is not defined): {0}"
                            .format(type(func)))
        self._func = func
        self._input_types = _types_list(input_types, "input_type")
        self._name = name or (func.__name__ if hasattr(func, '__name__') else func.__class__.__name__)
        if deterministic is not None and isinstance(func, UserDefinedFunction) \
                and deterministic != func.is_deterministic():
            raise ValueError("Inconsistent deterministic: {} and {}".format(deterministic,
                                                                            func.is_deterministic()))
        self._deterministic = deterministic if deterministic is not None else (
            func.is_deterministic() if isinstance(func, UserDefinedFunction) else True)
        self._func_type = func_type
        self._takes_row_as_input = False
        self._alias_names = None

    def __call__(self, *args):
        from sqlglot import exp
        from pyflink_compat.table.expression import Expression, to_node
        node = exp.Anonymous(this=self._name, expressions=[to_node(each) for each in args])
        node.args["function"] = self        # not an argument of the SQL text: the planner's to call
        return Expression(node)._named(self._alias_names)

    def alias(self, *alias_names: str):
        self._alias_names = alias_names
        return self

    def _set_takes_row_as_input(self):
        self._takes_row_as_input = True
        return self

    def _delegate(self) -> UserDefinedFunction:
        raise NotImplementedError

    def _invoker(self):
        """A picklable callable of the argument values that opens the function on its first call."""
        return _Invoker(self._delegate(), self._func_type == "pandas", self._takes_row_as_input)


class UserDefinedScalarFunctionWrapper(UserDefinedFunctionWrapper):

    def __init__(self, func, input_types, result_type, func_type, deterministic, name):
        super().__init__(func, input_types, func_type, deterministic, name)
        if not isinstance(result_type, (DataType, str)):
            raise TypeError("Invalid returnType: returnType should be DataType or str but is {}"
                            .format(result_type))
        self._result_type = result_type

    def _delegate(self):
        return self._func if isinstance(self._func, ScalarFunction) else _Delegating(self._func)


class UserDefinedTableFunctionWrapper(UserDefinedFunctionWrapper):

    def __init__(self, func, input_types, result_types, deterministic=None, name=None):
        super().__init__(func, input_types, "general", deterministic, name)
        from pyflink_compat.table.types import RowType
        if isinstance(result_types, RowType):
            self._result_names = result_types.field_names()
            result_types = result_types.field_types()
        elif isinstance(result_types, str):
            result_types = result_types
        elif isinstance(result_types, DataType):
            result_types = [result_types]
        else:
            result_types = list(result_types)
        if not isinstance(result_types, str):
            for result_type in result_types:
                if not isinstance(result_type, (DataType, str)):
                    raise TypeError("Invalid result_type: result_type should be DataType or str but contains {}"
                                    .format(result_type))
        self._result_types = result_types

    def _delegate(self):
        return self._func if isinstance(self._func, TableFunction) else _DelegatingTable(self._func)


class UserDefinedAggregateFunctionWrapper(UserDefinedFunctionWrapper):
    """A Python aggregate function (an AggregateFunction, or a pandas function of the group's Series)."""

    def __init__(self, func, input_types, result_type, accumulator_type, func_type, deterministic, name,
                 is_table_aggregate=False):
        super().__init__(func, input_types, func_type, deterministic, name)
        if accumulator_type is None and func_type == "general":
            accumulator_type = func.get_accumulator_type()
        if result_type is None:
            result_type = func.get_result_type()
        if not isinstance(result_type, (DataType, str)):
            raise TypeError("Invalid returnType: returnType should be DataType or str but is {}".format(result_type))
        if accumulator_type is not None and not isinstance(accumulator_type, (DataType, str)):
            raise TypeError("Invalid accumulator_type: accumulator_type should be DataType or str but is {}"
                            .format(accumulator_type))
        if func_type == "general" and not (isinstance(result_type, str) and isinstance(accumulator_type, str)
                                           or isinstance(result_type, DataType)
                                           and isinstance(accumulator_type, DataType)):
            raise TypeError("result_type and accumulator_type should be DataType or str at the same time.")
        self._result_type = result_type
        self._accumulator_type = accumulator_type
        self._is_table_aggregate = is_table_aggregate

    def _aggregate(self, argument_types=()):
        """The aggregate the planner runs: accumulators made, updated and read as Flink's operator does
        (``argument_types``: the SqlTypes of its arguments; a pandas function gets a FLOAT one as float32)."""
        dtypes = tuple({"FLOAT": "float32", "DOUBLE": "float64"}.get(getattr(each, "name", None))
                       for each in argument_types)
        if self._is_table_aggregate:
            return _TableAggregate(self._func, False)
        return _Aggregate(self._func, self._func_type == "pandas", dtypes)


class _Aggregate:
    """A Python aggregate function run per group: ``initial`` / ``accumulate`` / ``result`` / ``merge`` of its
    accumulator (for a pandas function, the group's argument rows, given to it as Series at the end)."""

    def __init__(self, function, pandas: bool, dtypes=()):
        self.function, self.pandas, self.dtypes = function, pandas, dtypes
        self.opened = False

    def __getstate__(self):
        return {"function": self.function, "pandas": self.pandas, "dtypes": self.dtypes, "opened": False}

    def _open(self):
        if not self.opened:
            if not self.pandas:
                self.function.open(FunctionContext(None, {}, "", "", 1, 128, 0, 0))
            self.opened = True

    def initial(self):
        self._open()
        return [] if self.pandas else self.function.create_accumulator()

    def accumulate(self, accumulator, arguments):
        self._open()
        if self.pandas:
            return accumulator + [arguments]
        self.function.accumulate(accumulator, *arguments)
        return accumulator

    def result(self, accumulator):
        self._open()
        if not self.pandas:
            return self.function.get_value(accumulator)
        import pandas
        columns = list(zip(*accumulator)) if accumulator else []
        dtypes = list(self.dtypes) + [None] * (len(columns) - len(self.dtypes))
        series = [pandas.Series(list(column), dtype=dtype) for column, dtype in zip(columns, dtypes)]
        return _first_value(pandas.Series([self.function(*series)]))

    def merge(self, a, b):
        self._open()
        if self.pandas:
            return a + b
        self.function.merge(a, [b])
        return a


class _TableAggregate(_Aggregate):
    """A Python table aggregate function run per group: ``rows`` of its accumulator are what ``emit_value`` gives,
    each as a list of column values."""

    def rows(self, accumulator) -> list:
        from pyflink_compat.common.types import Row
        self._open()
        rows = []
        for each in self.function.emit_value(accumulator) or ():
            rows.append(list(each) if isinstance(each, (Row, tuple)) else [each])
        return rows


class _Invoker:
    """Calls a user-defined function's ``eval``, opening it once per process first (as a Flink task opens it);
    a pandas function gets one-element Series and gives back its first value."""

    def __init__(self, function, pandas: bool, takes_row: bool):
        self.function, self.pandas, self.takes_row = function, pandas, takes_row
        self.opened = False

    def __getstate__(self):
        return {"function": self.function, "pandas": self.pandas, "takes_row": self.takes_row, "opened": False}

    def __call__(self, *args):
        if not self.opened:
            self.function.open(FunctionContext(None, {}, "", "", 1, 128, 0, 0))
            self.opened = True
        if self.pandas:
            return _first_value(self.function.eval(*[_series_of(value) for value in args]))
        return self.function.eval(*args)


def _series_of(value):
    """A one-element pandas Series of a value (a NULL integer one of a nullable integer type, as PyFlink gives
    integer columns with NULLs)."""
    import pandas
    return pandas.Series([value], dtype="Int64" if value is None else None)


def _first_value(result):
    """The first value of a pandas function's result, as a Python value (NaN and NA are NULL)."""
    import pandas
    value = result.iloc[0] if hasattr(result, "iloc") else result
    if value is None or value is pandas.NA or (isinstance(value, float) and value != value):
        return None
    return value.item() if hasattr(value, "item") else value


def _create_udf(f, input_types, result_type, func_type, deterministic, name):
    if inspect.iscoroutinefunction(f):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("Async Python scalar functions", "table-api")
    return UserDefinedScalarFunctionWrapper(f, input_types, result_type, func_type, deterministic, name)


def _create_udtf(f, input_types, result_types, deterministic, name):
    return UserDefinedTableFunctionWrapper(f, input_types, result_types, deterministic, name)


def udf(f=None, input_types=None, result_type=None, deterministic: bool = None, name: str = None,
        func_type: str = "general"):
    """A Python scalar function: ``udf(f, result_type=...)`` or ``@udf(result_type=...)``."""
    if func_type not in ('general', 'pandas'):
        raise ValueError("The func_type must be one of 'general, pandas', got %s." % func_type)
    if f is None:
        return functools.partial(_create_udf, input_types=input_types, result_type=result_type,
                                 func_type=func_type, deterministic=deterministic, name=name)
    return _create_udf(f, input_types, result_type, func_type, deterministic, name)


def udtf(f=None, input_types=None, result_types=None, deterministic: bool = None, name: str = None):
    """A Python table function: ``udtf(f, result_types=[...])`` or ``@udtf(result_types=...)``."""
    if f is None:
        return functools.partial(_create_udtf, input_types=input_types, result_types=result_types,
                                 deterministic=deterministic, name=name)
    return _create_udtf(f, input_types, result_types, deterministic, name)


def _create_udaf(f, input_types, result_type, accumulator_type, func_type, deterministic, name):
    return UserDefinedAggregateFunctionWrapper(f, input_types, result_type, accumulator_type, func_type,
                                               deterministic, name)


def udaf(f=None, input_types=None, result_type=None, accumulator_type=None, deterministic: bool = None,
         name: str = None, func_type: str = "general"):
    """A Python aggregate function: an AggregateFunction, or with func_type="pandas" a function of the group's
    values as pandas Series."""
    if func_type not in ('general', 'pandas'):
        raise ValueError("The func_type must be one of 'general, pandas', got %s." % func_type)
    return _made_or_decorator(_create_udaf, f, input_types=input_types, result_type=result_type,
                              accumulator_type=accumulator_type, func_type=func_type, deterministic=deterministic,
                              name=name)


def _create_udtaf(f, input_types, result_type, accumulator_type, func_type, deterministic, name):
    return UserDefinedAggregateFunctionWrapper(f, input_types, result_type, accumulator_type, func_type,
                                               deterministic, name, is_table_aggregate=True)


def udtaf(f=None, input_types=None, result_type=None, accumulator_type=None, deterministic: bool = None,
          name: str = None, func_type: str = 'general'):
    """A Python table aggregate function (a TableAggregateFunction), for ``flat_aggregate``."""
    if func_type != 'general':
        raise ValueError("The func_type must be 'general', got %s." % func_type)
    return _made_or_decorator(_create_udtaf, f, input_types=input_types, result_type=result_type,
                              accumulator_type=accumulator_type, func_type=func_type, deterministic=deterministic,
                              name=name)


def _made_or_decorator(create, f, **arguments):
    """``create(f, ...)``, or without ``f`` the decorator that makes it (``@udaf(result_type=...)``)."""
    if f is None:
        return functools.partial(create, **arguments)
    return create(f, **arguments)


missing.complete(sys.modules[__name__])
