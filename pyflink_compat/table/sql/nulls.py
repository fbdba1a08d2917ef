"""SQL's NULL rule for functions of values: an operation with a NULL operand is NULL."""


def null_safe(function, *operands):
    """The function of a row's values applying ``function`` to the operands' values, NULL when one is."""
    def run(values):
        arguments = [operand(values) for operand in operands]
        if any(argument is None for argument in arguments):
            return None
        return function(*arguments)
    return run
