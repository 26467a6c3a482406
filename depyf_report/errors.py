"""Errors that reach the user as one clear line, never as a traceback."""


class UserError(Exception):
    """A problem with what the user asked for; the message says what to do."""
