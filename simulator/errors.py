"""Errors that the CLI turns into a one-line message and exit code 2."""


class UsageError(Exception):
    """Bad input from the user: names what is wrong and where."""


class SchemaVersionError(UsageError):
    """The database was written by another schema version."""


class OptionError(UsageError):
    """A model or user option that is unknown or has an invalid value."""
