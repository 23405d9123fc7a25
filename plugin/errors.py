"""Errors that carry a one-line message meant for the user."""


class InputError(ValueError):
    """Bad user input (file, layer, parameter). The message is shown as is, on one line."""


class Cancelled(RuntimeError):
    """The user (or a feedback object) asked to stop."""
