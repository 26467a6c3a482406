"""Layer 5: statements recovered from the control-flow graph; the state machine
when they cannot be.

``walk`` walks the graph (``walk.structured_body`` is the entry point) and shares its
state with the parts, one concern each: ``branches`` (if/else, values that depend on a
test), ``conditions`` and ``chains`` (boolean chains, chained comparisons), ``trials``
(trial runs of a block), ``joins`` (where branches meet, copied tails), ``loops``,
``whiles`` and ``fors``, ``regions`` (handler regions), ``trys``, ``clause_joins`` and
``clauses`` (try statements), ``withs``. ``fallback`` is the state machine, and
``handling`` wraps its except-clause code.
"""
