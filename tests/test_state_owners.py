"""Each status of a submission is written by the one app that changes it.

The ``Submission`` row (questionnaire) carries two states: ``status``, the staff workflow's, and
``pipeline_status``, the pipeline's (docs/architecture.md, "Who owns a submission's state"). They
stay columns of that row, but only their owners write them: the staff app (its workflow actions)
and the pipeline (its state machine); the questionnaire only creates a submission in the
pipeline's first state. The pipeline writes the ``status`` of its own rows (versions, proposals,
emails), never a workflow status.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("questionnaire", "pipeline", "staff", "reports", "sizing", "config")
# The app that may write each field (``status`` of a submission: the staff workflow's).
WRITERS = {
    "status": {"staff", "pipeline"},  # pipeline: its own rows' status, checked below
    "pipeline_status": {"pipeline"},
    "pipeline_error": {"pipeline"},
    "pipeline_updated_at": {"pipeline"},
}
CREATES = {"create", "get_or_create", "update_or_create"}
SAVES = CREATES | {"update", "bulk_update"}


def _writes(tree: ast.AST) -> list[tuple[str, int, str, bool]]:
    """(field, line, how, workflow) for every assignment to a state field and every ORM write
    naming one; ``workflow`` when the value written names ``WorkflowStatus``."""
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            for element in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(element, ast.Attribute) and element.attr in WRITERS:
                    found.append((element.attr, node.lineno, "assign", _names_workflow(node.value)))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in SAVES
        ):
            for keyword in node.keywords:
                if keyword.arg in WRITERS:
                    workflow = _names_workflow(keyword.value)
                    found.append((keyword.arg, node.lineno, node.func.attr, workflow))
    return found


def _names_workflow(value: ast.AST) -> bool:
    return any(
        isinstance(node, ast.Attribute | ast.Name) and "WorkflowStatus" in ast.unparse(node)
        for node in ast.walk(value)
    )


def _app_files():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), path


def test_only_the_owning_app_writes_a_submissions_state():
    strays = []
    for name, path in _app_files():
        app = name.split("/")[0]
        for field, line, how, workflow in _writes(ast.parse(path.read_text())):
            created_pending = name == "questionnaire/services.py" and how in CREATES
            allowed = app in WRITERS[field] or (field == "pipeline_status" and created_pending)
            if not allowed or (field == "status" and workflow and app != "staff"):
                strays.append(f"{name}:{line} writes {field} ({how})")
    assert strays == []


def test_the_check_sees_a_write_from_another_app():
    stray = ast.parse(
        "submission.pipeline_status = 'ready'\n"
        "Submission.objects.update(status=Submission.WorkflowStatus.WON)"
    )
    assert [(field, how, workflow) for field, _, how, workflow in _writes(stray)] == [
        ("pipeline_status", "assign", False),
        ("status", "update", True),
    ]
