"""Decompiled code reads like the original: the same statements, no state machine,
no invented variables.

For a few functions of plain structure, the decompiled definition must contain the
same control-flow statements, as many of each, as the original source, and assign
no name the code object does not know.
"""

import ast
import collections
import re
import sys
from pathlib import Path

import pytest

from depyf_report import decompile

from .code_tree import function_def, names_in
from .corpus import SNIPPETS, Snippet, resolve
from .random_programs import local_temporaries

CONTROL_NODES = (
    ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.Break, ast.Continue,
    ast.Try, ast.With, ast.AsyncWith, ast.Assert, ast.Raise, ast.Match, ast.match_case,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda, ast.Await,
)  # fmt: skip
if sys.version_info >= (3, 11):
    CONTROL_NODES += (ast.TryStar,)

READABLE = [
    ("branches", "grade"),
    ("branches", "and_or_conditions"),
    ("branches", "and_or_values"),
    ("branches", "conditional_expression"),
    ("branches", "conditional_last_in_return"),
    ("branches", "conditional_argument_at_the_end"),
    ("branches", "chained_values"),
    ("branches", "chains_in_conditions"),
    ("branches", "returned_chain"),
    ("branches", "returned_chains"),
    ("branches", "conditional_conditions"),
    ("branches", "conditional_condition_raises"),
    ("branches", "generator_in_condition"),
    ("branches", "chain_then_falls_through"),
    ("branches", "value_in_condition"),
    ("branches", "empty_if_body"),
    ("operators", "set_displays_as_constants"),
    ("context_managers", "returns_on_every_path"),
    ("context_managers", "returns_on_every_path_at_the_end"),
    ("context_managers", "returns_on_one_path"),
    ("context_managers", "returns_on_every_path_in_a_loop"),
    ("loops", "while_else"),
    ("loops", "while_else_in_for"),
    ("loops", "while_else_returns"),
    ("loops", "while_else_compound_test"),
    ("loops", "nested_while_else"),
    ("loops", "count_down"),
    ("loops", "while_with_complex_condition"),
    ("loops", "chained_test_in_a_try"),
    ("loops", "for_else"),
    ("loops", "nested_loops"),
    ("loops", "missing_method"),
    ("loops", "prefixes"),
    ("loops", "for_in_while"),
    ("loops", "first_words"),
    ("loops", "drop_flags"),
    ("loops", "declared"),
    ("loops", "continue_in_while"),
    ("loops", "while_true_break"),
    ("loops", "while_true_returns"),
    ("loops", "while_returns_what_follows"),
    ("loops", "while_true_break_in_for"),
    ("loops", "while_true_break_raises"),
    ("loops", "for_returns_constant"),
    ("loops", "for_else_break_raises"),
    ("loops", "else_break_at_the_end"),
    ("loops", "else_break_in_a_tested_loop"),
    ("loops", "first_entry"),
    ("loops", "continue_else_break"),
    ("loops", "break_when_empty"),
    ("loops", "break_at_end"),
    ("loops", "loop_then_try"),
    ("loops", "reap_until_below"),
    ("loops", "members_found"),
    ("loops", "first_usable"),
    ("loops", "continue_under_a_negated_and"),
    ("loops", "endless_loop_ends_a_for_body"),
    ("loops", "endless_loop_ends_a_clause"),
    ("loops", "endless_loops_end_a_clause"),
    ("loops", "endless_loop_ends_a_try_body"),
    ("loops", "clause_returns_from_an_endless_loop"),
    ("loops", "conditional_test_continues"),
    ("loops", "while_else_ends_a_for_body"),
    ("loops", "while_else_with_or_ends_a_for_body"),
    ("loops", "endless_loop_returns_from_a_for_body"),
    ("exceptions", "conditional_test_before_else_and_finally"),
    ("exceptions", "returns_from_a_with_in_a_finally_body"),
    ("exceptions", "returns_through_a_with_in_a_finally_body"),
    ("exceptions", "returns_under_a_finally_with"),
    ("context_managers", "copies_unless_fast"),
    ("context_managers", "copies_into"),
    ("context_managers", "serves_until_closed"),
    ("context_managers", "serves_until_empty"),
    ("context_managers", "returns_through_a_finally"),
    ("context_managers", "returns_early_in_a_with"),
    ("exceptions", "counts_through_finallies"),
    ("exceptions", "returns_before_reassigning"),
    ("exceptions", "register_alias"),
    ("loops", "read_until_data"),
    ("loops", "open_each"),
    ("loops", "first_heap_type"),
    ("loops", "first_checked"),
    ("loops", "defaults_for"),
    ("exceptions", "parse"),
    ("exceptions", "try_in_loop"),
    ("exceptions", "first_item"),
    ("exceptions", "mount_point"),
    ("exceptions", "refresh_seekable"),
    ("exceptions", "listing_start"),
    ("exceptions", "assert_with_message"),
    ("exceptions", "raise_from_none"),
    ("exceptions", "raises_by_platform"),
    ("exceptions", "probe_or_false"),
    ("exceptions", "restart_unless_parsed"),
    ("exceptions", "count_mismatch"),
    ("exceptions", "retry_until_found"),
    ("exceptions", "poll_until_answered"),
    ("exceptions", "else_in_a_branch"),
    ("exceptions", "or_in_try_body"),
    ("exceptions", "found_or_counted"),
    ("exceptions", "else_inside_with"),
    ("exceptions", "else_goes_on_in_finally"),
    ("exceptions", "else_in_finally_in_loop"),
    ("exceptions", "returns_before_an_inner_finally"),
    ("exceptions", "loop_in_a_finally_body"),
    ("exceptions", "retry_in_a_finally_body"),
    ("exceptions", "create_unless_present"),
    ("exceptions", "skip_failures"),
    ("exceptions", "drain_in_finally"),
    ("exceptions", "close_then_forget"),
    ("exceptions", "asserts_in_a_finally"),
    ("exceptions", "asserts_in_a_finally_with_clause"),
    ("exceptions", "asserts_then_logs_in_a_finally"),
    ("exceptions", "raises_on_its_own_in_a_finally"),
    ("exceptions", "returns_after_an_and_in_a_nested_try"),
    ("exceptions", "asserts_in_a_clause_before_an_else_in_a_finally"),
    ("exceptions", "returns_after_an_else_in_a_finally"),
    ("exceptions", "comprehension_in_a_finally_after_a_return"),
    ("exceptions", "comprehension_value_in_a_finally_after_a_return"),
    ("exceptions", "comprehension_stored_in_a_finally"),
    ("exceptions", "comprehension_in_a_finally_in_a_loop"),
    ("exceptions", "returns_from_a_try_in_a_with"),
    ("exceptions", "try_in_a_finally_body"),
    ("exceptions", "try_with_else_in_a_finally_body"),
    ("exceptions", "try_in_a_finally_body_in_a_loop"),
    ("context_managers", "nested_with"),
    ("context_managers", "with_in_loop"),
    ("context_managers", "with_breaks_a_while"),
    ("context_managers", "breaks_out_of_clauses"),
    ("context_managers", "continue_through_withs"),
    ("context_managers", "clause_then_code_in_a_with"),
    ("context_managers", "find_definition"),
    ("context_managers", "clause_ends_a_with"),
    ("context_managers", "value_or_none"),
    ("context_managers", "loops_after_a_returning_with"),
    ("context_managers", "tests_after_a_returning_with"),
    ("context_managers", "continue_ends_a_with"),
    ("context_managers", "continue_in_a_with_in_a_finally"),
    ("context_managers", "with_in_a_finally_in_a_loop"),
    ("context_managers", "with_ends_a_clause"),
    ("context_managers", "returns_from_nested_withs_in_a_clause"),
    ("context_managers", "with_ends_the_outer_round"),
    ("context_managers", "loop_test_leaves_a_with"),
    ("context_managers", "returns_from_a_with_in_a_try"),
    ("context_managers", "logs_after_a_returning_with_in_a_loop"),
    ("context_managers", "returns_from_a_with_under_a_finally"),
    ("exceptions", "raises_from_a_clause_in_a_finally"),
    ("exceptions", "asserts_in_a_clause_in_a_finally_in_a_loop"),
    ("comprehensions", "filtered"),
    ("unpacking", "empty_targets"),
    ("unpacking", "chained_unpacking_targets"),
    ("unpacking", "parallel_targets"),
    ("comprehensions", "comprehensions_in_value_branches"),
    ("comprehensions", "single_item_loops"),
    ("comprehensions", "comprehension_inside_expression"),
    ("comprehensions", "comprehension_between_calls"),
    ("comprehensions", "comprehensions_side_by_side"),
    ("comprehensions", "dict_key_kept_across_an_inlined_value"),
    ("closures", "parallel_assignment_to_a_cell"),
    ("matching", "literals"),
    ("matching", "sequences"),
    ("matching", "mappings"),
    ("matching", "classes_and_values"),
    ("matching", "match_without_wildcard"),
    ("matching", "match_call_result"),
    ("match_shapes", "first_case_uncopied"),
    ("match_shapes", "star_in_the_middle"),
    ("match_shapes", "wildcards_around_a_star"),
    ("match_shapes", "or_binding_names"),
    ("match_shapes", "numbers"),
    ("match_shapes", "dotted_keys"),
    ("match_shapes", "nested"),
    ("match_shapes", "stores_a_global"),
    ("match_shapes", "subject_expression"),
    ("match_shapes", "captures_what_is_left"),
    ("match_shapes", "guarded_capture_first"),
    ("match_shapes", "match_in_an_if"),
    ("match_shapes", "match_in_a_while"),
    ("match_shapes", "empty_case_then_if"),
    ("match_shapes", "literal_cases_after_a_guarded_capture"),
    ("match_shapes", "literal_cases_after_a_first_guarded_capture"),
    ("match_shapes", "guarded_capture_before_cases_that_end"),
    ("match_shapes", "guarded_capture_then_a_capture"),
    ("match_shapes", "cases_that_end_then_a_guarded_capture"),
    ("match_shapes", "case_that_loops_until_it_returns"),
    ("match_shapes", "alternatives_captured_in_a_nested_match"),
    ("finally_ways_out", "returns_through_a_loop_in_an_inner_finally"),
    ("finally_ways_out", "return_thrown_away_by_a_break_in_finally"),
    ("async_shapes", "returns_from_nested_async_fors_in_an_async_with"),
    ("context_managers", "returns_a_walrus_from_a_with"),
    ("context_managers", "returns_a_walrus_from_a_try"),
    ("exceptions", "returns_from_a_try_finally_in_a_branch"),
    ("exceptions", "returns_through_a_finally_ending_in_an_assert"),
    ("async_code", "async_for"),
    ("async_code", "async_with"),
    ("async_code", "break_or_else_then_more"),
    ("async_code", "returns_a_comprehension"),
    ("branches", "or_choice_stored"),
    ("branches", "or_choice_returned"),
    ("branches", "or_choice_logged"),
    ("loops", "continue_under_a_chained_test"),
    ("loops", "breaks_from_a_try_else_under_an_or"),
    ("loops", "clause_breaks_past_the_else"),
    ("branch_shapes", "case_body_is_the_end"),
    ("branch_shapes", "returns_from_a_with_in_an_endless_loop"),
    ("branch_shapes", "clause_breaks_past_the_else_after_tests"),
    ("branch_shapes", "clause_breaks_past_the_else_from_a_with"),
    ("branch_shapes", "raises_under_a_conditional_test"),
    ("branch_shapes", "breaks_from_a_loop_that_ends_a_try"),
    ("branch_shapes", "clause_with_body_always_raises"),
    ("region_shapes", "continue_through_a_branching_finally_in_a_with"),
    ("region_shapes", "continue_in_a_clause_through_a_branching_finally_in_a_with"),
    ("region_shapes", "returns_from_a_with_in_a_while"),
]
# The async shapes, but for those written otherwise as for plain statements: nested
# withs for ``async with a, b``, a break or continue whose copied tail reads as a
# return or an else, a return in a finally read as clauses.
ASYNC_SHAPES = [
    "agen",
    "agen_with_async_for",
    "agen_in_async_with",
    "agen_try_finally",
    "agen_await_in_yield",
    "agen_consumer",
    "async_with_no_target",
    "async_with_tuple_target",
    "async_with_attribute_target",
    "async_with_nested",
    "async_with_return",
    "async_with_return_await",
    "async_with_suppress",
    "async_with_in_loop",
    "async_with_in_while",
    "async_with_in_async_for",
    "async_with_in_try",
    "async_with_not_a_manager",
    "with_inside_async_with",
    "await_positions",
    "await_in_call",
    "await_in_subscript_store",
    "await_in_attribute",
    "await_in_condition",
    "await_in_lambda_default",
    "await_walrus",
    "await_in_augassign",
    "await_in_assert",
    "await_in_raise",
    "await_in_return_tuple",
    "await_await",
    "await_in_slice",
    "await_in_fstring_spec",
    "await_in_yield_expr",
    "async_listcomp",
    "async_setcomp",
    "async_dictcomp",
    "async_genexpr",
    "async_comp_condition",
    "async_comp_nested",
    "async_comp_nested_async",
    "await_in_plain_comp",
    "await_in_comp_condition",
    "async_comp_await_elt",
    "async_comp_as_argument",
    "async_comp_nested_comp",
    "async_genexpr_argument",
    "async_comp_in_yield",
    "async_comp_in_lambda_body",
    "async_comp_shadowing",
    "async_comp_in_class",
    "async_for_return",
    "async_for_continue_break",
    "async_for_try_inside",
    "async_for_in_try_finally",
    "async_for_in_try_except",
    "async_for_nested",
    "async_for_in_for",
    "async_for_tuple_target",
    "async_for_attribute_target",
    "async_for_not_iterable",
    "async_for_returns_in_with",
    "async_for_break_else_return",
    "async_for_while_inside",
    "await_in_clauses",
    "async_with_in_clause",
    "async_for_in_async_with_exits",
    "agen_nested",
    "await_in_comprehension_iter",
    "nested_async_closures",
    "async_comp_dict_filters",
    "async_setcomp_await_cond",
    "async_genexpr_in_call",
    "async_for_else_continue",
    "agen_send",
    "try_finally_around_async_for_break",
    "async_for_break_in_try",
    "async_with_continue_in_while",
    "break_through_async_with",
    "return_through_async_with_in_loop",
    "agen_yield_in_except",
    "agen_break_in_async_with",
    "nested_async_with_break_continue",
    "await_in_while_with_try",
    "comp_with_await_in_iter_and_cond",
    "async_for_star_target",
    "sync_makes_async_genexpr",
    "sync_makes_nested_async_genexpr",
    "awaits_in_a_genexpr",
    "for_in_async_with_exits",
    "async_for_in_with_exits",
]
READABLE += [("async_shapes", name) for name in ASYNC_SHAPES]
# A finally body copied before each way out of a try body that holds loops (a break
# or continue inside them is no way out of the try).
READABLE += [
    ("finally_ways_out", "break_in_a_clause_loop"),
    ("finally_ways_out", "break_in_a_body_loop"),
    ("finally_ways_out", "returns_a_constant_before_code_after"),
    ("finally_ways_out", "returns_constants_before_code_after"),
    ("finally_ways_out", "returns_a_constant_after_the_try"),
    ("finally_ways_out", "returns_through_a_branching_finally"),
]
# A with statement in a loop whose code goes on outside the loop's natural body.
READABLE += [
    ("loop_with_ends", "raises_after_a_with"),
    ("loop_with_ends", "returns_after_a_match"),
    ("loop_with_ends", "breaks_after_an_await"),
    ("loop_with_ends", "returns_after_an_await_in_withs"),
]
READABLE += [("loop_with_ends", "returns_through_a_with_and_a_finally")]
# Except clauses that meet past a try body that never ends normally, at code after it.
READABLE += [
    ("except_clauses", "clauses_meet_after_a_raising_body"),
    ("except_clauses", "clauses_meet_in_a_for"),
    ("except_clauses", "returns_under_a_bare_except_in_a_with"),
]
# A finally body ending in ``try ... except*``, around a try in a loop.
STAR_WAYS_OUT = [
    ("finally_ways_out_star", "comprehension_in_a_clause"),
    ("finally_ways_out_star", "break_in_a_clause_loop"),
]
if sys.version_info >= (3, 11):
    READABLE += STAR_WAYS_OUT
