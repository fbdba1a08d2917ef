"""Python functions of the table_api.py job, in a module of their own."""
from pyflink.common import Row
from pyflink.table import DataTypes
from pyflink.table.udf import AggregateFunction, ScalarFunction, TableAggregateFunction, TableFunction, udaf, udf, udtaf, udtf


class Score(ScalarFunction):
    """Points of an amount for a tag: counts its calls from open() on (a function opened once)."""

    def open(self, function_context):
        self.bonus = len(function_context.get_job_parameter("no-such-parameter", "xx"))

    def eval(self, amount, tag):
        if amount is None or tag is None:
            return None
        return int(amount * 10) + len(tag) + self.bonus


score = udf(Score(), result_type=DataTypes.BIGINT())


@udtf(result_types=[DataTypes.STRING()])
def split_tags(tags):
    """The tags of a '|'-separated text (none for NULL)."""
    if tags is None:
        return
    for tag in tags.split("|"):
        if tag:
            yield tag


class WordsOfRow(TableFunction):
    """Each word of the row's tags and user, with its length."""

    def eval(self, row):
        for word in ((row.tags or "").replace("|", " ") + " " + (row.usr or "")).split():
            yield Row(word, len(word))


words_of_row = udtf(WordsOfRow(), result_types=[DataTypes.STRING(), DataTypes.INT()])


@udf(result_type=DataTypes.ROW([DataTypes.FIELD("who", DataTypes.STRING()),
                                DataTypes.FIELD("kind", DataTypes.STRING()),
                                DataTypes.FIELD("cents", DataTypes.BIGINT())]))
def label(row):
    """The row's user, whether its amount is big, and the amount in cents."""
    if row.amount is None:
        return Row(row.usr, "none", None)
    return Row(row.usr, "big" if row.amount >= 10 else "small", int(round(row.amount * 100)))


class WeightedAvg(AggregateFunction):
    """The integer average of values weighted by weights (NULL values skipped)."""

    def create_accumulator(self):
        return Row(0, 0)

    def get_value(self, accumulator):
        return None if accumulator[1] == 0 else accumulator[0] // accumulator[1]

    def accumulate(self, accumulator, value, weight):
        if value is None:
            return
        accumulator[0] += value * weight
        accumulator[1] += weight

    def get_result_type(self):
        return DataTypes.BIGINT()

    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD("f0", DataTypes.BIGINT()), DataTypes.FIELD("f1", DataTypes.BIGINT())])


weighted_avg = udaf(WeightedAvg())
longest_name = udaf(lambda names: names.str.len().max(), result_type=DataTypes.BIGINT(), func_type="pandas")


class LowHigh(AggregateFunction):
    """The lowest and the highest amount (NULLs skipped) as a ROW: aggregate() flattens it into two columns."""

    def create_accumulator(self):
        return Row(None, None)

    def accumulate(self, accumulator, amount):
        if amount is not None:
            accumulator[0] = amount if accumulator[0] is None else min(accumulator[0], amount)
            accumulator[1] = amount if accumulator[1] is None else max(accumulator[1], amount)

    def get_value(self, accumulator):
        return Row(accumulator[0], accumulator[1])

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("low", DataTypes.DOUBLE()), DataTypes.FIELD("high", DataTypes.DOUBLE())])

    def get_accumulator_type(self):
        return DataTypes.ROW([DataTypes.FIELD("a", DataTypes.DOUBLE()), DataTypes.FIELD("b", DataTypes.DOUBLE())])


low_high = udaf(LowHigh())


class TopTwo(TableAggregateFunction):
    """The two highest amounts (NULLs skipped) with their place: flat_aggregate makes a row of each."""

    def create_accumulator(self):
        return [None, None]

    def accumulate(self, accumulator, amount):
        if amount is None:
            return
        if accumulator[0] is None or amount > accumulator[0]:
            accumulator[1], accumulator[0] = accumulator[0], amount
        elif accumulator[1] is None or amount > accumulator[1]:
            accumulator[1] = amount

    def emit_value(self, accumulator):
        for place, amount in enumerate(accumulator):
            if amount is not None:
                yield Row(amount, place + 1)

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("amount", DataTypes.DOUBLE()), DataTypes.FIELD("place", DataTypes.INT())])

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.DOUBLE())


top_two = udtaf(TopTwo())


class IdsOfRows(TableAggregateFunction):
    """Given whole rows (the function alone in flat_aggregate): the ids seen so far, one value per row (a result
    that is no ROW)."""

    def create_accumulator(self):
        return []

    def accumulate(self, accumulator, row):
        accumulator.append(row.id)

    def emit_value(self, accumulator):
        yield ",".join(str(each) for each in sorted(accumulator))


ids_of_rows = udtaf(IdsOfRows(), result_type=DataTypes.STRING(), accumulator_type=DataTypes.ARRAY(DataTypes.INT()))
