"""User-facing errors.

Anything a user can cause (a missing file, a bad config key, a mismatched checkpoint) raises a
:class:`CompanionError` subclass with a one-line message that names the file, line or key. The
command line prints ``error: <message>`` and exits with status 2 instead of a traceback.
"""


class CompanionError(Exception):
    """Base class of every error the user can fix; its message is one line."""


class DataError(CompanionError):
    """Bad input data: unreadable, misaligned or malformed corpus files."""


class ConfigError(CompanionError):
    """A configuration key that is unknown, mistyped or out of range."""


class CheckpointError(CompanionError):
    """A checkpoint that is missing, truncated, foreign, or does not match the run."""


class TrainingError(CompanionError):
    """Training cannot continue (for example a non-finite loss)."""
