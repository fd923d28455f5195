"""docker-compose.yml cannot be run here (no Docker engine): check it by reading it."""

import re
import tomllib
from pathlib import Path

import pytest

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