# Regions whose end the walk once missed, getting to a block twice.
READABLE += [
    ("reached_twice", name)
    for name in (
        "return_in_a_finally_under_a_case",
        "return_in_a_finally_after_a_test",
        "assert_in_a_finally_in_a_loop",
        "compound_while_else",
        "clause_returns_from_a_test",
        "async_comprehension_in_a_clause",
    )
]
# Copies of a finally body that the walks read in shapes of their own.
READABLE += [
    ("finally_copies", "continue_through_an_assert"),
    ("finally_copies", "returns_through_an_assert"),
    ("finally_copies", "returns_through_a_finally_and"),
    ("finally_copies", "continue_through_a_finally_and"),
    ("finally_copies", "comprehension_alike_in_body_and_finally"),
    ("finally_copies", "clause_runs_on_to_a_finally_copy"),
    ("finally_copies", "returns_through_a_finally_in_a_named_clause"),
]
if sys.version_info >= (3, 11):
    READABLE += [
        ("finally_copies_star", "returns_before_a_star_finally"),
        ("finally_copies_star", "star_try_ends_in_a_copied_return"),
    ]
EXCEPT_STAR = [
    "split_group",
    "partially_handled",
    "star_with_else_finally",
    "naked_exception",
    "reraises_and_raises",
    "body_starts_with_try",
    "body_with_loop",
    "inside_a_loop",
    "nested_star",
    "inside_a_with",
    "returns_from_the_try",
    "type_from_expressions",
    "captured_by_a_closure",
    "awaits_in_a_clause",
    "yields_in_a_clause",
    "star_in_finally",
    "star_and_finally_with_star",
    "loop_around_star",
    "star_in_while_with_return",
    "star_in_try_finally_in_with",
    "naked_reraised",
    "raised_in_clauses",
    "naked_raised_in_clause",
    "star_in_a_class",
    "loop_in_a_clause",
    "star_in_an_endless_loop",
    "star_clauses_after_a_return_in_a_with",
    "asserts_in_a_star_clause_before_an_else_in_a_finally",
]
if sys.version_info >= (3, 11):
    READABLE += [("except_star", name) for name in EXCEPT_STAR]
    # an except* clause that raises on each arm of an if: the next clause follows it
    READABLE += [
        ("except_star_clauses", "raises_on_both_arms"),
        ("except_star_clauses", "returns_nothing_after_raising_arms"),
        ("except_star_clauses", "raises_through_a_finally"),
        ("except_star_clauses", "raises_from_an_endless_loop"),
    ]
# Ends of class bodies (as of modules), which cannot say return, copied where they go.
READABLE += [
    ("odd_ends", "try_else_ending_a_branch"),
    ("odd_ends", "clauses_and_a_finally_ending_a_body"),
    ("odd_ends", "try_else_in_a_with"),
    ("odd_ends", "endless_loop_in_a_class_with_a_cell"),
    ("odd_ends", "match_ending_a_body_with_a_raising_case"),
    ("odd_ends", "chained_test_in_a_loop_body_that_raises"),
]
if sys.version_info < (3, 12):  # (3.12+ copy a class body's end apart from the loop's)
    READABLE += [("odd_ends", "while_ending_a_branch")]
if sys.version_info >= (3, 11):  # except* clauses that go on to a break or continue
    READABLE += [
        ("odd_ends_star", "break_after_a_star_try_in_a_clause"),
        ("odd_ends_star", "star_try_ending_a_case_ending_a_loop"),
    ]
# Branches whose ends the walk of an if, or of a value, reads.
READABLE += [
    ("branch_region_ends", "chain_stored_last_in_a_class"),
    ("branch_region_ends", "chain_stored_last_in_a_class_branch"),
    ("branch_region_ends", "chain_used_last_in_a_finally"),
]

# Finally bodies that return, break or continue at their end or in a branch of an if
# there, with ways out of the try body (the walk on an exception re-raises only where
# it goes on).
READABLE += [
    ("finally_readings", "returns_from_a_finally_and"),
    ("finally_readings", "continues_from_a_finally_if"),
    ("finally_readings", "breaks_from_a_finally_if_in_a_for"),
    ("finally_readings", "continues_from_every_finally"),
]
# Where with statements end (3.10 copies the exit of the with around, and the code
# after the with up to the end of a class body, to its suppressing way out)
READABLE += [
    ("with_ends", "nested_withs_end_a_class_body"),
    ("with_ends", "withs_in_a_try_finally_in_a_class_body"),
    ("with_ends", "code_after_a_with_ends_a_class_body"),
]

