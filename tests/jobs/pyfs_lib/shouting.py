"""A helper module a job ships with -pyfs (not in the job file's directory)."""


def shout(text):
    return text.upper() + "!"
