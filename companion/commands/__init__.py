"""The ``train``, ``translate`` and ``evaluate`` commands (see :mod:`companion.cli`)."""