# py313: 3.13's handlers of jumps and breaks laid out as a clause's end, read as
# 3.12's (3.10's layout of the try shape is not read yet).
READABLE += [
    ("py313_shapes", "return_from_a_case_at_the_end_of_a_with"),
    ("py313_shapes", "break_on_a_conditional_test_in_a_clause"),
]
if sys.version_info >= (3, 11):
    READABLE += [("py313_shapes", "break_out_of_a_clause_try_in_a_finally")]

# Loops whose body the walk took to end early, at a region's end or an outer loop's edge.
READABLE += [
    ("loop_region_ends", "async_for_that_never_goes_round_in_a_loop"),
    ("loop_region_ends", "breaks_from_a_clause_after_a_raising_try"),
]

# Chained comparisons in a finally body (whose exception copy ends with a re-raise),
# in an except clause that re-raises, and in a with body.
READABLE += [
    ("chains_in_finally", name)
    for name in (
        "chain_value_in_finally",
        "longer_chain_value_in_finally",
        "four_operand_chain_in_finally",
        "chain_value_in_a_reraising_clause",
        "chain_value_in_finally_in_a_with",
        "chain_value_in_finally_in_a_loop",
        "chain_in_a_call_in_finally",
        "identity_chain_in_finally",
        "chain_condition_in_finally",
        "finally_in_a_clause_with_a_chain",
        "chain_condition_with_a_computed_operand",
    )
]
if sys.version_info >= (3, 11):  # (3.10: a try's else and its clauses go on apart)
    READABLE += [
        ("chains_in_finally", name)
        for name in (
            "chain_condition_before_code_after_a_try",
            "and_chain_condition_before_code_after_a_try",
            "chain_condition_in_a_finally_in_a_try",
            "computed_operand_chain_before_code_after_a_try",
        )
    ]

# A try's else and its clauses that meet at copies of an enclosing finally body, or
# never meet: the else leaves, the code after the clauses is after the try; a return
# from a try body inside an except clause, no end of that body; ``finally: pass``.
READABLE += [
    ("try_meets", name)
    for name in (
        "else_and_clauses_before_a_finally",
        "empty_else_before_a_finally",
        "else_breaks_clauses_go_on",
        "else_raises_clauses_go_on",
        "returns_from_a_try_in_a_named_clause",
        "returns_from_a_try_in_a_named_clause_in_a_loop",
        "empty_finally_after_clauses",
        "empty_finally_returns",
        "empty_finally_around_a_with",
    )
]
if sys.version_info >= (3, 11):  # a try/except* at the end of an except* clause
    READABLE += [
        ("try_meets_star", name)
        for name in (
            "star_try_in_a_star_clause",
            "star_try_in_a_split_group",
        )
    ]
# trys2: a try's else and clauses that 3.10 sends on to copies of what follows them
# (a finally body re-raising, an enclosing clause's end and the return after it).
READABLE += [
    ("try_exits", "try_else_finally_in_a_finally_body"),
    ("try_exits", "try_in_a_named_clause_before_a_return"),
    ("try_exits", "returns_from_a_try_finally_in_a_for_loop"),
    ("try_exits", "returns_a_constant_from_a_try_finally_in_a_for_loop"),
    ("try_exits", "finally_ending_in_a_try_that_always_raises"),
]
if sys.version_info < (3, 11):  # (3.11+ read the nested ifs there as one ``and``)
    READABLE += [("try_exits", "returns_from_a_try_before_copied_code_after")]
if sys.version_info < (3, 13):  # (3.13's clause there returns apart: not read yet)
    READABLE += [("try_exits", "finally_ending_in_a_try_in_a_named_clause")]

# finally2: copies of a finally body before a way out of the try body, in shapes of
# their own (3.11+ write the way out into each branch of the copy's if that goes on;
# the copy's own return, or returns inside its last statement; a continue's copy laid
# out first; a copy ending in a try, the way out copied into its else and clauses; a
# loop's break written as the way out after it).
READABLE += [
    ("finally_exits", "way_out_in_the_branches_of_a_finally_if"),
    ("finally_exits", "own_return_of_a_finally_after_a_return"),
    ("finally_exits", "returns_inside_a_loop_ending_a_finally"),
    ("finally_exits", "continue_laid_out_before_the_normal_copy"),
    ("finally_exits", "continue_laid_out_before_the_normal_copy_in_a_while"),
    ("finally_exits", "continue_copied_into_a_try_ending_a_finally"),
    ("finally_exits", "return_copied_into_a_try_ending_a_finally"),
    ("finally_exits", "break_ending_a_finally_after_a_return"),
]

# py313b: 3.13's copies of a block with no line inlined into the jumps to it (an
# except clause's end), each read as the one block, where the branches meet or the
# loop goes on, a with's suppressing way out runs on into one, or none is left; an
# except* clause body's end sent straight to the next clause (3.10's layouts of the
# try shapes are not read yet).
if sys.version_info >= (3, 11):
    READABLE += [
        ("py313_copies", name)
        for name in (
            "chain_fails_in_a_named_clause_in_a_finally",
            "break_from_a_for_in_a_clause_in_a_finally",
            "async_break_from_a_clause_in_a_finally",
        )
    ]
    READABLE += [
        ("py313_copies_star", name)
        for name in (
            "clause_end_copied_around_a_star_try",
            "star_try_in_a_star_clause_before_a_named_clause",
        )
    ]
if sys.version_info >= (3, 12):  # (3.10 and 3.11 leave the with's other shape apart)
    READABLE += [
        ("py313_copies", "with_raising_in_a_named_clause_in_a_loop"),
        ("py313_copies_star", "with_raising_in_a_named_star_clause"),
    ]
# with_exits: with bodies that leave on every way (through a finally body's copy
# that loops or branches, to a loop's header that starts the function), or that end
# a named except clause whose end the suppressing way out copies; the code after an
# endless loop that the compiler lays out after a break's ``__exit__``.
READABLE += [
    ("with_exits", name)
    for name in (
        "returns_through_a_looping_finally",
        "breaks_through_a_branching_finally",
        "continues_in_nested_withs_starting_a_loop",
        "with_ends_a_named_clause_in_a_class_body",
        "with_ends_a_named_clause_before_code_after",
        "breaks_from_a_with_in_an_endless_loop_before_code",
    )
]

# branches2: breaks out of loops that the walks now place, from an except clause of a
# try body that always raises (3.13 split the chain: an if in an if), and past a for
# loop's else.
if sys.version_info < (3, 13):
    READABLE += [("branch_exits", "breaks_on_a_chained_test_in_a_named_clause")]
READABLE += [("branch_exits", "breaks_from_a_clause_past_a_for_else")]

# Temporaries: values the walk kept in a ``_tN`` local (temps2): a chained comparison's
# middle operand that 3.13's copies of its failing ways kept apart; a match subject
# kept for a literal case after a guarded capture or after other cases, for a match in
# a last capture's case, or under a guarded capture that breaks; a conditional value
# with a walrus arm and a comprehension arm; a comprehension returned from a try body,
# a value returned from a try's else.
READABLE += [
    ("temporary_exits", name)
    for name in (
        "chain_in_a_clause_before_a_return",
        "chain_in_a_clause_before_code_after",
        "literal_case_with_a_guard_after_a_guarded_capture",
        "literal_case_after_a_returning_case",
        "guarded_literal_case_after_a_case_in_a_loop",
        "match_in_a_capture_after_a_raising_case",
        "walrus_arm_beside_a_comprehension",
        "walrus_arms_beside_comprehensions",
        "returns_a_comprehension_from_a_try",
        "returns_a_comprehension_from_a_try_finally",
        "returns_from_an_else_through_a_finally_in_a_try",
        "guarded_capture_that_breaks",
        "guarded_capture_that_breaks_between_cases",
    )
]
if sys.version_info >= (3, 12):  # (3.10 and 3.11 write the and's other way as an arm)
    READABLE += [("temporary_exits", "returns_a_chain_or_a_comprehension_in_a_with")]
# ctxa: code after a try that only its except clauses reach (the body returns,
# breaks or continues) is written after the try, not in a clause.
READABLE += [
    ("clause_exits", name)
    for name in (
        "raise_only_a_clause_reaches",
        "return_only_a_clause_reaches",
        "call_then_return_only_a_clause_reaches",
        "named_clause_then_raise",
        "several_clauses_then_raise",
        "clause_continues_other_raises",
        "with_in_a_clause_then_raise",
        "try_in_a_clause_then_raise",
        "if_in_a_clause_then_raise",
        "clause_breaks_other_raises",
        "tuple_clause_then_raise",
    )
]

# trys: except* clauses whose way on, the next round, the walk wrote as a continue in
# an if's branch, the elif after it (which no except* clause may write).
if sys.version_info >= (3, 11):
    READABLE += [("try_regions_star", "clause_if_ends_a_loop_body")]
    # except* clauses binding one name, whose clearing 3.13 copies to each
    READABLE += [("try_regions_star", "star_clauses_sharing_a_name_in_a_clause")]
# A try ending a try in an except clause, whose clauses' end 3.13 copies (3.10 copies
# the return after it, not read yet).
if sys.version_info >= (3, 11):
    READABLE += [("try_regions", "try_ending_a_try_in_a_clause")]
# brs: branches whose ways the walk once ended in different regions or with different
# stacks (a continue's copy of a finally body laid out before the body's end; 3.13's
# end of an except* clause laid out inside the loop that breaks out of it; a clause
# ending in a with that never ends, whose way out when __exit__ suppresses ends the
# clause too).
READABLE += [
    ("branch_regions", "continues_before_a_raise_after_a_finally"),
    ("branch_regions", "continues_from_a_with_before_a_raise_after_a_finally"),
    ("branch_regions", "clause_ends_in_a_with_that_raises"),
    ("branch_regions", "clause_ends_in_a_with_that_returns"),
]
if sys.version_info >= (3, 11):
    READABLE += [("branch_regions_star", "breaks_on_an_and_in_a_star_clause")]
if sys.version_info < (3, 12):  # (read on 3.12+ already: see py313b above)
    READABLE += [("py313_copies", "with_raising_in_a_named_clause_in_a_loop")]
