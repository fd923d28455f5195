"""The two statements the wizard runs on a draft's row on every page, their SQL and the reading of
their row worked out once per process instead of by the ORM on every request (issue 29:
compiling the queries and resolving their columns was about half a question POST's ORM time).

* :func:`draft_and_whether_sent`: the draft, and whether it was sent, in one query;
* :func:`merge_step`: one step's data merged into the draft in one statement, no lock taken
  first: the database merges into the row as it is when the statement runs, so two tabs saving
  different steps at once each keep their step (PostgreSQL's UPDATE waits for the other's row
  lock, then merges into what it wrote; SQLite runs one write at a time).

Both read back every column of the draft, in the model's order, converted as the ORM converts
them, so the Draft they return is the one ``Draft.objects.get`` would.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Field
from django.http import Http404
from django.utils import timezone

from questionnaire.models import Draft, Submission

StepData = dict[str, list[str]]
Converter = Callable[[Any, Any, Any], Any]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(model: type[Draft] | type[Submission], name: str) -> str:
    return f"{_quote(model._meta.db_table)}.{_quote(model._meta.get_field(name).column)}"  # type: ignore[union-attr]


def _draft_columns() -> str:
    """Every column of the draft, in the order of ``Draft._meta.concrete_fields``."""
    return ", ".join(_column(Draft, field.name) for field in Draft._meta.concrete_fields)


@functools.cache
def _converters(vendor: str) -> list[tuple[int, list[Converter], Any]]:
    """For each column of :func:`_draft_columns` that the ORM converts (a UUID, a date, JSON),
    its position, its converters and the column they are given, as the ORM's compiler finds
    them (``SQLCompiler.get_converters``) for the database ``vendor``."""
    converters = []
    for position, field in enumerate(Draft._meta.concrete_fields):
        column = field.get_col(Draft._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((position, found, column))
    return converters


_FIELD_NAMES = [field.attname for field in Draft._meta.concrete_fields]


def _draft(values: Sequence[Any]) -> Draft:
    """The Draft of a row of :func:`_draft_columns`, as the ORM would make it."""
    values = list(values)
    for position, converters, column in _converters(connection.vendor):
        for convert in converters:
            values[position] = convert(values[position], column, connection)
    return Draft.from_db(connection.alias, _FIELD_NAMES, values)


@functools.cache
def _select_sql(vendor: str) -> str:
    """The draft by id, then its submission's id or NULL (a LEFT JOIN) for ``vendor``."""
    draft_table, submission_table = _quote(Draft._meta.db_table), _quote(Submission._meta.db_table)
    # only the models' own table and column names are written in; the id is a parameter
    return (
        f"SELECT {_draft_columns()}, {_column(Submission, 'id')} FROM {draft_table} "  # noqa: S608
        f"LEFT OUTER JOIN {submission_table} "
        f"ON {_column(Submission, 'draft')} = {_column(Draft, 'id')} "
        f"WHERE {_column(Draft, 'id')} = %s"
    )


def _draft_id(draft_id: uuid.UUID) -> Any:
    return Draft._meta.get_field("id").get_db_prep_value(draft_id, connection)


def draft_and_whether_sent(draft_id: uuid.UUID) -> tuple[Draft, bool]:
    """The draft, and whether it became a submission; Http404 if there is none by that id."""
    with connection.cursor() as cursor:
        cursor.execute(_select_sql(connection.vendor), [_draft_id(draft_id)])
        row = cursor.fetchone()
    if row is None:
        raise Http404("No questionnaire by that id.")
    return _draft(row[:-1]), row[-1] is not None


@functools.cache
def _merge_sql(vendor: str) -> str:
    """``UPDATE`` of one draft for ``vendor``: its step data with one step replaced, its
    current step, its revision bumped, ``updated_at``; every column returned."""
    step_data = _quote(Draft._meta.get_field("step_data").column)
    merged = {
        # jsonb's || replaces the one top-level key and keeps every other
        "postgresql": f"{step_data} || %s::jsonb",
        # json_set, not json_patch: a merge patch would keep the step's fields left out now
        "sqlite": f"json_set({step_data}, '$.' || json_quote(%s), json(%s))",
    }[vendor]
    current_step, revision, updated_at, draft_id = (
        _quote(Draft._meta.get_field(name).column)
        for name in ("current_step", "revision", "updated_at", "id")
    )
    # only the model's own table and column names are written in; every value is a parameter
    return (
        f"UPDATE {_quote(Draft._meta.db_table)} SET {step_data} = {merged}, "  # noqa: S608
        f"{current_step} = %s, {revision} = {revision} + 1, {updated_at} = %s "
        f"WHERE {draft_id} = %s RETURNING {_draft_columns()}"
    )


def merge_step(*, draft_id: uuid.UUID, step: str, raw: StepData, current_step: str) -> Draft:
    """Replace one step's data in the draft and record the customer's current step; the draft
    as written (every other step as stored when the statement ran)."""
    step_data: Field = Draft._meta.get_field("step_data")  # type: ignore[assignment]
    if connection.vendor == "postgresql":
        merged: list[Any] = [step_data.get_db_prep_save({step: raw}, connection)]
    else:
        merged = [step, step_data.get_db_prep_save(raw, connection)]
    updated_at: Field = Draft._meta.get_field("updated_at")  # type: ignore[assignment]
    params = [
        *merged,
        current_step,
        updated_at.get_db_prep_save(timezone.now(), connection),
        _draft_id(draft_id),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_merge_sql(connection.vendor), params)
        rows = cursor.fetchall()
    if not rows:
        raise Draft.DoesNotExist(f"No draft {draft_id}.")
    return _draft(rows[0])
