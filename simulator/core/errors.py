"""Errors that the CLI turns into a one-line message: exit code 2 for bad input, 1 for storage."""


class UsageError(Exception):
    """Bad input from the user: names what is wrong and where."""


class SchemaVersionError(UsageError):
    """The database was written by another schema version."""


class OptionError(UsageError):
    """A model or user option that is unknown or has an invalid value.

    Where one key is at fault, ``key`` names it and ``reason`` says what is wrong with it;
    whoever builds the model sets ``flag`` (``--agent-arg``, ``--user-arg``, ``--judge-arg``)
    and ``model``, so that the CLI can name the run-file table that set the key instead.
    """

    def __init__(self, message: str, key: str | None = None, reason: str = "") -> None:
        super().__init__(message)
        self.key = key
        self.reason = reason
        self.flag: str | None = None
        self.model: str | None = None


class StoreError(Exception):
    """The database file failed: full, read-only, locked, corrupted or unreadable (exit code 1).

    The message names the file and the cause; nothing it did not say was stored is counted.
    """


class ClaimLost(StoreError):
    """Another process claimed this process's run: it writes nothing more to it.

    A run whose process was stopped (``SIGSTOP``, a suspended laptop) reads stale; a
    ``--resume`` elsewhere then claims it. When the stopped process goes on, its next write
    finds the run's row naming the other process and stops, leaving the row alone.
    """
