"""Create the staff roles as groups with permissions.

Account managers see and update submissions (status, assignment, notes) and see proposals.
Engineers see submissions and recommendations, override assumptions, re-run sizing and
download proposals. Deleting submissions is left to superusers.

The lists are frozen here on purpose: a migration must keep meaning the same thing when the
code around it changes. Later changes to a role get a new migration.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "Account managers": [
        "questionnaire.view_submission",
        "questionnaire.change_submission",
        "sizing.view_recommendation",
        "reports.view_proposal",
        "staff.view_auditevent",
        "staff.view_note",
        "staff.add_note",
        "staff.export_submissions",
        "staff.view_overview",
    ],
    "Engineers": [
        "questionnaire.view_submission",
        "sizing.view_recommendation",
        "reports.view_proposal",
        "staff.view_auditevent",
        "staff.view_note",
        "staff.add_note",
        "staff.view_proposaldownload",
        "staff.view_sharelink",
        "staff.rerun_sizing",
        "staff.regenerate_proposal",
        "staff.retry_pipeline",
        "staff.download_proposal",
        "staff.share_proposal",
        "staff.export_submissions",
        "staff.view_overview",
    ],
}


def _ensure_permissions(apps):
    # Permissions are normally created after *all* migrations (post_migrate); on a fresh
    # database they do not exist yet when this runs, so create them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None


def create_roles(apps, schema_editor):
    _ensure_permissions(apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codes in ROLES.items():
        group, _ = Group.objects.get_or_create(name=name)
        for code in codes:
            app_label, codename = code.split(".")
            group.permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLES).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("questionnaire", "0001_initial"),
        ("sizing", "0001_initial"),
        ("reports", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