# loops: loops the walk reads in regions and shapes of their own (a while loop in a
# class body whose test reads a name of the function around it; a while loop with a
# continue that ends an outer loop's body; an endless loop whose only way out is a
# raise in an async for inside; a loop in a try body that only returns from inside
# it; an except clause whose end goes on to the rest of a for loop's round that
# returns).
READABLE += [
    ("loop_regions", name)
    for name in (
        "class_body_loop_reads_a_cell",
        "while_ending_a_for_body_with_a_continue",
        "raises_from_an_async_for_in_an_endless_loop",
        "returns_from_a_loop_in_a_try_that_raises",
        "returns_after_a_clause_in_a_loop_in_a_for",
    )
]
# fins: copies of a finally body before a way out of the try body that hold a with
# (the return value kept over it), a loop returning before the copy's last statement,
# an if whose else raises, the code after it written inside or after it, or a store of
# a conditional value (an if on an exception), a test of an ``and`` or an ``or`` (apart
# or joined early on an exception, negated before a way out), or end in an endless
# loop whose break the compiler wrote as the way out.
READABLE += [
    ("finally_regions", name)
    for name in (
        "returns_a_name_kept_over_a_with_in_finally",
        "returns_a_name_stored_inside_a_with_in_finally",
        "returns_a_name_past_an_if_raising_in_finally",
        "conditional_value_ending_a_finally",
        "returns_a_name_stored_as_a_conditional_value_in_finally",
        "continues_from_an_and_ending_a_finally",
        "returns_from_a_clause_under_a_finally_or_returning",
        "continues_unless_an_and_in_a_finally",
    )
]
if sys.version_info < (3, 12):  # (3.12+ write the loop's if as ``if not t: continue``)
    READABLE += [("finally_regions", "returns_from_a_loop_inside_a_finally")]

# ctxb: code after a try that 3.10 and 3.12 copy to the end of an except clause and of
# the try's else, or of every clause, each copy keeping the statement's line: the
# clause goes on to the else's copy or, where every clause has one, the first clause's,
# after the try, rather than raise inside the clause.
READABLE += [
    ("clause_context_more", name)
    for name in (
        "raise_copied_after_a_clause_and_an_else",
        "raise_copied_after_a_named_clause_and_an_else",
        "raise_copied_after_clauses_and_an_else",
        "raise_copied_after_every_clause_in_a_loop",
    )
]

# ctxd: a raise after a try in a loop whose clause ends in an if: 3.10 jumps from both
# ends of the clause to one copy of the raise, which the clause goes on to after the
# try rather than raise inside it.
READABLE += [("clause_tails_copied", "raise_after_a_clause_ending_in_an_if")]

# A for loop's body that returns or raises with a value of its own above the iterator
# (a match subject; 3.13: a comprehension thrown away): its first pop is no break's.
READABLE += [
    ("loop_body_values", name)
    for name in (
        "match_case_returns_after_the_match",
        "match_cases_return",
    )
]
if sys.version_info >= (3, 13):
    READABLE += [
        ("loop_body_values", name)
        for name in (
            "list_before_a_return",
            "filtered_dict_before_a_raise",
            "nested_before_a_return",
        )
    ]

# else13: a try whose else goes on to where the body around ends (a return that cannot
# raise), or whose branches and clauses go on through 3.13's copies of that end, while
# the clauses go on to the code after the try; code after a try read into its body (an
# if's jump 3.13 leaves out of the try, a break's copy of the return after a loop); a
# return 3.13 copies past an except* clause's end, where no return may be written.
READABLE += [
    ("try_else_ends", name)
    for name in (
        "branch_jump_out_of_a_try_in_a_clause",
        "else_returns_before_a_raise",
        "else_returns_a_value_before_a_raise",
        "if_in_a_try_in_a_loop",
        "break_out_of_a_try_before_a_raising_return",
        "breaks_out_of_a_test_and_a_try_before_a_raising_return",
    )
]
if sys.version_info >= (3, 11):
    READABLE += [
        ("try_else_ends_star", name)
        for name in ("try_in_a_star_try_ending_a_clause", "star_clause_before_a_copied_return")
    ]

# temps: values kept in a ``_tN`` local that ``locals()`` shows: a chain whose failing
# pop 3.10 sends to a copy of the return after the try around; a conditional argument,
# one arm a chain or a boolean operation, before a tail copied into each arm's ends.
READABLE += [
    ("temporaries_seen", name)
    for name in (
        "chain_in_a_finally_before_a_copied_return",
        "conditional_chain_argument_in_a_finally",
        "returns_a_call_of_a_conditional_chain",
        "returns_a_call_of_a_conditional_boolean",
        "returns_through_a_finally_ending_in_an_endless_loop",
        "returns_through_a_finally_ending_in_a_loop_left_by_a_break",
        "returns_from_a_for_loop_ending_a_with",
        "breaks_or_returns_from_a_with_in_a_while",
    )
]
if sys.version_info < (3, 12):  # (3.12+: a state machine, loop and finally reasons)
    READABLE += [("temporaries_seen", "returns_from_a_for_loop_ending_a_try_finally")]


# raises: a break, continue or return written in a with body inside a try, where
# ``__exit__`` suppressing goes on to other code after the with, is no end of the try
# body, nor a copy of the code after the try; except* clauses whose ends go on to the
# original of a copy of the code after the try meet the else there (3.13); in a loop,
# a clause meets an else that ends in a loop past that loop; a kept value a finally
# body's return throws away is stored in no temporary, beside the walrus's name.
READABLE += [
    ("raising_loops", name)
    for name in (
        "breaks_from_a_with_then_raises",
        "returns_from_a_with_before_code_after_it",
        "returns_from_nested_withs_in_a_for",
        "returns_a_walrus_thrown_away_by_finally",
    )
]
if sys.version_info >= (3, 11):  # (3.10 copies the return after the loop: no breaks)
    READABLE += [
        ("raising_loops", "clause_breaks_where_the_else_loops"),
        ("raising_loops_star", "clauses_meet_the_else_at_a_copy"),
    ]

# lbody: loop bodies whose end the walk once missed: a break after a try to the
# function's return that 3.12+ copy there, a for loop's return through a with and a
# finally body holding a loop, a finally body's comprehension copied before a continue,
# a case's return in a loop laid out where the try around it ends.
READABLE += [
    ("loop_bodies", name)
    for name in (
        "returns_from_a_for_through_a_with_and_a_finally_loop",
        "continues_through_a_finally_comprehension",
        "returns_from_a_case_in_a_loop_in_a_try",
    )
]
if sys.version_info >= (3, 11):  # (3.10 writes the break in the clause and an else)
    READABLE += [("loop_bodies", "break_after_a_try_to_a_copied_return")]

# andor: ``c and V1 or V2`` whose first side branches itself (a conditional value, or
# an and/or whose keeping jumps 3.10 and 3.11 send straight to the end of the whole);
# an if before an async for whose branches each made the loop's iterator.
READABLE += [
    ("branch_sides", name)
    for name in (
        "and_or_with_a_conditional_first",
        "or_and_with_a_conditional_first",
        "and_or_with_an_and_or_first",
        "or_and_with_an_or_and_first",
        "and_or_first_sides_in_a_loop",
        "async_for_after_an_if_that_returns_in_an_async_with",
        "async_for_after_an_elif_that_returns_in_an_async_with",
    )
]

# fin2: finally bodies whose copies are found: the finally body's own return of a
# cell after a clause's return, kept in a temporary by the walk; an assert ending a
# finally body, its else written after it by one walk, before a continue inside a
# with; a loop testing an ``and`` in a finally body, read as nested ifs each breaking
# on an exception and negated on the normal path; ``if a or b: return`` then more code
# in a finally body, that code in the else on an exception; a finally body ending in an
# endless loop, whose breaks the compiler writes as the re-raise on an exception (read
# as a clause before) and as the return after the try on the normal path; a return
# through an inner finally body, the clearing of a clause's name, then the outer one.
READABLE += [
    ("finally_bodies", name)
    for name in (
        "returns_a_cell_in_finally_after_a_clause_returns",
        "asserts_in_a_finally_before_a_continue_in_a_with",
        "continues_through_a_finally_looping_on_an_and",
        "returns_from_an_or_in_a_finally_before_more_code",
        "breaks_or_returns_in_an_endless_loop_ending_a_finally",
        "returns_from_an_inner_finally_try_in_a_named_clause",
    )
]
READABLE += [
    ("finally_regions", "returns_through_an_endless_loop_in_finally"),
    ("finally_regions", "returns_from_named_clauses_through_an_endless_loop"),
]
# tmatch: match subjects kept in no temporary (a guarded capture before cases that
# never go on and a default case that does, whose body never goes on, or that goes on
# to a return copied after the other cases); returns through a finally body ending in
# an if one of whose branches ends in ``while True`` left by a break.
READABLE += [
    ("match_temporaries", name)
    for name in (
        "guarded_capture_before_a_raising_case",
        "guarded_capture_before_literal_cases",
        "guarded_capture_before_a_capture_in_a_loop",
        "guarded_capture_after_cases_before_a_raising_case",
        "guarded_capture_ending_in_a_match_before_a_case_that_goes_on",
        "guarded_capture_first_ending_in_a_match_before_a_literal_case",
        "guarded_capture_after_a_looping_case_before_a_return",
        "returns_through_a_finally_ending_in_a_loop_in_an_else",
        "returns_through_a_finally_ending_in_a_loop_in_a_body",
        "returns_through_a_finally_ending_in_a_loop_after_an_elif",
        "returns_from_a_loop_through_a_finally_ending_in_a_loop_in_an_else",
    )
]

# temps10: values kept in a ``_tN`` local that ``locals()`` shows (3.10 mostly): a
# return through an inner finally ending in an if, inside a try with a clause; a chain
# whose failing pop 3.10 gives its own copy of a clause's end, or a lone jump on to a
# copy of the return after the try; a finally body ending in an ``and``, read as nested
# ifs in one of its copies; ``x = a or (b if c else d)`` ending the function, one arm
# with its own copy of the store and the return.
READABLE += [
    ("temporaries_left", name)
    for name in (
        "returns_through_an_inner_finally_ending_in_an_if",
        "chain_looping_in_a_case_before_a_copied_return",
        "stores_an_or_of_a_conditional_whose_arm_copies_the_tail",
        "assigns_an_or_of_a_conditional_whose_arm_copies_the_tail",
    )
]
if sys.version_info < (3, 11):  # (3.11+ read the nested ifs as one ``and``)
    READABLE += [("temporaries_left", "chain_in_a_clause_before_the_return_after_the_try")]
if sys.version_info < (3, 12):  # (3.12+ write the finally body's ``and`` as nested ifs)
    READABLE += [("temporaries_left", "returns_through_a_finally_ending_in_an_and")]

