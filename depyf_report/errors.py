"""Errors that reach the user as one clear line, never as a traceback."""


class UserError(Exception):
    """A problem with what the user asked for; the message says what to do."""

    def _render_traceback_(self) -> list[str]:
        # IPython and Jupyter show an exception through this method when it has one:
        # a notebook cell then reads the one line the command line would print.
        return [f"depyf-report: error: {self}"]
