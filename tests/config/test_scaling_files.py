"""What lets web and worker scale out, checked by reading docker-compose.yml (no Docker engine
here) and by running bin/create-bucket against a real S3 server."""

import os
import subprocess
import sys
from pathlib import Path

from tests.config.test_deployment_files import load_compose

ROOT = Path(__file__).resolve().parents[2]
SCALED = ("web", "worker")


def test_the_object_store_has_a_health_check_and_its_bucket_is_created_before_the_service():
    services = load_compose()["services"]
    store = services["seaweedfs"]
    assert "-s3" in store["command"]
    assert "/healthz" in " ".join(store["healthcheck"]["test"])
    bucket = services["bucket"]
    assert bucket["command"] == ["python", "bin/create-bucket"]
    assert bucket["depends_on"]["seaweedfs"]["condition"] == "service_healthy"
    for name in SCALED:
        needs = services[name]["depends_on"]
        assert needs["bucket"]["condition"] == "service_completed_successfully", name


def test_web_and_worker_keep_nothing_on_their_host_and_bind_no_fixed_port():
    services = load_compose()["services"]
    for name in (*SCALED, "beat"):
        assert "volumes" not in services[name], f"{name} keeps files on its host"
        assert "--schedule" not in services[name]["command"]
        assert "container_name" not in services[name]
    assert "ports" not in services["web"]  # --scale web=3 would clash on one host port
    assert "ports" not in services["proxy"]  # only the TLS proxy is published
    # deploy/nginx/web.conf.template, filled in from the proxy's environment at start.
    nginx = (ROOT / load_compose()["configs"]["nginx-web"]["file"]).read_text()
    variables = services["proxy"]["environment"]
    assert (
        variables["NGINX_RESOLVER"] == "127.0.0.11" and variables["NGINX_WEB"] == "http://web:8000"
    )
    assert "resolver ${NGINX_RESOLVER}" in nginx and "set $web ${NGINX_WEB};" in nginx
    assert "$proxy_add_x_forwarded_for" in nginx


def test_the_example_environment_points_storage_and_beat_at_shared_services():
    example = dict(
        line.split("=", 1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert example["S3_BUCKET"] and example["S3_ENDPOINT_URL"] == "http://seaweedfs:8333"
    assert example["CACHE_URL"].startswith("redis://")
    network = load_compose()["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert example["DJANGO_TRUSTED_PROXIES"] == network


def test_create_bucket_makes_the_bucket_once_and_is_safe_to_run_again(s3_service):
    bucket = f"created-{os.getpid()}"
    env = {**os.environ, **s3_service.settings_env(bucket)}
    runs = [
        subprocess.run(
            [sys.executable, "bin/create-bucket"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
        for _ in range(2)
    ]
    try:
        assert [run.returncode for run in runs] == [0, 0], runs[0].stderr + runs[1].stderr
        kept = "versioning on: earlier versions kept 30 days"
        assert runs[0].stdout.split("\n")[:2] == [f"bucket {bucket} created", kept]
        assert runs[1].stdout.split("\n")[:2] == [f"bucket {bucket} exists", kept]
        client = s3_service.client()
        assert client.get_bucket_versioning(Bucket=bucket)["Status"] == "Enabled"
        (rule,) = client.get_bucket_lifecycle_configuration(Bucket=bucket)["Rules"]
        assert rule["NoncurrentVersionExpiration"]["NoncurrentDays"] == 30
        # The PDFs' backup: a proposal overwritten, then deleted, can still be read back.
        client.put_object(Bucket=bucket, Key="proposals/p/v1-proposal.pdf", Body=b"%PDF-first")
        client.put_object(Bucket=bucket, Key="proposals/p/v1-proposal.pdf", Body=b"%PDF-second")
        client.delete_object(Bucket=bucket, Key="proposals/p/v1-proposal.pdf")
        versions = client.list_object_versions(Bucket=bucket)["Versions"]
        bodies = {
            client.get_object(Bucket=bucket, Key=v["Key"], VersionId=v["VersionId"])["Body"].read()
            for v in versions
        }
        assert bodies == {b"%PDF-first", b"%PDF-second"}
    finally:
        _delete_every_version(s3_service, bucket)


def _delete_every_version(s3_service, bucket: str) -> None:
    client = s3_service.client()
    listing = client.list_object_versions(Bucket=bucket)
    for entry in listing.get("Versions", []) + listing.get("DeleteMarkers", []):
        client.delete_object(Bucket=bucket, Key=entry["Key"], VersionId=entry["VersionId"])
    client.delete_bucket(Bucket=bucket)