# sm10: copies of a finally body before a way out that 3.10 wrote otherwise: a name
# returned through a finally body whose last if (elif, match) stores to it, the return
# copied into each branch; a return through two finally bodies, the outer copy and the
# return copied into each branch of the inner copy's last if; a while loop on a
# compound test ending a clause, each of the test's ways out a copy of its follow; a
# return from a loop in a try in a clause, after the clause's POP_EXCEPT.
READABLE += [
    ("fallbacks_310", name)
    for name in (
        "returns_a_name_a_finally_if_stores",
        "returns_a_name_a_finally_elif_stores",
        "returns_a_name_a_finally_match_stores",
        "returns_through_two_finally_bodies_ending_in_an_if",
        "loops_on_a_compound_test_ending_a_clause",
        "returns_from_a_loop_in_a_try_in_a_clause",
    )
]

# sm13: a return from a loop in a try inside an except clause, which ends the clause
# on its way out (outside the try's handler): no end of the try's body.
READABLE += [("fallbacks_313", "returns_from_a_loop_in_a_try_in_a_clause")]
# A while loop testing a conditional expression, whose body's try has an else that
# raises or breaks (the natural loop leaves it out); 3.12 lays the test out otherwise.
if sys.version_info[:2] != (3, 12):
    READABLE += [("fallbacks_313", "breaks_or_raises_from_an_else_in_a_conditional_while")]
# A finally body's own return in an else or an elif, after a return in the try body:
# the walk on an exception lays that branch out after the if whose body re-raises.
READABLE += [
    ("fallbacks_313", "returns_from_an_elif_in_a_finally_after_a_return"),
    ("fallbacks_313", "returns_from_an_else_in_a_finally_after_a_return"),
]


# under: loop bodies the walk ran with the wrong values on the stack: a return in a for
# loop in an except clause after a conditional test; the rest of a round that only
# breaks, after a chained comparison's continue or a with in a case; a chained test's
# continue in a finally body in an async for; a nested match's last case that unpacks
# its subject (3.12+ send the failure of a test on an item straight past the match).
READABLE += [
    ("stack_values_left", name)
    for name in (
        "returns_a_conditional_test_from_a_for_in_a_clause",
        "rest_of_a_round_after_a_chain_continue",
        "rest_of_a_round_after_a_with_in_a_case",
        "continues_on_a_chain_in_a_finally_in_an_async_for",
        "nested_match_unpacks_its_last_case",
    )
]

# 3.10's copies of a raise after a try, where the body, a with in it whose __exit__
# suppresses and a clause each go on to one: the clause's is where the try goes on.
# (3.11 reads the raise as the code after the loop, each way there a break.)
if sys.version_info[:2] != (3, 11):
    READABLE += [
        ("copies_after_a_try", "_raises_after_a_with_in_a_try"),
        ("copies_after_a_try", "_raises_after_a_with_in_an_unnamed_clause"),
    ]

# tfin: return values held on the stack while a finally body, an except clause's end
# or a with's ``__exit__`` runs: an inlined comprehension (3.12+) returned from a try,
# an if in one, a loop in one or a with; a value returned through a finally body
# ending in a loop left by a break.
READABLE += [
    ("held_return_values", name)
    for name in (
        "returns_a_list_comprehension_through_a_finally",
        "returns_a_set_comprehension_through_a_finally",
        "returns_a_dict_comprehension_through_a_finally",
        "returns_an_async_comprehension_through_a_finally",
        "returns_an_async_comprehension_from_an_if_in_a_try",
        "returns_comprehensions_from_both_branches_in_a_try",
        "returns_a_comprehension_from_a_loop_through_a_finally",
        "returns_a_comprehension_from_a_with",
        "returns_a_comprehension_from_an_async_with",
        "returns_a_comprehension_through_a_finally_in_a_with",
        "returns_through_an_async_for_that_breaks",
        "returns_through_a_for_that_breaks",
        "returns_through_a_finally_loop_with_an_else",
        "returns_through_a_clause_and_a_finally_loop_with_an_else",
        "returns_a_conditional_comprehension_through_a_finally",
    )
]
# (3.11 reads the loop as ``while not a:``; the others of the finally bodies that
# branch to their end are read otherwise than written, with no temporary:
# test_held_return_values_keep_no_temporary)
if sys.version_info[:2] != (3, 11):
    READABLE += [("held_return_values", "returns_through_a_finally_loop_that_returns")]

# tmisc: stack values once spilled to a temporary: a return under a finally body that
# always raises (no RETURN_VALUE: the value stays on the stack as the copy raises); a
# chained comparison whose failing pop holds a copy of where it fails, split in blocks
# by a handler's range; a call ending the function on a conditional operand one arm of
# which is an inlined comprehension (3.12+).
SPILLED_VALUES = [
    "returns_in_a_named_clause_under_a_raising_finally",
    "returns_in_a_named_clause_under_a_finally_raising_sometimes",
    "returns_a_failing_value_in_a_named_clause_under_a_raising_finally",
    "returns_from_a_try_under_a_raising_finally",
    "returns_from_a_for_loop_under_a_raising_finally",
    "returns_from_a_while_loop_under_a_raising_finally",
    "chain_on_a_cell_before_its_return",
    "chain_on_a_local_before_its_return",
    "chain_on_a_cell_in_a_clause_inside_a_try",
    "call_ending_the_function_on_a_comprehension_arm",
    "call_returned_on_a_comprehension_arm",
    "raise_on_a_comprehension_arm",
]
READABLE += [("spilled_values", name) for name in SPILLED_VALUES]


# A bare return in a try inside another try's body, both with finally bodies: its
# copies of both, then the return of None, are the way on past the inner try's end
# too, which 3.10-3.13 read as that end (seed 1372 on 3.13).
READABLE += [
    ("returns_through_nested_finally", name)
    for name in (
        "_returns_none_through_two_finally_bodies",
        "_deletes_after_a_return_through_two_finally_bodies",
        "_returns_through_three_finally_bodies",
        "_returns_none_or_goes_on_past_two_finally_bodies",
    )
]

# A try statement in a finally body, copied before a return: the return copied into
# its clauses, the else read as code after it (3.10), or an inner finally body's copy
# before it (every Python).
READABLE += [
    ("finally_bodies_holding_a_try", name)
    for name in (
        "_returns_through_an_inner_finally_and_a_try",
        "_returns_through_an_inner_finally_and_a_try_with_an_else",
    )
]
if sys.version_info[:2] == (3, 10):
    READABLE += [
        ("finally_bodies_holding_a_try", "_returns_through_a_try_with_an_else"),
        ("finally_bodies_holding_a_try", "_returns_a_constant_through_a_try_with_an_else"),
    ]


# tmatch2: match subjects kept in no temporary, read as written: a literal case after
# a case that continues (3.12+ lay its test out after it, on the kept subject); a
# guarded capture before a last literal case whose body is an assert (the case's test
# folds into the assert's; 3.13 writes ``assert a or b`` there as an if and an assert).
READABLE += [
    ("match_subject_temporaries", "continues_before_a_literal_case"),
    ("match_subject_temporaries", "guarded_capture_before_an_asserting_literal_case"),
]
if sys.version_info < (3, 13):
    READABLE += [("match_subject_temporaries", "guarded_capture_before_an_asserting_case")]

# tloop: a while loop the compiler wrote as an if (no way round: its body returns or
# breaks), a finally body around the return breaking out of it (seed 35551), is that
# loop again: the copies going on past the try are the finally body's breaks, as are
# the copies of a short follow (3.10 after the try, 3.12+ in the finally body's copy).
READABLE += [
    ("loops_compiled_away", name)
    for name in (
        "break_from_finally_loop_gone",
        "break_from_finally_loop_gone_bare",
        "break_from_finally_loop_gone_with_else",
        "break_from_finally_loop_gone_more_after",
        "break_from_finally_loop_gone_nested",
        "break_from_finally_loop_gone_nested_if",
        "break_from_finally_loop_gone_and_test",
        "break_from_finally_loop_gone_or_test",
        "break_from_finally_loop_gone_twice",
        "break_from_finally_loop_gone_or_raise",
        "break_from_finally_loop_gone_after_a_continue",
        "break_from_finally_loop_gone_in_a_try",
        "break_from_finally_loop_gone_walrus",
        "break_from_finally_loop_gone_async",
    )
]
if sys.version_info < (3, 12):  # (3.12+ copy the follow's return into the finally body)
    READABLE += [
        ("loops_compiled_away", "break_from_finally_loop_gone_short_follow"),
        ("loops_compiled_away", "break_from_finally_loop_gone_follow_in_a_branch"),
    ]
# tnew: an or whose last operand is a conditional with an f-string arm (or a call with
# keywords, starred items), returned from an except clause (3.12+ copy the return into
# the other arm), read as written, with no temporary (test_snippet_modules_keep_no_temporary
# holds the other shape of the group).
READABLE += [
    ("fresh_temporaries", name)
    for name in (
        "returns_an_or_ending_in_a_formatted_arm_in_a_clause",
        "returns_an_or_ending_in_an_fstring_arm_in_a_loop",
        "returns_an_or_ending_in_an_fstring_arm_async",
        "returns_an_or_ending_in_a_keyword_call_arm_in_a_clause",
        "returns_an_or_ending_in_a_starred_arm_in_a_clause",
    )
]


def control_shape(function: ast.AST) -> collections.Counter:
    return collections.Counter(
        type(node).__name__ for node in ast.walk(function) if isinstance(node, CONTROL_NODES)
    )


