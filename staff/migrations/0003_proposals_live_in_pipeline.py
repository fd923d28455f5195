"""Share links and downloads point at ``pipeline.Proposal`` (same table, so state only), and the
content types of the moved models follow them, so the roles keep their permissions.

On a database that has run the earlier migrations, the content types ``sizing.recommendation``
and ``reports.proposal`` are renamed in place (their permissions, and the groups holding them,
come along). On a fresh database the roles migration may already have created both the old and
the new content type; the groups' old permissions are then swapped for the new ones and the old
content types removed.
"""

import django.db.models.deletion
from django.db import migrations, models

MOVED = [("sizing", "recommendation"), ("reports", "proposal")]
NEW_APP = "pipeline"


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    for old_app, model in MOVED:
        old = ContentType.objects.filter(app_label=old_app, model=model).first()
        if old is None:
            continue
        new = ContentType.objects.filter(app_label=NEW_APP, model=model).first()
        if new is None:
            old.app_label = NEW_APP
            old.save(update_fields=["app_label"])
            continue
        for old_permission in Permission.objects.filter(content_type=old):
            new_permission, _ = Permission.objects.get_or_create(
                content_type=new,
                codename=old_permission.codename,
                defaults={"name": old_permission.name},
            )
            for group in old_permission.group_set.all():
                group.permissions.add(new_permission)
            for user in old_permission.user_set.all():
                user.user_permissions.add(new_permission)
        old.delete()


def move_content_types_back(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for old_app, model in MOVED:
        ContentType.objects.filter(app_label=NEW_APP, model=model).update(app_label=old_app)


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0002_roles"),
        ("pipeline", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    run_before = [("reports", "0002_proposal_moves_to_pipeline")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="sharelink",
                    name="proposal",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="share_links",
                        to="pipeline.proposal",
                    ),
                ),
                migrations.AlterField(
                    model_name="proposaldownload",
                    name="proposal",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="downloads",
                        to="pipeline.proposal",
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
