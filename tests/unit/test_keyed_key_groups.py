"""Flink's key groups for PyFlink keys (which subtask a key runs on)."""
from pyflink_compat.runtime.keyed.key_groups import murmur_hash, subtask_for_key


def test_oracle_subtask_of_pickled_string_keys_at_parallelism_2():
    # Real PyFlink 2.3.0, key_by(lambda x: x[0]) with keys k0..k39, parallelism 2: these keys
    # ran on subtask 1, the others on subtask 0
    on_one = {'k1', 'k10', 'k11', 'k13', 'k14', 'k17', 'k19', 'k25', 'k27', 'k29', 'k3', 'k32',
              'k33', 'k35', 'k36', 'k37', 'k38', 'k39', 'k5', 'k6', 'k7', 'k8'}
    for i in range(40):
        key = "k%d" % i
        assert subtask_for_key(key, 2) == (1 if key in on_one else 0), key


def test_murmur_hash_is_non_negative_and_java_like():
    assert murmur_hash(0) >= 0 and murmur_hash(-1) >= 0 and murmur_hash(2 ** 31 - 1) >= 0
    assert subtask_for_key("anything", 1) == 0


def test_oracle_subtask_of_typed_keys_at_parallelism_2():
    # Real PyFlink 2.3.0, key_by(lambda x: x, key_type=...) at parallelism 2: the keys that ran on
    # subtask 1 (all others on subtask 0)
    from pyflink_compat.common.typeinfo import Types
    cases = [
        (Types.STRING(), ["k%d" % i for i in range(40)],
         {'k11', 'k12', 'k14', 'k15', 'k18', 'k19', 'k2', 'k20', 'k22', 'k23', 'k24', 'k26', 'k28',
          'k29', 'k30', 'k33', 'k35', 'k37', 'k6', 'k8', 'k9'}),
        (Types.INT(), list(range(40)),
         {2, 3, 6, 8, 9, 17, 18, 20, 21, 22, 24, 25, 26, 28, 29, 33, 34, 35, 38}),
        (Types.LONG(), [i * 1000003 for i in range(-20, 20)],
         {-20000060, -18000054, -17000051, -16000048, -13000039, -12000036, -11000033, -8000024,
          -7000021, -6000018, -5000015, -4000012, -3000009, 1000003, 2000006, 3000009, 4000012,
          5000015, 8000024, 9000027, 10000030, 13000039, 14000042, 17000051, 19000057}),
    ]
    for key_type, keys, on_one in cases:
        for key in keys:
            assert subtask_for_key(key, 2, key_type=key_type) == (1 if key in on_one else 0), key


def test_oracle_row_keys_pickle_as_in_pyflink():
    # cloudpickle.dumps(...) under real PyFlink 2.3.0 (so Row keys land in the same key group)
    from pyflink_compat.common.types import Row, RowKind
    from pyflink_compat.runtime.keyed.key_groups import pyflink_pickle
    updated = Row('a', 2)
    updated.set_row_kind(RowKind.UPDATE_AFTER)
    cases = [
        (Row(name='k', v=1),
         "80059557000000000000008c147079666c696e6b2e636f6d6d6f6e2e7479706573948c0b5f6372656174655f"
         "726f779493945d94288c046e616d65948c017694658c016b944b01869468008c07526f774b696e64949394"
         "4b0085945294879452942e"),
        (Row('k', 1),
         "80059549000000000000008c147079666c696e6b2e636f6d6d6f6e2e7479706573948c0b5f6372656174655f"
         "726f779493944e8c016b944b01869468008c07526f774b696e649493944b0085945294879452942e"),
        (updated,
         "80059549000000000000008c147079666c696e6b2e636f6d6d6f6e2e7479706573948c0b5f6372656174655f"
         "726f779493944e8c0161944b02869468008c07526f774b696e649493944b0285945294879452942e"),
        (('t', Row('x', 1)),
         "8005954f000000000000008c0174948c147079666c696e6b2e636f6d6d6f6e2e7479706573948c0b5f637265"
         "6174655f726f779493944e8c0178944b01869468018c07526f774b696e649493944b00859452948794529486"
         "942e"),
    ]
    for key, expected in cases:
        assert pyflink_pickle(key).hex() == expected, key
    assert pyflink_pickle("plain") == __import__('pyspark').cloudpickle.dumps("plain")


def test_subtasks_for_keys_matches_subtask_for_key_per_key():
    import random
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.runtime.keyed.key_groups import subtasks_for_keys
    rng = random.Random(7)
    cases = [
        (Types.STRING(), ["%010d" % i for i in range(2000)] + ["k%d" % i for i in range(40)] + ["", "a", "x" * 300]),
        (Types.INT(), [rng.randint(-2 ** 31, 2 ** 31 - 1) for _ in range(1000)] + [0, -1, 2 ** 31 - 1, -2 ** 31]),
        (Types.SHORT(), list(range(-300, 300))),
        (Types.LONG(), [rng.randint(-2 ** 63, 2 ** 63 - 1) for _ in range(1000)] + [0, -1, 2 ** 63 - 1, -2 ** 63]),
    ]
    for key_type, keys in cases:
        for parallelism, max_parallelism in ((1, None), (2, None), (3, None), (7, 200), (128, 128)):
            many = subtasks_for_keys(keys, parallelism, max_parallelism, key_type=key_type)
            assert many is not None
            assert many.tolist() == [subtask_for_key(k, parallelism, max_parallelism, key_type=key_type)
                                     for k in keys], (key_type, parallelism, max_parallelism)


def test_subtasks_for_keys_leaves_other_keys_to_the_per_key_path():
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.runtime import exchange
    from pyflink_compat.runtime.keyed.key_groups import subtasks_for_keys
    assert subtasks_for_keys(["é"], 2, key_type=Types.STRING()) is None          # not ASCII: UTF-16 units
    assert subtasks_for_keys(["a", None], 2, key_type=Types.STRING()) is None
    assert subtasks_for_keys([True], 2, key_type=Types.INT()) is None
    assert subtasks_for_keys([2 ** 70], 2, key_type=Types.LONG()) is None
    assert subtasks_for_keys(["a"], 2, key_type=None) is None                     # pickled keys
    assert subtasks_for_keys([], 2, key_type=Types.STRING()).tolist() == []
    keys = ["k1", "é", None, "k39"]
    assigner = exchange.SubtaskAssigner(2, Types.STRING())
    assert assigner.many(keys) == [subtask_for_key(k, 2, key_type=Types.STRING()) for k in keys]