def assigned_names(function: ast.AST) -> set[str]:
    names = {
        n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    names |= {n.name for n in ast.walk(function) if isinstance(n, ast.ExceptHandler) and n.name}
    return names


@pytest.mark.parametrize(("snippet_name", "name"), READABLE, ids=[".".join(r) for r in READABLE])
def test_structure_is_recovered(snippet_name, name):
    snippet = Snippet(snippet_name, SNIPPETS / f"{snippet_name}.py")
    function = resolve(snippet.original(), name)
    source = decompile(function)
    decompiled = function_def(ast.parse(source), name)
    assert decompiled is not None, f"no definition of {name!r}:\n{source}"
    original = function_def(ast.parse(snippet.source), name)
    expected, actual = control_shape(original), control_shape(decompiled)
    assert actual == expected, (
        f"control flow differs: the source has {dict(expected)}, "
        f"the decompiled code {dict(actual)}\n{source}"
    )
    invented = assigned_names(decompiled) - names_in(function.__code__)
    assert not invented, f"names the code object does not have: {sorted(invented)}\n{source}"


def test_a_with_statement_ends_where_its_suppressing_path_goes_on():
    snippet = Snippet("context_managers", SNIPPETS / "context_managers.py")
    function = resolve(snippet.original(), "nested_withs_end_a_branch")
    source = decompile(function)
    decompiled = function_def(ast.parse(source), "nested_withs_end_a_branch")
    withs = [node for node in ast.walk(decompiled) if isinstance(node, ast.With)]
    assert withs, source
    inside = [node for node in ast.walk(withs[0]) if isinstance(node, ast.Return)]
    assert not inside, source


# Structured, though not yet as written (temporaries stand in for the stack): at least
# no state machine.
# ``note_first_unusual``: its break comes out as the return the compiler copied there;
# ``next_header``: the break after the try is also written at the end of the clause;
# ``page_until_quit``: ``else: continue`` comes out as the rest of the body in the if;
# ``first_group_lengths``: the break comes out as the return the compiler copied there;
# ``settle_line``: likewise;
# ``final_number``: 3.10, 3.12 and 3.13 test the loop once before it and again at its
# end, with returns on every way out: it comes out as ``if parts: while True: ...``;
# ``value_in_loop_test``: a loop test that makes its own value (``a or (b or c) == d``)
# is not matched with its copy at the end of the body: ``if t: while True: ... break``;
# ``first_match``: a finally body with an if of its own comes out as a bare except
# that re-raises, its copy in the else and before each return;
# ``find_caller``: the if before the break writes the break in its branch too;
# ``reads_until_closed``: ``if c: ... else: return`` at the end of a loop's body
# compiles as ``if c: ...; continue`` then ``return`` does, written so on 3.10 and 3.11;
# ``polls_under_a_finally``: the clause's return comes out as a break, which the
# finally body and the return after it follow;
# ``dead_handler_before_a_loop``: the try statement that protects nothing is gone;
# ``pass_in_a_finally``: 3.13 read the finally body as ``first_match``'s is;
# ``loop_in_try_finally``: 3.10 test the loop once before it, as in ``final_number``;
# ``guarded_case_after_a_clause``: 3.10 read the guard as an if in the case body;
# ``guarded_capture_then_a_return``: a first guarded capture reads as an if on the guard;
# ``finally_breaks_a_for``: ``finally: break`` reads as a bare except that breaks, and a
# break at the end of the try body;
# ``returns_from_a_with_in_a_loop``, ``breaks_from_a_with_in_a_try_in_a_loop``: the
# break comes out as the return the compiler copied there;
# ``cases_share_a_copied_return``: 3.12+ write the return the compiler copied where each
# case gets to it, and the loop's ``if c: break`` as its test;
# ``loop_in_a_clause_breaks_at_once``: the loop that never goes round is no loop.
# ``returns_through_a_finally_that_raises``, ``returns_a_name_through_a_finally_that_raises``:
# the finally body reads as a bare except and an else, the return as its value alone;
# ``returns_through_a_with_and_a_finally_that_returns``: likewise, and the return is gone;
# ``breaks_from_nested_withs_in_a_while``, ``breaks_from_a_with_in_an_endless_loop``:
# the break comes out as the return the compiler copied there;
# ``returns_through_a_finally_in_a_try``: 3.12+ copy the raise after the inner try.
# ``break_through_an_assert``: 3.12+ take the break for where the try body ends, and
# the continue, the end of the loop body, for the way out of it;
# ``break_through_an_assert_in_a_with``: the break comes out as the return the
# compiler copied there; ``break_through_an_or_assert``: as ``break_through_an_assert``.
STRUCTURED = [
    ("region_shapes", "returns_through_a_finally_in_a_try"),
    ("region_shapes", "breaks_from_nested_withs_in_a_while"),
    ("region_shapes", "breaks_from_a_with_in_an_endless_loop"),
    ("region_shapes", "returns_through_a_with_and_a_finally_that_returns"),
    ("region_shapes", "returns_through_a_finally_that_raises"),
    ("region_shapes", "returns_a_name_through_a_finally_that_raises"),
    ("finally_copies", "break_through_an_assert"),
    ("finally_copies", "break_through_an_assert_in_a_with"),
    ("finally_copies", "break_through_an_or_assert"),
    ("branch_shapes", "cases_share_a_copied_return"),
    ("branch_shapes", "loop_in_a_clause_breaks_at_once"),
    ("branch_shapes", "clause_breaks_from_a_loop_that_ends_a_try"),
    ("loops", "finally_breaks_a_for"),
    ("match_shapes", "guarded_capture_then_a_return"),
    ("context_managers", "returns_from_a_with_in_a_loop"),
    ("context_managers", "breaks_from_a_with_in_a_try_in_a_loop"),
    ("match_shapes", "guarded_case_after_a_clause"),
    ("exceptions", "loop_in_try_finally"),
    ("exceptions", "pass_in_a_finally"),
    ("exceptions", "dead_handler_before_a_loop"),
    ("exceptions", "polls_under_a_finally"),
    ("context_managers", "reads_until_closed"),
    ("comprehensions", "comprehension_in_an_or"),
    ("loops", "note_first_unusual"),
    ("loops", "next_header"),
    ("loops", "page_until_quit"),
    ("comprehensions", "first_group_lengths"),
    ("loops", "settle_line"),
    ("loops", "final_number"),
    ("branches", "value_in_loop_test"),
    ("exceptions", "first_match"),
    ("loops", "find_caller"),
]
if sys.version_info >= (3, 11):  # ``try: pass`` goes; its finally body stays
    STRUCTURED += [("except_star", "star_in_finally_of_pass")]
    # not yet read as written (tests/known_gaps.py), but no longer a state machine
    STRUCTURED += STAR_WAYS_OUT
# Loops inside with and try bodies (3.10's layout of some is not read yet): the
# rounds that end by raising and the ways out that end the region around come out
# as the same code written otherwise (``try: pass`` gone, ``else: continue`` dropped).
STRUCTURED += [
    ("loops_in_regions", "returns_through_withs_under_a_compound_test"),
    ("loops_in_regions", "round_ends_in_a_loop_that_raises"),
    ("loops_in_regions", "round_ends_in_a_for_else_that_raises"),
    ("loops_in_regions", "while_else_breaks_the_for_around"),
]
if sys.version_info >= (3, 11):
    STRUCTURED += [
        ("loops_in_regions", "try_else_raises_every_round"),
        ("loops_in_regions", "finally_breaks_the_first_round"),
        ("loops_in_regions", "loop_is_the_whole_try_body"),
        ("loops_in_regions", "returns_from_a_loop_in_a_clause"),
        ("loops_in_star_regions", "loop_after_a_with_that_returns"),
        ("loops_in_star_regions", "while_else_breaks_the_for_around"),
        ("loops_in_star_regions", "finally_continues_after_a_star_clause"),
        ("loops_in_star_regions", "star_clause_ends_an_endless_round"),
    ]
if sys.version_info >= (3, 11):  # (3.10's layout of it is not read yet)
    STRUCTURED += [("region_shapes", "returns_from_a_case_through_a_finally_that_raises")]
# An inner loop whose every round breaks (3.12+ send the breaks straight to the outer
# loop's next round): ``if c: pass`` comes out as ``if c: break`` before the rest.
STRUCTURED += [
    ("loop_with_ends", "breaks_to_the_next_round_after_a_with"),
    ("loop_with_ends", "breaks_to_the_next_round_after_a_try"),
    ("loop_with_ends", "async_breaks_to_the_next_round_after_a_with"),
]
if sys.version_info[:2] == (3, 12):  # (other layouts of it are not read yet)
    STRUCTURED += [("loops_in_regions", "with_breaks_an_endless_loop_in_a_clause")]
# branches2: branches that leave a with or try body at places the walks read. A loop
# that never goes round is no loop: it reads as an if, its break as a continue.
STRUCTURED += [("branch_exits", "breaks_from_a_with_in_a_loop_that_raises")]
if sys.version_info >= (3, 13):  # (3.13 split the chain: an if in an if)
    STRUCTURED += [("branch_exits", "breaks_on_a_chained_test_in_a_named_clause")]
# loops: an endless loop whose break ends the try body around it: ``if c: break`` at
# the top of its body comes out as the loop's test, ``while not c:``.
STRUCTURED += [("loop_regions", "breaks_from_an_endless_loop_ending_a_try")]

# trys: ``finally: continue`` and ``finally: break`` after except* clauses, read as a
# bare except that continues or breaks around the try, the jump after it once (the
# clauses may not write it).
if sys.version_info >= (3, 11):
    STRUCTURED += [
        ("try_regions_star", "finally_continue_after_raising_body"),
        ("try_regions_star", "finally_break_after_clauses"),
    ]
# trys: a named clause whose copy of ``finally: ...; continue`` 3.12+ put at its end;
# the break before it comes out as the continue that the finally body runs instead.
STRUCTURED += [("try_regions", "finally_continue_after_a_named_clause")]
# trys: a break from a try body to the return 3.12+ copy there: the return in the body
# (3.10's layout of it is not read yet).
if sys.version_info >= (3, 11):
    STRUCTURED += [("try_regions", "break_from_a_try_before_a_return")]
# brs: an if whose with always raises, before a with: the branches meet at its entry
# (the loop around the if never goes round, so it reads as an if).
STRUCTURED += [("branch_regions", "with_after_a_loop_whose_with_always_raises")]
# raises: an endless loop ending the function, a with in a try that continues, then
# the break ``__exit__`` suppressing gets to: read as the try's else, a return; a with
# in an if ending a case, in a class body: the if reads as the case's guard.
STRUCTURED += [
    ("raising_loops", "continues_in_a_with_then_breaks"),
    ("raising_loops", "with_in_a_case_in_a_class_body"),
]
if sys.version_info < (3, 11):
    STRUCTURED += [("raising_loops", "clause_breaks_where_the_else_loops")]

# A match case in a ``while True``, its subject still on the stack: the way out that
# captures it is the case's code (its continue and break come out as ``pass`` and the
# return after the loop).
STRUCTURED += [
    ("loop_body_values", name) for name in ("endless_match_breaks", "endless_match_returns")
]

# lbody: a break after a try to the finally body's copy after the try around (3.13
# writes it in the try and the clause), a return's value a finally body's continue
# drops (a statement, then the continue), a clause's break to a copied return (3.13:
# the return).
STRUCTURED += [
    ("loop_bodies", name)
    for name in (
        "break_after_a_try_to_the_end_of_a_finally",
        "break_after_a_try_to_a_copied_return",
        "return_dropped_by_a_finally_continue",
        "clause_breaks_to_a_copied_return",
    )
]

# andor: an if in a try body whose body returns a constant, 3.13 leaving its jump out of
# the exception table (read back, the if may be a case's guard); an except clause's
# continue in a with ending a loop body (read back, it may be the with's end).
STRUCTURED += [
    ("branch_sides", "returns_a_constant_from_an_if_in_a_case_in_a_try"),
    ("branch_sides", "continues_from_a_clause_in_a_with_ending_a_loop_body"),
    ("branch_sides", "continues_from_a_clause_in_an_async_with_ending_a_loop_body"),
]

# fin2: a break out of a loop through a finally body holding a loop, the return after
# the loop copied to it (3.10, 3.12+): that return, the copy before it read as one
# (3.10 reads a try's else there otherwise).
STRUCTURED += [("finally_bodies", "breaks_through_a_finally_holding_a_loop")]
if sys.version_info >= (3, 11):
    STRUCTURED += [("finally_bodies", "breaks_from_an_else_through_a_finally_holding_a_loop")]

# sm10: a clause's break through a finally body ending in an assert and an if that
# continues, and a for loop's break in a try whose else ends in an if: the break comes
# out as the return 3.10 copies there.
STRUCTURED += [
    ("fallbacks_310", "breaks_from_a_clause_through_a_finally_that_continues"),
    ("fallbacks_310", "breaks_from_a_for_in_a_try_whose_else_ends_in_an_if"),
]
# sm10: ``finally: break`` in a for loop with an else: the handler's break, past the
# else, reads as a bare except clause that breaks (every Python).
STRUCTURED += [("fallbacks_310", "breaks_from_a_finally_in_a_for_with_an_else")]

# sm13: ways out of a try body through copies of a finally body holding a loop (3.12+
# inline a comprehension as one), read as copies of one another (a return in the loop
# comes out as the break that runs the same code); a finally body's break then a try
# holding a loop; the finally body's continue after a break from a with in a clause; a
# return from a loop in an inner finally body's copy on an exception, through a copy of
# the outer try's end (the loop re-raises where it ends).
# (3.10's layout of the return and the break through the comprehension is not read.)
STRUCTURED += [
    ("fallbacks_313", name)
    for name in (
        "returns_from_a_for_through_a_finally_comprehension",
        "breaks_in_a_finally_then_a_try_holding_a_loop",
        "returns_from_a_loop_in_a_try_in_a_clause",
        "breaks_from_a_with_in_a_clause_through_a_finally_continue",
        "returns_from_a_loop_in_a_finally_inside_a_finally",
    )
]
if sys.version_info >= (3, 11):
    STRUCTURED += [("fallbacks_313", "returns_or_breaks_through_a_finally_comprehension")]

# under: the rest of a round after a with in an if whose else continues (read back, the
# rest goes into the if); an endless loop's case ending in ``finally: break`` (read
# back, the break is the return after the loop).
STRUCTURED += [
    ("stack_values_left", "rest_of_a_round_after_a_with_in_an_if"),
    ("stack_values_left", "case_in_an_endless_loop_ending_in_finally_break"),
]


@pytest.mark.parametrize(
    ("snippet_name", "name"), STRUCTURED, ids=[".".join(r) for r in STRUCTURED]
)
def test_no_state_machine(snippet_name, name):
    snippet = Snippet(snippet_name, SNIPPETS / f"{snippet_name}.py")
    source = decompile(resolve(snippet.original(), name))
    assert "control flow not structured" not in source, source


def test_a_walrus_in_a_comprehension_leaves_no_helper():
    """3.10 and 3.11 compile each comprehension to a function of its own, whose walrus
    declares the global it stores: the comprehension comes back inline all the same."""
    snippet = Snippet("module_walrus", SNIPPETS / "module_walrus.py")
    source = decompile(compile(snippet.source, str(snippet.path), "exec"))
    assert not re.search(r"\b_t\d+\b", source), source


# 3.10 copies a module's implicit ``return None`` into each branch that ends it.
MODULE_ENDING_IN_CLAUSES = """
try:
    import _no_such_module
except ImportError:
    try:
        import math
    except ImportError:
        KIND = "none"
    else:
        KIND = "math"
else:
    KIND = "fake"
"""


def test_module_ending_in_clauses_is_structured():
    source = decompile(compile(MODULE_ENDING_IN_CLAUSES, "<module>", "exec"))
    assert "_state" not in source, source
    namespace = {}
    exec(source, namespace)
    assert namespace["KIND"] == "math"


# The clauses and the else of the inner try meet at a raise: no post-dominator says
# where the try ends; the way the body's end goes on does.
MODULE_CLAUSES_MEET_AT_A_RAISE = """
import contextlib
LOG = []
if LOG is not None:
    try:
        raise KeyError(1)
    except KeyError:
        with contextlib.suppress(TypeError):
            try:
                LOG.append(int("x"))
            except ValueError as e:
                LOG.append("value")
            except KeyError as e:
                pass
            else:
                LOG.append("else")
            raise TypeError(2)
"""


@pytest.mark.skipif(sys.version_info < (3, 11), reason="3.10's layout of it is not read yet")
def test_clauses_meeting_at_a_raise_are_structured():
    source = decompile(compile(MODULE_CLAUSES_MEET_AT_A_RAISE, "<module>", "exec"))
    assert "_state" not in source, source
    namespace = {}
    exec(source, namespace)
    assert namespace["LOG"] == ["value"]


def test_a_module_ending_in_a_try_else_is_structured():
    snippet = Snippet("module_try_else", SNIPPETS / "module_try_else.py")
    _, source = snippet.decompiled_module()
    assert "control flow not structured" not in source, source


def test_a_module_ending_in_a_match_is_structured():
    # each case ends in the module's implicit return, which a module cannot write
    snippet = Snippet("match_module", SNIPPETS / "match_module.py")
    _, source = snippet.decompiled_module()
    assert "control flow not structured" not in source, source


def test_a_module_ending_in_an_endless_loop_is_structured():
    # its breaks go to the module's implicit return, which a module cannot write
    snippet = Snippet("module_loop_end", SNIPPETS / "module_loop_end.py")
    _, source = snippet.decompiled_module()
    assert "control flow not structured" not in source, source
    kinds = collections.Counter(type(n).__name__ for n in ast.walk(ast.parse(source)))
    assert kinds["Break"] == 2 and kinds["Return"] == 1, source  # (logged's return)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="except* is 3.11+")
def test_a_module_ending_after_a_star_try_is_structured():
    # 3.13 copies the statement after the try, with the module's return, into it
    snippet = Snippet("odd_ends_star", SNIPPETS / "odd_ends_star.py")
    _, source = snippet.decompiled_module()
    assert "control flow not structured" not in source, source


def test_bodies_with_statements_after_what_ends_them_are_structured():
    # a break or a case that ends a module or class body, before statements that follow
    snippet = Snippet("module_rest_after", SNIPPETS / "module_rest_after.py")
    _, source = snippet.decompiled_module()
    assert "control flow not structured" not in source, source


# An except clause and the else meet at a raise, which the join of the clauses leaves
# out (seed 1555): the else gets to where a clause went on, and both end there.
MODULE_CLAUSE_MEETS_ELSE_AT_A_RAISE = """
LOG = []
value = int(__file__.endswith(".py"))
if LOG is not None and value is not None:
    with open(__file__) as handle:
        try:
            try:
                LOG.append(10 // value)
            except ZeroDivisionError as e:
                LOG.append(str(e))
            else:
                LOG.append("else")
            raise KeyError(value)
        except KeyError:
            LOG.append("key")
"""


def test_clauses_and_an_else_meeting_at_a_raise_are_structured():
    code = compile(MODULE_CLAUSE_MEETS_ELSE_AT_A_RAISE, __file__, "exec")
    source = decompile(code)
    assert "control flow not structured" not in source, source
    namespace, expected = {"__file__": __file__}, {"__file__": __file__}
    exec(compile(source, __file__, "exec"), namespace)
    exec(code, expected)
    assert namespace["LOG"] == expected["LOG"], source


# try/except* whose finally body holds an except*, inside another, code after it.
MODULE_WITH_STARS = """
LOG = []
try:
    try:
        raise ExceptionGroup("g", [ValueError(1), KeyError(2)])
    except* ValueError as values:
        LOG.append(repr(values))
    finally:
        try:
            LOG.append("finally")
        except* KeyError:
            pass
except* KeyError as keys:
    LOG.append(repr(keys))
AFTER = len(LOG)
"""


@pytest.mark.skipif(sys.version_info < (3, 11), reason="except* is 3.11+")
def test_module_with_except_star_in_finally_is_structured():
    source = decompile(compile(MODULE_WITH_STARS, "<module>", "exec"))
    assert "control flow not structured" not in source, source
    namespace, expected = {}, {}
    exec(source, namespace)
    exec(MODULE_WITH_STARS, expected)
    assert namespace["LOG"] == expected["LOG"] and namespace["AFTER"] == 3, source


@pytest.mark.parametrize("name", ["set_default", "cached_or_loaded"])
def test_code_after_a_try_stays_after_it(name):
    snippet = Snippet("exceptions", SNIPPETS / "exceptions.py")
    source = decompile(resolve(snippet.original(), name))
    body = function_def(ast.parse(source), name).body
    assert [type(s).__name__ for s in body] == ["Try", "Return"], source
    assert not any(isinstance(s, ast.Return) for s in ast.walk(body[0].handlers[0])), source


def test_a_break_the_test_jumps_to_stays_in_the_else():
    # ``elif not stop(ch): ... else: break`` at the end of a loop: the test jumps to
    # the break, so ``if stop(ch): break`` before the rest is not what was written
    snippet = Snippet("loops", SNIPPETS / "loops.py")
    name = "else_break_at_the_end"
    source = decompile(resolve(snippet.original(), name))
    loop = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.While))
    last = loop.body[-1].orelse[-1]
    assert isinstance(last, ast.If) and [type(s) for s in last.orelse] == [ast.Break], source


