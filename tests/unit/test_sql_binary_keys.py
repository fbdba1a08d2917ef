"""Flink SQL keys go to the subtasks real PyFlink 2.3 runs them on: GROUP BY of a 'datagen' table at parallelism
4 printed these "N>" prefixes on the oracle (an INT, short and long strings, BIGINT, two columns, DOUBLE, a NULL,
BOOLEAN)."""
import pytest

from pyflink_compat.runtime.keyed.key_groups import subtask_for_key
from pyflink_compat.table.sql import binary_keys
from pyflink_compat.table.sql.catalog import SqlType

# printed prefix (1-based subtask) -> keys, as the oracle printed them
_SEEN = {
    ("INT",): {1: [10, 18, 21, 23, 4, 5, 7], 2: [11, 12, 13, 15, 22, 24, 8], 3: [1, 14, 16, 17, 19, 2],
               4: [20, 3, 6, 9]},
    ("STRING",): {1: ["10", "11", "20", "22", "23", "24", "5"], 2: ["12", "13", "14", "16", "18", "3", "8", "9"],
                  3: ["15", "2"], 4: ["1", "17", "19", "21", "4", "6", "7"]},
    ("BIGINT",): {1: [-3, 10, 18, 4, 5, 7], 2: [11, 12, 13, 15, 8], 3: [-1, -4, -5, 1, 14, 16, 17, 2],
                  4: [-2, 0, 3, 6, 9]},
    ("DOUBLE",): {1: [0.5, 0.75, 1.0, 1.25, 2.25, 2.75, 4.0], 2: [1.75, 3.0, 3.25, 3.75, 4.5, 4.75, 5.0, 6.0],
                  3: [1.5, 5.25, 5.75], 4: [0.25, 2.0, 2.5, 3.5, 4.25, 5.5]},
    ("INT", "STRING"): {1: [(0, "15"), (0, "24"), (1, "19"), (2, "11")], 2: [(0, "12"), (1, "1"), (2, "20")],
                        3: [(1, "13"), (2, "2")], 4: [(0, "18"), (1, "10"), (2, "17")]},
    ("BOOLEAN",): {3: [True], 4: [False]},
}


@pytest.mark.parametrize("types", list(_SEEN), ids=lambda types: "-".join(types))
def test_keys_run_on_the_subtask_flink_sql_runs_them_on(types):
    key_type = binary_keys.key_type_of([SqlType(name) for name in types])
    for printed, keys in _SEEN[types].items():
        for key in keys:
            key = key if isinstance(key, tuple) else (key,)
            assert subtask_for_key(key, 4, key_type=key_type) == printed - 1, key


def test_long_strings_and_nulls_take_their_binary_form():
    strings = binary_keys.key_type_of([SqlType("STRING")])
    for printed, numbers in {1: [10, 11, 13, 17, 20, 23, 4], 2: [1, 12, 16, 21, 24], 3: [14, 18, 2, 3, 5, 8, 9]}.items():
        for number in numbers:
            assert subtask_for_key(("user-number-%d" % number,), 4, key_type=strings) == printed - 1
    ints = binary_keys.key_type_of([SqlType("INT")])
    assert subtask_for_key((None,), 4, key_type=ints) == 3
    assert [subtask_for_key((k,), 4, key_type=ints) for k in range(7)] == [3, 2, 2, 3, 0, 0, 3]


def test_a_column_without_a_binary_form_here_keeps_the_pickled_keys():
    assert binary_keys.key_type_of([SqlType("ARRAY", element=SqlType("INT"))]) is None
    assert binary_keys.key_type_of([]) is None
