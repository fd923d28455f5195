"""The restore drill (issue 31): back up, wipe, restore, and the submissions and their PDFs are
readable again. bin/backup and bin/restore are run as an operator would, on a database of
their own with the demo's four proposals rendered into it."""

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.config.test_deployment_files import load_compose
from tests.config.test_settings import run_manage

ROOT = Path(__file__).resolve().parents[2]
# The submissions, their proposals and each PDF's bytes, as the web and worker read them.
SNAPSHOT = (
    "import hashlib, json\n"
    "from questionnaire.models import Submission\n"
    "from pipeline.models import Proposal\n"
    "rows = {}\n"
    "for s in Submission.objects.order_by('reference'):\n"
    "    pdfs = []\n"
    "    for p in Proposal.objects.filter(recommendation__submission=s).order_by('pk'):\n"
    "        with p.pdf.open('rb') as f:\n"
    "            pdfs.append(hashlib.sha256(f.read()).hexdigest())\n"
    "    rows[s.reference] = [s.company, s.pipeline_status, pdfs]\n"
    "print(json.dumps(rows))\n"
)


def _server_url(name: str) -> str:
    db = settings.DATABASES["default"]
    user = db.get("USER") or "root"
    return f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{name}"


def _admin(sql: str) -> None:
    with psycopg.connect(_server_url("postgres"), autocommit=True) as connection:
        connection.execute(sql)


@pytest.fixture
def drill_database(postgres_required):
    name = f"restore_drill_{os.getpid()}"
    _admin(f"DROP DATABASE IF EXISTS {name}")
    _admin(f"CREATE DATABASE {name}")
    yield name
    _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_backup_wipe_restore_and_every_submission_and_pdf_is_readable_again(
    drill_database, tmp_path
):
    require_tools = [tool for tool in ("pg_dump", "pg_restore") if not shutil.which(tool)]
    assert not require_tools, f"missing {require_tools}"
    env = {
        "DJANGO_SECRET_KEY": "a-long-random-production-secret-" + "x7Qp2Lm9" * 6,
        "DJANGO_VAR_DIR": str(tmp_path / "var"),
        "DATABASE_URL": _server_url(drill_database),
        "DJANGO_EMBEDDED_SERVICES": "cache,broker,storage",  # one host: PDFs on its disk
    }

    def manage(*args: str) -> str:
        result = run_manage(*args, **env)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def script(name: str, *args: str) -> str:
        result = subprocess.run(
            [str(ROOT / "bin" / name), *args],
            env={**os.environ, **env, "PATH": os.environ["PATH"]},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def snapshot() -> dict:
        return json.loads(manage("shell", "-c", SNAPSHOT).strip().splitlines()[-1])

    manage("migrate", "--noinput")
    manage("load_demo", "--allow-production")
    before = snapshot()
    assert len(before) == 4
    assert all(status == "ready" and len(pdfs) == 1 for _, status, pdfs in before.values())

    script("backup", str(tmp_path / "backup"))
    assert {p.name for p in (tmp_path / "backup").iterdir()} == {
        "database.dump",
        "proposals.tar.gz",
        "SHA256SUMS",
    }

    # The disaster: the database and the PDFs are gone.
    _admin(f"DROP DATABASE {drill_database} WITH (FORCE)")
    _admin(f"CREATE DATABASE {drill_database}")
    shutil.rmtree(tmp_path / "var" / "private")
    gone = run_manage("shell", "-c", SNAPSHOT, **env)
    assert gone.returncode != 0  # no tables

    script("restore", str(tmp_path / "backup"))
    assert snapshot() == before
    manage("migrate", "--check")  # the restored schema is the release's


def test_a_damaged_backup_is_refused_before_anything_is_touched(tmp_path):
    backup = tmp_path / "backup"
    backup.mkdir()
    (backup / "database.dump").write_bytes(b"PGDMP one")
    sums = subprocess.run(
        ["sha256sum", "database.dump"], cwd=backup, check=True, capture_output=True, text=True
    )
    (backup / "SHA256SUMS").write_text(sums.stdout)
    (backup / "database.dump").write_bytes(b"PGDMP two")  # changed after the sums were taken
    result = subprocess.run(
        [str(ROOT / "bin" / "restore"), str(backup)],
        env={**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "database.dump: FAILED" in result.stdout + result.stderr
    assert "pg_restore" not in result.stderr  # it never reached the database


def test_the_compose_backup_service_writes_a_dump_that_restores(drill_database, tmp_path):
    """docker-compose.yml's daily pg_dump loop, run here with its $$ unescaped, on a database."""
    service = load_compose()["services"]["backup"]
    command = [part.replace("$$", "$") for part in service["command"]]
    assert command[-1].endswith("sleep 86400; done")
    env = {
        **os.environ,
        "PGHOST": settings.DATABASES["default"].get("HOST") or "127.0.0.1",
        "PGUSER": settings.DATABASES["default"].get("USER") or "root",
        "PGDATABASE": drill_database,
        "BACKUP_DIR": str(tmp_path),
        "KEEP_DAYS": service["environment"]["KEEP_DAYS"].split(":-")[1].rstrip("}"),
    }
    _admin_in(drill_database, "CREATE TABLE kept (answer text); INSERT INTO kept VALUES ('42')")
    loop = subprocess.Popen(command, env=env, start_new_session=True)
    listing = ""
    try:
        deadline = time.monotonic() + 60
        while "TABLE DATA public kept" not in listing and time.monotonic() < deadline:
            time.sleep(0.5)
            for dump in tmp_path.glob("sizing-*.dump"):  # complete once pg_restore reads it
                listed = subprocess.run(
                    ["pg_restore", "--list", str(dump)], capture_output=True, text=True
                )
                listing = listed.stdout if listed.returncode == 0 else ""
    finally:
        os.killpg(loop.pid, signal.SIGTERM)
        loop.wait(10)
    assert "TABLE DATA public kept" in listing
    assert len(list(tmp_path.glob("sizing-*.dump"))) == 1


def _admin_in(database: str, sql: str) -> None:
    with psycopg.connect(_server_url(database), autocommit=True) as connection:
        connection.execute(sql)