@pytest.mark.skipif(sys.version_info < (3, 12), reason="before 3.12 the two compile alike")
def test_a_returned_conditional_expression_stays_one_return():
    # 3.12+ fuse ``return <constant>`` into RETURN_CONST, but copy the return of a
    # conditional expression into its arms unfused: the two forms stay apart.
    snippet = Snippet("branches", SNIPPETS / "branches.py")
    shapes = {}
    for name in ("returned_conditionals", "returned_from_branches"):
        body = function_def(ast.parse(decompile(resolve(snippet.original(), name))), name).body
        shapes[name] = [type(s).__name__ for s in body]
    assert shapes == {
        "returned_conditionals": ["If", "Return"],
        "returned_from_branches": ["If", "If", "Return"],
    }


def test_a_match_subject_is_no_statement_of_its_own():
    # each case tests a copy of the subject, then pops the subject: one read of it
    snippet = Snippet("matching", SNIPPETS / "matching.py")
    source = decompile(resolve(snippet.original(), "literals"))
    bare = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Name)
    ]
    assert not bare, source


def test_a_return_in_a_named_clause_under_finally_stays_one_return():
    # the compiler keeps the value over the clearing of the name and the finally
    # body's copy; written back, that is ``return value`` in the clause
    snippet = Snippet("exceptions", SNIPPETS / "exceptions.py")
    source = decompile(resolve(snippet.original(), "parse"))
    tree = ast.parse(source)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Delete)], source
    assert assigned_names(tree) <= {"value", "error", "parse"}, source


