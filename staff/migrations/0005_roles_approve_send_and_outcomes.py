"""The roles gain the workflow's actions (docs/workflow.md).

Engineers approve a version for the customer and may send it; account managers send approved
proposals, download them, revoke links, and record the outcome (won, lost, closed, reopened).
Both see the email outbox. Frozen here like 0002's lists.
"""

import importlib

from django.db import migrations

GRANTS = {
    "Account managers": [
        "staff.send_proposal",
        "staff.download_approved_proposal",
        "staff.share_proposal",
        "staff.record_outcome",
        "staff.view_sharelink",
        "staff.view_proposaldownload",
        "pipeline.view_outgoingemail",
    ],
    "Engineers": [
        "staff.approve_version",
        "staff.send_proposal",
        "pipeline.view_outgoingemail",
    ],
}

_ensure_permissions = importlib.import_module("staff.migrations.0002_roles")._ensure_permissions


def grant(apps, schema_editor):
    _ensure_permissions(apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codes in GRANTS.items():
        group, _ = Group.objects.get_or_create(name=name)
        for code in codes:
            app_label, codename = code.split(".")
            group.permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codes in GRANTS.items():
        group = Group.objects.filter(name=name).first()
        if group is None:
            continue
        for code in codes:
            app_label, codename = code.split(".")
            group.permissions.remove(
                *Permission.objects.filter(content_type__app_label=app_label, codename=codename)
            )


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0004_sending_and_viewing_proposals"),
        ("pipeline", "0003_approval_gate_and_email_outbox"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
