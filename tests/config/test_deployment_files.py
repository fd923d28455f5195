"""docker-compose.yml cannot be run here (no Docker engine): check it by reading it."""

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.conftest import require

ROOT = Path(__file__).resolve().parents[2]


def load_compose() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_defines_the_services_the_deployment_needs():
    services = load_compose()["services"]
    assert {"postgres", "redis", "web", "worker", "beat"} <= set(services)


def test_compose_postgres_has_a_volume_and_a_health_check():
    postgres = load_compose()["services"]["postgres"]
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])


def test_compose_redis_persists_its_queue():
    redis = load_compose()["services"]["redis"]
    assert "--appendonly" in redis["command"] and "yes" in redis["command"]


def test_compose_commands_point_at_code_that_exists():
    services = load_compose()["services"]
    web = " ".join(services["web"]["command"])
    module, _, attribute = re.search(r"(\S+):(\w+)", web).group(0).partition(":")
    assert (ROOT / (module.replace(".", "/") + ".py")).exists()
    assert attribute == "application"
    for name in ("worker", "beat"):
        command = services[name]["command"]
        assert command[:3] == ["celery", "-A", "config"], command
        assert command[3] == name
    assert (ROOT / "config" / "celery.py").exists()
    for name in ("web", "worker", "beat"):
        assert services[name]["env_file"] == ".env"


def test_every_setting_variable_is_documented_in_env_example():
    settings_text = (ROOT / "config" / "settings.py").read_text()
    read = set(re.findall(r'env_(?:str|bool|int|list)\(\s*"([A-Z0-9_]+)"', settings_text))
    documented = {
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }
    assert read, "settings read no environment variables?"
    assert read <= documented, f"undocumented: {sorted(read - documented)}"


def test_dependencies_are_pinned():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"] + project["optional-dependencies"]["test"]:
        assert "==" in requirement, f"not pinned: {requirement}"


def test_only_the_outer_proxy_publishes_a_port_and_it_drops_the_clients_forwarded_for():
    """Finding (medium, issue 25): compose published the inner nginx on every interface, where a
    client picked its own address with a plain X-Forwarded-For and clients without one shared
    a bucket. Only the TLS proxy is published now; it replaces the header, the inner appends."""
    compose = load_compose()
    services = compose["services"]
    published = {name for name, service in services.items() if "ports" in service}
    assert published == {"tls"}
    assert services["tls"]["ports"] == ["443:443", "80:80"]
    assert services["proxy"]["expose"] == ["8000"]
    outer = compose["configs"]["nginx-tls"]["content"].replace("$$", "$")
    inner = (ROOT / compose["configs"]["nginx-web"]["file"]).read_text()
    assert "listen 443 ssl;" in outer and "http://proxy:8000" in outer
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in outer
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in inner
    assert set(compose["secrets"]) == {"tls-certificate", "tls-certificate-key"}


def test_the_compose_nginx_configurations_pass_nginx_t(tmp_path):
    """The inline configuration(s), as compose hands them to nginx, pass ``nginx -t`` (Debian's
    nginx here; the containers run nginx 1.27, which reads the same directives)."""
    require("nginx", shutil.which("nginx") is not None)
    key, certificate = tmp_path / "key.pem", tmp_path / "certificate.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-subj", "/CN=localhost", "-keyout", key, "-out", certificate],
        check=True,
        capture_output=True,
    )
    for name, config in load_compose()["configs"].items():
        # The inner proxy's template is run by the production smoke test (tests/production/).
        if not name.startswith("nginx-") or "content" not in config:
            continue
        content = config["content"]
        # Compose turns $$ into $ and would substitute a lone $ from the environment.
        assert not re.search(r"(?<!\$)\$(?!\$)", content), name
        server = content.replace("$$", "$")
        server = server.replace("/run/secrets/tls-certificate-key", str(key))
        server = server.replace("/run/secrets/tls-certificate", str(certificate))
        (tmp_path / f"{name}.conf").write_text(server)
        main = tmp_path / f"{name}-main.conf"
        main.write_text(
            f"pid {tmp_path}/nginx.pid;\nevents {{}}\nhttp {{\n  include {tmp_path}/{name}.conf;\n}}\n"
        )
        checked = subprocess.run(
            [
                "nginx",
                "-t",
                "-p",
                str(tmp_path),
                "-e",
                str(tmp_path / "error.log"),
                "-c",
                str(main),
            ],
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, checked.stderr


def test_compose_proxy_fills_in_every_variable_of_the_repositorys_nginx_template():
    # The smoke test (tests/production/) runs the same template under Debian's nginx.
    compose = load_compose()
    source = compose["configs"]["nginx-web"]["file"]
    template = (ROOT / source).read_text()
    proxy = compose["services"]["proxy"]
    mounted = next(c for c in proxy["configs"] if c["source"] == "nginx-web")
    # The nginx image fills in /etc/nginx/templates/*.template into /etc/nginx/conf.d/ at start.
    assert mounted["target"].startswith("/etc/nginx/templates/")
    assert mounted["target"].endswith(".conf.template")
    assert set(re.findall(r"\$\{([A-Z_][A-Z0-9_]*)\}", template)) == set(proxy["environment"])