@pytest.mark.parametrize(
    "name",
    [
        "returns_from_a_named_clause_in_a_with",
        "returns_from_a_named_clause_under_a_finally_in_a_with",
    ],
)
def test_a_return_in_a_named_clause_in_a_with_clears_no_name(name):
    snippet = Snippet("exceptions", SNIPPETS / "exceptions.py")
    source = decompile(resolve(snippet.original(), name))
    tree = ast.parse(source)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Delete)], source
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id.startswith("_t")], (
        source
    )


def test_a_return_from_a_named_clause_in_a_try_keeps_no_temporary():
    # 3.10 keeps the value over the clearing of the name and returns it after the try
    # around, the raise after the clause copied into each other way, so that its ifs
    # stay nested (no READABLE entry); the value still goes back into the return
    snippet = Snippet("temporary_exits", SNIPPETS / "temporary_exits.py")
    function = resolve(snippet.original(), "returns_from_a_named_clause_in_a_try")
    source = decompile(function)
    invented = assigned_names(ast.parse(source)) - names_in(function.__code__)
    assert not invented, source


def _put_back(assigned: str, stmt: str, reads=lambda ident: 1) -> str:
    from depyf_report.decompiler.tidy.comprehensions import _put_back

    out = ast.parse(assigned).body
    kept = _put_back(out, ast.parse(stmt).body[0], reads)
    return ast.unparse(ast.Module(body=[*out, kept], type_ignores=[]))


def _source(text: str) -> str:
    return ast.unparse(ast.parse(text))  # as this Python's unparse writes it


def test_values_kept_across_an_inlined_comprehension_go_back_in_order():
    # what 3.12+ leave on the stack below an inlined comprehension goes back in place
    assert _put_back("_t1 = a()\n_t2 = b", "x = _t1 + _t2([y])") == _source("x = a() + b([y])")
    # read in another order than assigned: only the last one can move without
    # evaluating b() before a()
    assert _put_back("_t1 = a()\n_t2 = b()", "x = _t2 + _t1") == _source("_t1 = a()\nx = b() + _t1")
    # read after an operation has run, or read twice: they stay
    for stmt, reads in (("x = f() + _t1", 1), ("x = _t1 + g()", 2), ("x = lambda: _t1", 1)):
        assert _put_back("_t1 = a()", stmt, lambda ident, n=reads: n) == _source(
            f"_t1 = a()\n{stmt}"
        )


def _parses(path) -> bool:
    try:
        ast.parse(path.read_text())
    except SyntaxError:  # a snippet of a later Python's syntax
        return False
    return True


DECOMPILER = Path(decompile.__code__.co_filename).parents[1]
SOURCES = [p for p in sorted([*SNIPPETS.glob("*.py"), *DECOMPILER.rglob("*.py")]) if _parses(p)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_reads_are_counted_in_the_scope_of_the_body(path):
    from depyf_report.decompiler.tidy.cleanup import _count_reads

    body = ast.parse(path.read_text()).body
    expected = collections.Counter(
        node.id
        for stmt in body
        for node in _own_scope(stmt)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    )
    assert _count_reads(body) == expected


def _own_scope(node):
    """``ast.walk``, less the bodies of nested functions, lambdas and classes: the
    temporaries there are other variables that happen to have the same names."""
    yield node
    scope = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
    for field, value in ast.iter_fields(node):
        if scope and field == "body":
            continue
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                yield from _own_scope(child)


# trys: module ends no module can write as a return.
def test_a_module_ending_in_a_named_clause_is_structured():
    # 3.12+ copy the statement after the try past the clause's clearing of its name
    snippet = Snippet("try_regions", SNIPPETS / "try_regions.py")
    _, source = snippet.decompiled_module()
    body = ast.parse(source).body
    assert [type(s).__name__ for s in body[-2:]] == ["Try", "Delete"], source
    assert not body[-2].orelse, source


def test_a_named_clause_before_a_copied_end_reads_as_written():
    snippet = Snippet("try_regions", SNIPPETS / "try_regions.py")
    name = "named_clause_before_the_end"
    source = decompile(resolve(snippet.original(), name))
    body = function_def(ast.parse(source), name).body
    assert [type(s).__name__ for s in body[-2:]] == ["Try", "Delete"], source
    assert not body[-2].orelse, source


def test_a_module_ending_in_a_loop_that_never_goes_round_is_structured():
    # its breaks go to the module's implicit return: read as an if, they return
    snippet = Snippet("module_loop_never_round", SNIPPETS / "module_loop_never_round.py")
    _, source = snippet.decompiled_module()
    assert "control flow not structured" not in source, source
    kinds = collections.Counter(type(n).__name__ for n in ast.walk(ast.parse(source)))
    assert kinds["While"] == 1 and kinds["Return"] == 1, source  # (log's return)


def test_a_class_ending_in_named_clauses_is_structured():
    # 3.10 copies the class body's return to the end of each named clause
    snippet = Snippet("try_regions", SNIPPETS / "try_regions.py")
    _, source = snippet.decompiled_module()
    tree = ast.parse(source)
    body = next(n for n in tree.body if getattr(n, "name", "") == "NamedClausesAtTheEnd")
    assert not any(isinstance(n, ast.While) for n in ast.walk(body)), source


# temps: kept in no temporary, though not read as written: the walrus's dropped return
# value (``z = _t1 = v``; the finally body reads as a bare except clause), a loop whose
# compound test comes out as a break
NO_TEMPORARY = [
    "walrus_returned_through_a_finally_continue",
    "returns_through_a_finally_ending_in_a_loop_of_a_compound_test",
]


@pytest.mark.parametrize("name", NO_TEMPORARY)
def test_values_dropped_or_returned_through_a_finally_keep_no_temporary(name):
    snippet = Snippet("temporaries_seen", SNIPPETS / "temporaries_seen.py")
    function = resolve(snippet.original(), name)
    source = decompile(function)
    invented = assigned_names(ast.parse(source)) - names_in(function.__code__)
    assert not invented, source


@pytest.mark.skipif(sys.version_info >= (3, 11), reason="3.10's copies of the module's return")
def test_a_module_loop_broken_by_a_finally_body_is_structured():
    # sm10: 3.10 copies the module's return to the finally body's break (seed 2337)
    snippet = Snippet("fallbacks_310", SNIPPETS / "fallbacks_310.py")
    _, source = snippet.decompiled_module()
    assert "control flow not structured" not in source, source


# tmatch2: match subjects that the walk kept in a temporary, in functions (a case
# that leaves by a way read as going on before later cases; a literal case after cases
# that continue or raise; a guarded capture before an asserting case, or whose body
# defines a function that falls back), and in a module's own code.
MATCH_SUBJECTS = [
    ("match_subject_temporaries", name)
    for name in (
        "returns_through_a_finally_before_a_later_case",
        "breaks_before_a_later_case",
        "breaks_before_later_cases_in_a_while",
        "returns_a_shared_value_before_a_later_case",
        "breaks_in_a_clause_before_an_asserting_case",
        "returns_through_a_finally_in_an_async_def",
        "continues_before_a_literal_case",
        "raises_before_a_literal_case",
        "raises_before_literal_cases_in_a_finally",
        "guarded_capture_before_an_asserting_case",
        "guarded_capture_before_an_asserting_literal_case",
        "guarded_capture_defining_a_function",
    )
]
if sys.version_info >= (3, 11):
    MATCH_SUBJECTS += [
        ("match_subject_temporaries_star", "guarded_capture_defining_a_falling_back_function")
    ]


@pytest.mark.parametrize(
    ("snippet_name", "name"), MATCH_SUBJECTS, ids=[".".join(r) for r in MATCH_SUBJECTS]
)
def test_match_subjects_keep_no_temporary(snippet_name, name):
    snippet = Snippet(snippet_name, SNIPPETS / f"{snippet_name}.py")
    source = decompile(resolve(snippet.original(), name))
    # (a function the state machine takes keeps its stack in locals by design)
    kept = local_temporaries(compile(source, f"<{name}>", "exec"))
    assert not kept, source


# Snippet modules whose code, decompiled as a whole module, keeps no temporary: its
# functions' locals, and the module's own code (the source: a module's end drops its
# temporaries from its namespace, not from the text).
NO_TEMPORARY_MODULES = [
    "match_temporaries",  # tmatch: a guarded capture before cases that never go on
    "spilled_values",  # tmisc
    "held_return_values",  # tfin
    "match_subject_temporaries",  # tmatch2
    "values_returned_after_their_ways",  # seeds 32189, 42026
    "guarded_capture_cases",  # seed 32432
    "finally_copies_alike",  # seeds 25246, 39693, 29220
    "values_loaded_after_a_test",  # seed 63741
    "loops_compiled_away",  # tloop: seed 35551
    "fresh_temporaries",  # tnew: seeds 50694, 49673
]


@pytest.mark.parametrize("snippet_name", NO_TEMPORARY_MODULES)
def test_snippet_modules_keep_no_temporary(snippet_name):
    snippet = Snippet(snippet_name, SNIPPETS / f"{snippet_name}.py")
    _, source = snippet.decompiled_module()
    names = {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    assert not [n for n in names if re.fullmatch(r"_+t\d+", n)], source
