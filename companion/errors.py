"""User-facing errors.

Anything a user can cause (a missing file, a bad config key, a mismatched checkpoint) raises a
:class:`CompanionError` subclass with a one-line message that names the file, line or key. The
command line prints ``error: <message>`` and exits with status 2 instead of a traceback.
"""

import importlib


class CompanionError(Exception):
    """Base class of every error the user can fix; its message is one line."""


class DataError(CompanionError):
    """Bad input data: unreadable, misaligned or malformed corpus files."""


class ConfigError(CompanionError, ValueError):
    """A configuration key that is unknown, mistyped or out of range."""


class CheckpointError(CompanionError):
    """A checkpoint that is missing, truncated, foreign, or does not match the run."""


class TrainingError(CompanionError):
    """Training cannot continue (for example a non-finite loss)."""


class MissingDependencyError(CompanionError):
    """An optional dependency (a package extra) that the called feature needs is not installed."""


def require_extra(module: str, extra: str, feature: str):
    """Import ``module`` or raise a one-line :class:`MissingDependencyError` naming the extra
    (``pip install 'seq2seq-companion[EXTRA]'``) that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(
            f"{feature} needs the optional package '{module.split('.')[0]}': "
            f"pip install 'seq2seq-companion[{extra}]'"
        ) from None
